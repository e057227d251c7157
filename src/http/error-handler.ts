import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError, ERROR_STATUS, type ErrorCode, Errors, errorBody } from '../errors.ts';

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

/** Turns anything thrown into an `AppError`; unknown errors become INTERNAL without their details. */
export function toAppError(error: FastifyError | Error, request: FastifyRequest): AppError {
  if (error instanceof AppError) return error;
  const fe = error as FastifyError;
  if (fe.validation) {
    const first = fe.validation[0];
    const where = `${fe.validationContext ?? 'body'}${first?.instancePath ?? ''}`;
    return new AppError('VALIDATION_ERROR', `${where} ${first?.message ?? 'is invalid'}`, {
      details: {
        errors: fe.validation.slice(0, 10).map((v) => ({
          path: `${fe.validationContext ?? 'body'}${v.instancePath}`,
          message: v.message ?? 'is invalid',
          ...(v.params && Object.keys(v.params).length > 0 ? { params: v.params } : {}),
        })),
      },
    });
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
  const status = typeof fe.statusCode === 'number' ? fe.statusCode : 500;
  if (status >= 400 && status < 500) {
    const code = CODE_BY_STATUS[status] ?? 'VALIDATION_ERROR';
    return new AppError(code, fe.message || 'The request was not accepted');
  }
  return Errors.internal();
}

export function sendError(reply: FastifyReply, error: AppError): FastifyReply {
  if (error.headers) reply.headers(error.headers);
  return reply
    .status(ERROR_STATUS[error.code])
    .type('application/json')
    .send(errorBody(error, reply.request.id));
}

export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const appError = toAppError(error, request);
    if (appError.code === 'INTERNAL') request.log.error({ err: error }, 'unhandled error');
    return sendError(reply, appError);
  });
  app.setNotFoundHandler((request, reply) =>
    sendError(reply, Errors.routeNotFound(request.method, request.url)),
  );
}
