import type { Generated, Insertable, Selectable } from 'kysely';

/**
 * Table types shared by both dialects. Timestamps are ISO-8601 UTC strings (`toISOString()`), which
 * sort correctly as text and read back identically from SQLite and PostgreSQL.
 */
export interface AccountsTable {
  id: string;
  email: string;
  name: string;
  plan: string;
  created_at: string;
}

export interface ApiKeysTable {
  id: string;
  account_id: string;
  name: string;
  key_hash: string;
  key_last4: string;
  created_at: string;
  revoked_at: string | null;
}

/** Calls per key per calendar month (UTC), `month` = `YYYY-MM`. */
export interface UsageMonthlyTable {
  key_id: string;
  month: string;
  account_id: string;
  calls: number;
}

/** Calls per account per endpoint per day (UTC), `day` = `YYYY-MM-DD`, `endpoint` = `METHOD /route`. */
export interface UsageDailyTable {
  account_id: string;
  day: string;
  endpoint: string;
  calls: number;
}

/** Small service-wide facts, such as the embedding model the vectors were made with. */
export interface MetaTable {
  key: string;
  value: string;
  updated_at: Generated<string>;
}

/** Append-only, hash-chained per account: `hash = SHA-256(prev_hash ‖ canonical(entry))`. */
export interface AuditLogTable {
  id: string;
  account_id: string;
  seq: number;
  at: string;
  /** Who acted: an API key id, `operator`, or `system`. Never an email or a secret. */
  actor: string;
  action: string;
  target: string | null;
  /** JSON object text. */
  details: string;
  prev_hash: string;
  hash: string;
}

export interface AuditHeadsTable {
  account_id: string;
  seq: number;
  hash: string;
}

export interface Database {
  accounts: AccountsTable;
  api_keys: ApiKeysTable;
  usage_monthly: UsageMonthlyTable;
  usage_daily: UsageDailyTable;
  meta: MetaTable;
  audit_log: AuditLogTable;
  audit_heads: AuditHeadsTable;
}

export type Account = Selectable<AccountsTable>;
export type NewAccount = Insertable<AccountsTable>;
export type ApiKeyRow = Selectable<ApiKeysTable>;
