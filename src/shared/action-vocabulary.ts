/**
 * The words an evaluation request is made of, listed once: who acts (`actor_role`), how far the
 * action reaches (`impact_scope`) and what kind of action it is. The Cedar schema, the judgment
 * request schemas, the MCP server's tools and the MCP guard's configuration are built from these
 * lists. Not to be confused with the roles of API keys (`src/domains/api-keys/roles.ts`).
 */
export const ACTOR_ROLES = ['user', 'admin', 'assistant'] as const;
export type ActorRole = (typeof ACTOR_ROLES)[number];

export const IMPACT_SCOPES = ['internal', 'external', 'critical'] as const;
export type ImpactScope = (typeof IMPACT_SCOPES)[number];

export const ACTION_KINDS = ['read', 'write', 'delete', 'execute', 'communicate'] as const;
export type ActionKind = (typeof ACTION_KINDS)[number];
