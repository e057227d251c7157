import type { FastifyInstance, FastifyRequest, onRequestHookHandler } from 'fastify';
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

const BEARER = /^Bearer[ \t]+(\S+)[ \t]*$/i;

export function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (typeof header !== 'string') return undefined;
  return BEARER.exec(header)?.[1];
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
  deps: {
    apiKeys: Pick<ApiKeysService, 'authenticate' | 'authenticateCached'>;
    meter: Pick<UsageMeter, 'record'>;
  },
): void {
  app.decorateRequest('principal', null);
  // A route-level hook on every route that does not opt out, built once per route with its
  // metering label, so the hot path does no per-request route lookups.
  app.addHook('onRoute', (route) => {
    if (route.config?.auth === false) return;
    const endpoint = `${route.method} ${route.url}`;
    const admit = (request: FastifyRequest, principal: Principal) => {
      request.principal = principal;
      deps.meter.record(principal.keyId, principal.accountId, endpoint);
    };
    const authenticate: onRequestHookHandler = (request, _reply, done) => {
      const secret = bearerToken(request);
      // A key verified moments ago is admitted without allocating a promise.
      const cached = deps.apiKeys.authenticateCached(secret);
      if (cached) {
        admit(request, cached);
        return done();
      }
      deps.apiKeys.authenticate(secret).then(
        (principal) => {
          admit(request, principal);
          done();
        },
        (err: Error) => done(err),
      );
    };
    const existing =
      route.onRequest === undefined
        ? []
        : Array.isArray(route.onRequest)
          ? route.onRequest
          : [route.onRequest];
    route.onRequest = [authenticate, ...existing];
  });
}
