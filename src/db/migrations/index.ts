import type { Migration } from 'kysely';
import * as accountsAndKeys from './202611221600_accounts_and_keys.ts';
import * as auditLog from './202611221700_audit_log.ts';

/**
 * Every migration, in order. A static list (rather than a folder scan) keeps migrations working
 * the same under tsx, in tests and in a bundled build. Names are `YYYYMMDDHHmm_slug`.
 */
export const migrations: Record<string, Migration> = {
  '202611221600_accounts_and_keys': accountsAndKeys,
  '202611221700_audit_log': auditLog,
};
