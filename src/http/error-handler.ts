import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest, HTTPMethods } from 'fastify';
import FindMyWay from 'find-my-way';
import { isDatabaseUnavailable } from '../db/database.ts';
import { AppError, ERROR_STATUS, type ErrorCode, Errors, errorBody } from '../errors.ts';
import { logThrottle } from '../lib/log-throttle.ts';

const CODE_BY_STATUS: Record<number, ErrorCode> = {
  400: 'VALIDATION_ERROR',
  401: 'UNAUTHENTICATED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  405: 'METHOD_NOT_ALLOWED',
  409: 'CONFLICT',
  412: 'STATE_DRIFT',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  429: 'QUOTA_EXCEEDED',
  503: 'UNAVAILABLE',
};

type ValidationIssue = NonNullable<FastifyError['validation']>[number];

/**
 * One sentence for the first problem, naming the field and, where the schema lists them, the
 * values it takes: "body/actor_role must be one of "user", "admin"…", "body has an unknown field
 * 'scope'", "body is missing the field 'claim'".
 */
export function describeValidation(issues: readonly ValidationIssue[], context: string): string {
  const first = issues[0];
  if (!first) return `${context} is invalid`;
  const where = `${context}${first.instancePath}`;
  const params = (first.params ?? {}) as Record<string, unknown>;
  if (first.keyword === 'additionalProperties') {
    return `${where} has an unknown field '${String(params['additionalProperty'])}'`;
  }
  if (first.keyword === 'required')
    return `${where} is missing the field '${String(params['missingProperty'])}'`;
  const allowed: unknown[] = [];
  for (const issue of issues) {
    if (issue.instancePath !== first.instancePath) continue;
    const p = (issue.params ?? {}) as Record<string, unknown>;
    if (issue.keyword === 'const') allowed.push(p['allowedValue']);
    if (issue.keyword === 'enum' && Array.isArray(p['allowedValues'])) allowed.push(...p['allowedValues']);
  }
  if (allowed.length > 0) {
    return `${where} must be one of ${[...new Set(allowed)].map((v) => JSON.stringify(v)).join(', ')}`;
  }
  return `${where} ${first.message ?? 'is invalid'}`;
}

/** Turns anything thrown into an `AppError`; unknown errors become INTERNAL without their details. */
export function toAppError(error: FastifyError | Error, request: FastifyRequest): AppError {
  if (error instanceof AppError) return error;
  const fe = error as FastifyError;
  if (fe.validation) {
    return new AppError(
      'VALIDATION_ERROR',
      describeValidation(fe.validation, fe.validationContext ?? 'body'),
      {
        details: {
          errors: fe.validation.slice(0, 10).map((v) => ({
            path: `${fe.validationContext ?? 'body'}${v.instancePath}`,
            message: v.message ?? 'is invalid',
            ...(v.params && Object.keys(v.params).length > 0 ? { params: v.params } : {}),
          })),
        },
      },
    );
  }
  switch (fe.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return Errors.payloadTooLarge(request.routeOptions.bodyLimit ?? 0);
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return Errors.unsupportedMediaType(request.headers['content-type']);
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return Errors.invalidJson('The request body is empty; send a JSON object');
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return Errors.validation('Content-Length does not match the body');
  }
  // PostgreSQL restarting, failing over or cut off: the request may well succeed a moment later.
  if (isDatabaseUnavailable(error))
    return Errors.unavailable('The database cannot be reached; try again shortly');
  const status = typeof fe.statusCode === 'number' ? fe.statusCode : 500;
  if (status >= 400 && status < 500) {
    const code = CODE_BY_STATUS[status] ?? 'VALIDATION_ERROR';
    return new AppError(code, fe.message || 'The request was not accepted');
  }
  return Errors.internal();
}

/** Seconds a client is asked to wait before retrying a 503 that does not say otherwise. */
export const RETRY_AFTER_SECONDS = 1;

export function sendError(reply: FastifyReply, error: AppError): FastifyReply {
  if (error.headers) reply.headers(error.headers);
  // Every 503 says when to come back (Retry-After, RFC 9110 §10.2.3), whoever raised it.
  if (error.status === 503 && !reply.hasHeader('retry-after'))
    reply.header('retry-after', String(RETRY_AFTER_SECONDS));
  return reply
    .status(ERROR_STATUS[error.code])
    .type('application/json')
    .send(errorBody(error, reply.request.id));
}

/** Longest path segment the router reads as a parameter; a longer one is refused before routing. */
export const MAX_PARAM_LENGTH = 200;

/**
 * Errors the router raises before any route or hook runs (a malformed URL, a path segment over
 * MAX_PARAM_LENGTH): answered with the same error body as everything else, not Fastify's own.
 */
export function frameworkErrors(error: FastifyError, _request: FastifyRequest, reply: FastifyReply): void {
  const appError =
    error.code === 'FST_ERR_MAX_PARAM_LENGTH'
      ? Errors.validation(`A path segment is longer than ${MAX_PARAM_LENGTH} characters`)
      : error.code === 'FST_ERR_BAD_URL'
        ? Errors.validation('The URL is malformed')
        : Errors.validation(error.message || 'The request was not accepted');
  sendError(reply, appError);
}

export function registerErrorHandling(app: FastifyInstance): void {
  // During an outage every request fails the same way: one line every few seconds says so.
  const unavailableReport = logThrottle(5000);
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const appError = toAppError(error, request);
    if (appError.code === 'INTERNAL') request.log.error({ err: error }, 'unhandled error');
    else if (appError.code === 'UNAVAILABLE' && !(error instanceof AppError)) {
      const r = unavailableReport();
      if (r)
        request.log.warn(
          { err: error, suppressed: r.suppressed },
          'answered 503: the database cannot be reached',
        );
    }
    return sendError(reply, appError);
  });
  // Every route's path and methods, so that a known path asked with another method is a 405
  // that names the methods it takes, not a 404.
  const paths = FindMyWay({ ignoreTrailingSlash: false });
  const methodsOf = new Map<string, Set<string>>();
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    let known = methodsOf.get(route.url);
    if (!known) {
      known = new Set();
      methodsOf.set(route.url, known);
      paths.on('GET', route.url, () => undefined, { path: route.url });
    }
    for (const m of methods as HTTPMethods[]) known.add(m.toUpperCase());
  });
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0]!;
    const found = paths.find('GET', path) as { store?: { path: string } } | null;
    const allowed = found?.store ? methodsOf.get(found.store.path) : undefined;
    if (allowed && !allowed.has(request.method)) {
      const allow = [...allowed].filter((m) => m !== 'HEAD').sort();
      return sendError(
        reply,
        new AppError('METHOD_NOT_ALLOWED', `${path} takes ${allow.join(', ')}, not ${request.method}`, {
          headers: { allow: allow.join(', ') },
        }),
      );
    }
    return sendError(reply, Errors.routeNotFound(request.method, request.url));
  });
}
