/**
 * What a key may do. Each role includes the ones before it:
 * - `agent`: evaluate and judge, read its own evaluations, store, search and browse memory, whoami, MCP;
 * - `operator`: + decide escalations, verdict and PII settings, catalogue rules, custom actions,
 *   policies, webhooks, the audit log and usage;
 * - `admin`: + keys, billing and subscription, GDPR export and delete.
 * The key handed to an agent is an `agent` key, so the guarded agent cannot loosen its own guard.
 */
export const KEY_ROLES = ['agent', 'operator', 'admin'] as const;

export type KeyRole = (typeof KEY_ROLES)[number];

/** The role a new key gets when none is asked for: the least. */
export const DEFAULT_KEY_ROLE: KeyRole = 'agent';

const RANK: Record<KeyRole, number> = { agent: 0, operator: 1, admin: 2 };

/** Whether a key of role `held` may do what role `needed` allows. */
export function roleAllows(held: KeyRole, needed: KeyRole): boolean {
  return RANK[held] >= RANK[needed];
}

export function isKeyRole(value: unknown): value is KeyRole {
  return typeof value === 'string' && Object.hasOwn(RANK, value);
}

/** The role behind a stored value; a value the code does not know grants the least. */
export function keyRoleOf(value: string): KeyRole {
  return isKeyRole(value) ? value : 'agent';
}
