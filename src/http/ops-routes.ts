import { timingSafeEqual } from 'node:crypto';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Registry } from 'prom-client';
import { Type } from 'typebox';
import { AppError, Errors } from '../errors.ts';
import { sha256 } from '../lib/sha256.ts';

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|::1|localhost)$/i;

/**
 * Who may read `/metrics`. With `token` set: a request with `Authorization: Bearer <token>`.
 * Without it: anyone, but only while the server listens on a loopback address; bound beyond it,
 * the metrics (routes, volumes, latencies) are not served until a token is configured.
 */
export function metricsAccess(host: string, token: string | undefined) {
  const expected = token === undefined ? undefined : Buffer.from(sha256(token));
  return (authorization: string | undefined): AppError | undefined => {
    if (expected === undefined) {
      if (LOOPBACK.test(host)) return undefined;
      return new AppError(
        'FORBIDDEN',
        `/metrics is served beyond loopback (HOST=${host}) only with ARBITER_METRICS_TOKEN set`,
      );
    }
    const given = /^Bearer (.+)$/.exec(authorization ?? '')?.[1];
    if (given !== undefined && timingSafeEqual(Buffer.from(sha256(given)), expected)) return undefined;
    return Errors.unauthenticated('/metrics needs Authorization: Bearer <ARBITER_METRICS_TOKEN>');
  };
}

const RootLinks = Type.Object({
  name: Type.String(),
  console: Type.String(),
  docs: Type.String(),
  openapi: Type.String(),
  health: Type.String(),
});

/** What `GET /` answers: someone who opens the server's address finds the way in, not a 404. */
const ROOT_LINKS = {
  name: 'Arbiter',
  console: '/console',
  docs: '/docs',
  openapi: '/openapi.json',
  health: '/healthz',
} as const;

/** Unauthenticated operational endpoints (DESIGN "Runtime contract"). */
export function opsRoutes(deps: {
  ready: () => Promise<boolean>;
  metrics: Registry;
  /** From `metricsAccess`: an error for a request that may not read the metrics. */
  metricsRefusal: (authorization: string | undefined) => AppError | undefined;
}): FastifyPluginAsyncTypebox {
  return async (app) => {
    const ok = { 200: Type.Object({ status: Type.String() }) };
    app.get(
      '/',
      {
        config: { auth: false },
        schema: {
          tags: ['Operations'],
          summary: 'Where to go from here: the console, the API reference, health',
          response: { 200: RootLinks },
        },
      },
      async () => ROOT_LINKS,
    );
    app.get(
      '/healthz',
      {
        config: { auth: false },
        schema: { tags: ['Operations'], summary: 'The process is up', response: ok },
      },
      async () => ({ status: 'ok' }),
    );
    app.get(
      '/readyz',
      {
        config: { auth: false },
        schema: {
          tags: ['Operations'],
          summary: 'The database answers and migrations are applied',
          response: ok,
        },
      },
      async () => {
        if (!(await deps.ready())) throw Errors.unavailable('The database is unreachable or not migrated');
        return { status: 'ready' };
      },
    );
    app.get(
      '/metrics',
      {
        config: { auth: false },
        schema: { tags: ['Operations'], summary: 'Prometheus metrics', hide: true },
      },
      async (request, reply) => {
        const refusal = deps.metricsRefusal(request.headers.authorization);
        if (refusal) throw refusal;
        return reply.type(deps.metrics.contentType).send(await deps.metrics.metrics());
      },
    );
  };
}
