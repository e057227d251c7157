import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Registry } from 'prom-client';
import { Type } from 'typebox';
import { Errors } from '../errors.ts';

/** Unauthenticated operational endpoints (DESIGN "Runtime contract"). */
export function opsRoutes(deps: {
  ready: () => Promise<boolean>;
  metrics: Registry;
}): FastifyPluginAsyncTypebox {
  return async (app) => {
    const ok = { 200: Type.Object({ status: Type.String() }) };
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
      async (_request, reply) => reply.type(deps.metrics.contentType).send(await deps.metrics.metrics()),
    );
  };
}
