/**
 * Every route that needs an API key, with a valid request for it. The shared security suite
 * throws missing, malformed, unknown and revoked keys at each, and another account's resource
 * where the route names one. A route added to the service without a line here fails that suite.
 */
export interface SecurityContext {
  /** A key id that belongs to a different account than the caller's. */
  foreignKeyId: string;
}

export interface AuthenticatedRoute {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** The route pattern as registered, e.g. `/api-keys/:key_id`. */
  route: string;
  /** A concrete URL for the request. */
  url: (ctx: SecurityContext) => string;
  body?: unknown;
  /** A request for another account's resource, answered 404 as if it did not exist. */
  foreign?: (ctx: SecurityContext) => { url: string; body?: unknown };
}

export const AUTHENTICATED_ROUTES: AuthenticatedRoute[] = [
  { method: 'POST', route: '/api-keys', url: () => '/api-keys', body: { name: 'x' } },
  { method: 'GET', route: '/api-keys', url: () => '/api-keys' },
  {
    method: 'DELETE',
    route: '/api-keys/:key_id',
    url: (ctx) => `/api-keys/${ctx.foreignKeyId}`,
    foreign: (ctx) => ({ url: `/api-keys/${ctx.foreignKeyId}` }),
  },
  { method: 'GET', route: '/v1/whoami', url: () => '/v1/whoami' },
];
