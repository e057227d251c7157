import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ApiKeysService, Principal } from '../domains/api-keys/service.ts';
import type { UsageMeter } from '../domains/usage/meter.ts';
import { Errors } from '../errors.ts';

declare module 'fastify' {
  interface FastifyRequest {
    principal: Principal | null;
  }
  interface FastifyContextConfig {
    /** Route needs a bearer API key (default). Operational and operator routes set this to false. */
    auth?: boolean;
  }
}

export function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (typeof header !== 'string') return undefined;
  const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header);
  return match?.[1];
}

/** The principal of an authenticated route (set by the auth hook before any handler runs). */
export function principalOf(request: FastifyRequest): Principal {
  if (!request.principal) throw Errors.unauthenticated();
  return request.principal;
}

/**
 * Resolves the bearer key on every route that does not opt out, before the body is read, and
 * counts the call for metering once the key is known to be good.
 */
export function registerAuth(
  app: FastifyInstance,
  deps: { apiKeys: Pick<ApiKeysService, 'authenticate'>; meter: Pick<UsageMeter, 'record'> },
): void {
  app.decorateRequest('principal', null);
  app.addHook('onRequest', async (request) => {
    if (request.routeOptions.config.auth === false || request.is404) return;
    const principal = await deps.apiKeys.authenticate(bearerToken(request));
    request.principal = principal;
    deps.meter.record(principal.keyId, principal.accountId, `${request.method} ${request.routeOptions.url}`);
  });
}
