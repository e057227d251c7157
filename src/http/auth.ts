import type {
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  HookHandlerDoneFunction,
  onRequestHookHandler,
} from 'fastify';
import { type ApiKeysService, type KeyRole, type Principal, roleAllows } from '../domains/api-keys/index.ts';
import type { QuotaDecision, QuotaGuard, UsageMeter } from '../domains/usage/index.ts';
import { AppError, Errors } from '../errors.ts';

declare module 'fastify' {
  interface FastifyRequest {
    principal: Principal | null;
  }
  interface FastifyContextConfig {
    /** Route needs a bearer API key (default). Operational and operator routes set this to false. */
    auth?: boolean;
    /**
     * The least key role that may call the route. Every route with `auth` must name one: the app
     * refuses to start otherwise. It is checked before the body is read or validated.
     */
    role?: KeyRole;
    /**
     * Counts against the plan's monthly allowance (default). Billing and data-rights routes set
     * this to false so that an account over its allowance can still upgrade, export or leave.
     */
    quota?: boolean;
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
    quota?: Pick<QuotaGuard, 'admit' | 'note'>;
  },
): void {
  app.decorateRequest('principal', null);
  // A route-level hook on every route that does not opt out, built once per route with its
  // metering label, so the hot path does no per-request route lookups.
  app.addHook('onRoute', (route) => {
    if (route.config?.auth === false) return;
    const endpoint = `${route.method} ${route.url}`;
    const needed = route.config?.role;
    if (needed === undefined) {
      throw new Error(
        `${endpoint} needs an API key but declares no role (config.role: agent, operator or admin)`,
      );
    }
    // The role shows in the OpenAPI document, where the security suite reads it.
    if (route.schema) route.schema = Object.assign({}, route.schema, { 'x-arbiter-role': needed });
    const limited = route.config?.quota !== false;
    const finish = (
      reply: FastifyReply,
      principal: Principal,
      decision: QuotaDecision,
      done: HookHandlerDoneFunction,
    ) => {
      // IETF draft-ietf-httpapi-ratelimit-headers field names, on every response of a limited plan.
      reply.header('ratelimit-limit', decision.limit);
      reply.header('ratelimit-remaining', decision.remaining);
      reply.header('ratelimit-reset', decision.resetSeconds);
      if (!decision.allowed) {
        return done(
          new AppError(
            'QUOTA_EXCEEDED',
            `The plan's allowance of ${decision.limit} calls this month is used up; upgrade with POST /subscription/checkout or wait for the next month`,
            {
              details: { limit: decision.limit, plan: principal.plan, reset_seconds: decision.resetSeconds },
              headers: { 'retry-after': String(decision.resetSeconds) },
            },
          ),
        );
      }
      deps.meter.record(principal.keyId, principal.accountId, endpoint);
      done();
    };
    const admit = (
      request: FastifyRequest,
      reply: FastifyReply,
      principal: Principal,
      done: HookHandlerDoneFunction,
    ) => {
      if (!roleAllows(principal.role, needed)) {
        return done(
          new AppError(
            'FORBIDDEN',
            `${endpoint} needs a key of role ${needed} or above; this key's role is ${principal.role}`,
            { details: { required_role: needed, role: principal.role } },
          ),
        );
      }
      request.principal = principal;
      if (deps.quota !== undefined) {
        if (!limited) {
          deps.quota.note(principal.accountId);
        } else {
          const decision = deps.quota.admit(principal.accountId, principal.plan);
          if (decision instanceof Promise) {
            decision.then(
              (d) => finish(reply, principal, d, done),
              () => done(Errors.unavailable('Usage could not be checked against the plan; try again')),
            );
            return;
          }
          if (decision !== undefined) return finish(reply, principal, decision, done);
        }
      }
      deps.meter.record(principal.keyId, principal.accountId, endpoint);
      done();
    };
    const authenticate: onRequestHookHandler = (request, reply, done) => {
      const secret = bearerToken(request);
      // A key verified moments ago is admitted without allocating a promise.
      const cached = deps.apiKeys.authenticateCached(secret);
      if (cached) return admit(request, reply, cached, done);
      deps.apiKeys.authenticate(secret).then(
        (principal) => admit(request, reply, principal, done),
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
