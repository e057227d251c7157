/**
 * Every route that needs an API key, with a valid request for it. The shared security suite
 * throws missing, malformed, unknown and revoked keys at each, and another account's resource
 * where the route names one. A route added to the service without a line here fails that suite.
 */
export interface SecurityContext {
  /** A key id that belongs to a different account than the caller's. */
  foreignKeyId: string;
  /** A claim of that other account (uuid and short id). */
  foreignClaimId?: string;
  foreignClaimShortId?: string;
  /** A webhook endpoint id of that other account, where the suite created one. */
  foreignWebhookId?: string;
  /** An evaluation of that other account (judgment engine). */
  foreignEvaluationId?: string;
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

/** An evaluation id no account has, where the suite made no foreign one. */
const NO_EVALUATION = '00000000-0000-4000-8000-000000000000';

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
  {
    method: 'POST',
    route: '/v2/vault/store',
    url: () => '/v2/vault/store',
    body: { claim: 'The sky is blue', source: 'suite', confidence: 0.5 },
  },
  {
    method: 'POST',
    route: '/v2/vault/store_batch',
    url: () => '/v2/vault/store_batch',
    body: { claims: [{ claim: 'The sky is blue', source: 'suite', confidence: 0.5 }] },
  },
  { method: 'GET', route: '/v2/vault/claims', url: () => '/v2/vault/claims' },
  {
    method: 'POST',
    route: '/v2/vault/search',
    url: () => '/v2/vault/search',
    body: { query: 'sky', top_k: 3 },
  },
  {
    method: 'POST',
    route: '/ledger/propose_state',
    url: () => '/ledger/propose_state',
    body: { claim: 'The sky is blue', confidence: 0.5 },
  },
  {
    method: 'POST',
    route: '/ledger/semantic_search',
    url: () => '/ledger/semantic_search',
    body: { query: 'sky', top_k: 3 },
  },
  {
    method: 'GET',
    route: '/v2/vault/claims/:id',
    url: (ctx) => `/v2/vault/claims/${ctx.foreignClaimId}`,
    foreign: (ctx) => ({ url: `/v2/vault/claims/${ctx.foreignClaimShortId}` }),
  },
  {
    method: 'DELETE',
    route: '/v2/vault/claims/:id',
    url: (ctx) => `/v2/vault/claims/${ctx.foreignClaimId}`,
    foreign: (ctx) => ({ url: `/v2/vault/claims/${ctx.foreignClaimId}` }),
  },
  { method: 'GET', route: '/v2/vault/state', url: () => '/v2/vault/state' },
  { method: 'GET', route: '/v2/vault/verify', url: () => '/v2/vault/verify' },
  {
    method: 'POST',
    route: '/v1/evaluate',
    url: () => '/v1/evaluate',
    body: { action: 'fs.read', payload: { path: 'README.md' } },
  },
  {
    method: 'POST',
    route: '/mcp',
    url: () => '/mcp',
    body: {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: {
        protocolVersion: '2025-06-18',
        capabilities: {},
        clientInfo: { name: 'suite', version: '1' },
      },
    },
  },
  { method: 'GET', route: '/v1/actions', url: () => '/v1/actions' },
  { method: 'GET', route: '/v1/actions/:action', url: () => '/v1/actions/db.query' },
  {
    method: 'PUT',
    route: '/v1/actions/:action',
    url: () => '/v1/actions/security.probe',
    body: { type: 'object' },
  },
  { method: 'DELETE', route: '/v1/actions/:action', url: () => '/v1/actions/security.probe' },
  { method: 'GET', route: '/v1/settings/egress', url: () => '/v1/settings/egress' },
  {
    method: 'PUT',
    route: '/v1/settings/egress',
    url: () => '/v1/settings/egress',
    body: { mode: 'denylist' },
  },
  { method: 'GET', route: '/v2/vault/settings/pii', url: () => '/v2/vault/settings/pii' },
  {
    method: 'PUT',
    route: '/v2/vault/settings/pii',
    url: () => '/v2/vault/settings/pii',
    body: { phone_region: 'GB' },
  },
  {
    method: 'POST',
    route: '/v2/vault/subjects/forget',
    url: () => '/v2/vault/subjects/forget',
    body: { name: 'Lisa Wirtz' },
  },
  { method: 'GET', route: '/v1/settings/context', url: () => '/v1/settings/context' },
  {
    method: 'PUT',
    route: '/v1/settings/context',
    url: () => '/v1/settings/context',
    body: { workspace: '/app' },
  },
  { method: 'GET', route: '/v1/settings/loop', url: () => '/v1/settings/loop' },
  {
    method: 'PUT',
    route: '/v1/settings/loop',
    url: () => '/v1/settings/loop',
    body: { threshold: 3, window_seconds: 60 },
  },
  { method: 'GET', route: '/v1/catalogue', url: () => '/v1/catalogue' },
  { method: 'GET', route: '/v1/catalogue/coverage', url: () => '/v1/catalogue/coverage' },
  { method: 'GET', route: '/v1/catalogue/rules', url: () => '/v1/catalogue/rules' },
  { method: 'PUT', route: '/v1/catalogue/rules', url: () => '/v1/catalogue/rules', body: { rules: [] } },
  { method: 'DELETE', route: '/v1/catalogue/rules', url: () => '/v1/catalogue/rules' },
  { method: 'GET', route: '/v1/settings/protected', url: () => '/v1/settings/protected' },
  {
    method: 'PUT',
    route: '/v1/settings/protected',
    url: () => '/v1/settings/protected',
    body: { branches: ['main'] },
  },
  { method: 'GET', route: '/v1/settings/execution', url: () => '/v1/settings/execution' },
  {
    method: 'PUT',
    route: '/v1/settings/execution',
    url: () => '/v1/settings/execution',
    body: { allow_opaque: false },
  },
  {
    method: 'POST',
    route: '/subscription/checkout',
    url: () => '/subscription/checkout',
    body: {
      plan_id: 'developer',
      success_url: 'https://example.com/ok',
      cancel_url: 'https://example.com/no',
    },
  },
  { method: 'GET', route: '/subscription/status', url: () => '/subscription/status' },
  { method: 'GET', route: '/subscription/plans', url: () => '/subscription/plans' },
  { method: 'GET', route: '/billing/usage/current', url: () => '/billing/usage/current' },
  { method: 'GET', route: '/audit-log', url: () => '/audit-log' },
  { method: 'GET', route: '/audit-log/verify', url: () => '/audit-log/verify' },
  { method: 'GET', route: '/gdpr/export', url: () => '/gdpr/export' },
  { method: 'DELETE', route: '/gdpr/delete-account', url: () => '/gdpr/delete-account' },
  { method: 'GET', route: '/webhooks/event-types', url: () => '/webhooks/event-types' },
  {
    method: 'POST',
    route: '/webhooks',
    url: () => '/webhooks',
    body: { url: 'https://hooks.example.com/arbiter' },
  },
  { method: 'GET', route: '/webhooks', url: () => '/webhooks' },
  {
    method: 'GET',
    route: '/webhooks/:webhook_id',
    url: () => '/webhooks/we_0',
    foreign: (ctx) => ({ url: `/webhooks/${ctx.foreignWebhookId ?? 'we_0'}` }),
  },
  {
    method: 'DELETE',
    route: '/webhooks/:webhook_id',
    url: () => '/webhooks/we_0',
    foreign: (ctx) => ({ url: `/webhooks/${ctx.foreignWebhookId ?? 'we_0'}` }),
  },
  {
    method: 'GET',
    route: '/webhooks/:webhook_id/deliveries',
    url: () => '/webhooks/we_0/deliveries',
    foreign: (ctx) => ({ url: `/webhooks/${ctx.foreignWebhookId ?? 'we_0'}/deliveries` }),
  },
  ...(['enable', 'rotate-secret', 'test'] as const).map((action) => ({
    method: 'POST' as const,
    route: `/webhooks/:webhook_id/${action}`,
    url: () => `/webhooks/we_0/${action}`,
    foreign: (ctx: SecurityContext) => ({
      url: `/webhooks/${ctx.foreignWebhookId ?? 'we_0'}/${action}`,
    }),
  })),
  {
    method: 'POST',
    route: '/webhooks/:webhook_id/deliveries/:delivery_id/redeliver',
    url: () => '/webhooks/we_0/deliveries/dlv_0/redeliver',
    foreign: (ctx) => ({ url: `/webhooks/${ctx.foreignWebhookId ?? 'we_0'}/deliveries/dlv_0/redeliver` }),
  },
  {
    method: 'POST',
    route: '/v2/actions/evaluate',
    url: () => '/v2/actions/evaluate',
    body: {
      action_type: 'fs.read',
      actor: 'suite',
      actor_role: 'assistant',
      impact_scope: 'internal',
      payload: { path: 'README.md' },
    },
  },
  { method: 'GET', route: '/v2/actions/evaluations', url: () => '/v2/actions/evaluations' },
  {
    method: 'GET',
    route: '/v2/actions/evaluations/:id',
    url: (ctx) => `/v2/actions/evaluations/${ctx.foreignEvaluationId ?? NO_EVALUATION}`,
    foreign: (ctx) => ({ url: `/v2/actions/evaluations/${ctx.foreignEvaluationId ?? NO_EVALUATION}` }),
  },
  {
    method: 'POST',
    route: '/v2/actions/evaluations/:id/approve',
    url: (ctx) => `/v2/actions/evaluations/${ctx.foreignEvaluationId ?? NO_EVALUATION}/approve`,
    body: {},
    foreign: (ctx) => ({
      url: `/v2/actions/evaluations/${ctx.foreignEvaluationId ?? NO_EVALUATION}/approve`,
      body: { comment: 'not yours' },
    }),
  },
  {
    method: 'POST',
    route: '/v2/actions/evaluations/:id/deny',
    url: (ctx) => `/v2/actions/evaluations/${ctx.foreignEvaluationId ?? NO_EVALUATION}/deny`,
    body: {},
    foreign: (ctx) => ({
      url: `/v2/actions/evaluations/${ctx.foreignEvaluationId ?? NO_EVALUATION}/deny`,
      body: { comment: 'not yours' },
    }),
  },
  { method: 'GET', route: '/v2/policies', url: () => '/v2/policies' },
  {
    method: 'PUT',
    route: '/v2/policies',
    url: () => '/v2/policies',
    body: { policies: 'permit (principal, action, resource);' },
  },
];
