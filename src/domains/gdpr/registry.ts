import { maskKey } from '../api-keys/index.ts';

/**
 * Every table in the database, and what the account's right to its data means for it. Export
 * and deletion are both driven by this list, and a test fails for any table in the database that
 * is missing here: a domain that adds a table registers it, or its data would silently survive
 * a deletion.
 *
 * - `account`: rows of one account, found by `column`; exported into `section` (a dotted path in
 *   the export) and deleted. Tables are deleted in list order, so children come before parents.
 * - `retained`: kept on deletion, with the reason (the audit log, kept for compliance).
 * - `derived`: maintained by the database from another table (a full-text or vector index's
 *   shadow tables); its rows go when the `of` table's rows are deleted.
 * - `global`: holds no account's data.
 */
export type TableRule =
  | {
      table: string;
      kind: 'account';
      column: string;
      section: string;
      /** Columns never exported (secrets, token hashes). */
      omit?: readonly string[];
      /** Columns holding JSON text, exported as JSON. */
      json?: readonly string[];
      /** Rewrites a row for export (e.g. masks a key). */
      view?: (row: Record<string, unknown>) => Record<string, unknown>;
      /** Columns of scrubbed text whose name pseudonyms the export shows as the names written. */
      names?: readonly string[];
      orderBy?: string;
    }
  | {
      table: string;
      kind: 'retained';
      column: string;
      reason: string;
      section?: string;
      json?: readonly string[];
      orderBy?: string;
    }
  | { table: string; kind: 'derived'; of: string; reason: string }
  | { table: string; kind: 'global'; reason: string };

/** sqlite-vec and FTS5 keep their rows in shadow tables named after the virtual table. */
const derivedOf = (of: string, reason: string, tables: readonly string[]): TableRule[] =>
  tables.map((table) => ({ table, kind: 'derived' as const, of, reason }));

export const TABLES: readonly TableRule[] = [
  // The claim ledger: vectors and idempotency records first, the claims (whose deletion empties the
  // full-text index by trigger) after their versions and chain.
  {
    table: 'claim_vectors',
    kind: 'account',
    column: 'account_id',
    section: 'ledger.vectors',
    omit: ['embedding'],
    orderBy: 'rowkey',
  },
  ...derivedOf('claim_vectors', 'the vector index, emptied by a trigger on claim_vectors', [
    'claim_vec',
    'claim_vec_info',
    'claim_vec_chunks',
    'claim_vec_rowids',
    'claim_vec_vector_chunks00',
    'claim_vec_pg',
  ]),
  {
    table: 'idempotency_keys',
    kind: 'account',
    column: 'account_id',
    section: 'ledger.idempotency_keys',
    json: ['response'],
    orderBy: 'created_at',
  },
  {
    table: 'claim_versions',
    kind: 'account',
    column: 'account_id',
    section: 'ledger.claim_versions',
    names: ['claim', 'source'],
    orderBy: 'ledger_seq',
  },
  {
    table: 'ledger_entries',
    kind: 'account',
    column: 'account_id',
    section: 'ledger_entries',
    json: ['entry'],
    orderBy: 'seq',
  },
  { table: 'ledger_heads', kind: 'account', column: 'account_id', section: 'ledger.head' },
  {
    table: 'claims',
    kind: 'account',
    column: 'account_id',
    section: 'ledger.claims',
    names: ['claim', 'source'],
    orderBy: 'rowkey',
  },
  ...derivedOf('claims', 'the full-text index, emptied by a trigger on claims', [
    'claims_fts',
    'claims_fts_data',
    'claims_fts_idx',
    'claims_fts_content',
    'claims_fts_docsize',
    'claims_fts_config',
  ]),
  {
    table: 'usage_monthly',
    kind: 'account',
    column: 'account_id',
    section: 'usage.monthly',
    orderBy: 'month',
  },
  { table: 'usage_daily', kind: 'account', column: 'account_id', section: 'usage.daily', orderBy: 'day' },
  {
    table: 'quota_counters',
    kind: 'account',
    column: 'account_id',
    section: 'usage.quota_counters',
    orderBy: 'month',
  },
  {
    table: 'webhook_attempts',
    kind: 'account',
    column: 'account_id',
    section: 'webhooks.attempts',
    orderBy: 'at',
  },
  {
    table: 'webhook_deliveries',
    kind: 'account',
    column: 'account_id',
    section: 'webhooks.deliveries',
    omit: ['lease_owner', 'lease_until'],
    orderBy: 'created_at',
  },
  {
    table: 'webhook_events',
    kind: 'account',
    column: 'account_id',
    section: 'webhooks.events',
    json: ['payload'],
    orderBy: 'created_at',
  },
  {
    table: 'webhook_endpoints',
    kind: 'account',
    column: 'account_id',
    section: 'webhooks.endpoints',
    omit: ['secret'],
    json: ['event_types'],
    orderBy: 'created_at',
  },
  {
    table: 'console_sessions',
    kind: 'account',
    column: 'account_id',
    section: 'console.sessions',
    omit: ['token_hash'],
    orderBy: 'created_at',
  },
  {
    table: 'checkout_sessions',
    kind: 'account',
    column: 'account_id',
    section: 'billing.checkout_sessions',
    omit: ['token_hash'],
    orderBy: 'created_at',
  },
  {
    table: 'billing_events',
    kind: 'account',
    column: 'account_id',
    section: 'billing.provider_events',
    orderBy: 'received_at',
  },
  { table: 'subscriptions', kind: 'account', column: 'account_id', section: 'billing.subscription' },
  {
    table: 'judgment_evaluations',
    kind: 'account',
    column: 'account_id',
    section: 'evaluations',
    json: ['gates', 'payload'],
    orderBy: 'created_at',
  },
  {
    table: 'judgment_policies',
    kind: 'account',
    column: 'account_id',
    section: 'policies.versions',
    orderBy: 'version',
  },
  {
    table: 'judgment_policy_heads',
    kind: 'account',
    column: 'account_id',
    section: 'policies.current',
  },
  {
    table: 'verdict_actions',
    kind: 'account',
    column: 'account_id',
    section: 'settings.custom_actions',
    json: ['schema'],
    orderBy: 'name',
  },
  {
    table: 'verdict_catalogue_rules',
    kind: 'account',
    column: 'account_id',
    section: 'settings.catalogue_rules',
    json: ['rules'],
  },
  {
    table: 'ledger_settings',
    kind: 'account',
    column: 'account_id',
    section: 'settings.pii',
  },
  {
    // The names themselves are in the claims of the export (`names` above); the sealed words are
    // of no use outside the server.
    table: 'ledger_names',
    kind: 'account',
    column: 'account_id',
    section: 'ledger.names',
    omit: ['sealed'],
    orderBy: 'pseudonym',
  },
  {
    table: 'verdict_settings',
    kind: 'account',
    column: 'account_id',
    section: 'settings.verdicts',
    json: ['trusted_domains', 'blocked_domains', 'protected_resources'],
  },
  {
    table: 'api_keys',
    kind: 'account',
    column: 'account_id',
    section: 'api_keys',
    orderBy: 'created_at',
    view: (row) => ({
      id: row.id,
      key: maskKey(String(row.key_last4)),
      name: row.name,
      created_at: row.created_at,
      revoked_at: row.revoked_at,
    }),
  },
  {
    table: 'accounts',
    kind: 'account',
    column: 'id',
    section: 'profile',
  },
  {
    table: 'audit_log',
    kind: 'retained',
    column: 'account_id',
    section: 'audit_log',
    json: ['details'],
    orderBy: 'seq',
    reason: 'kept for compliance (spec §4); actors are key ids, which name no one once the keys are gone',
  },
  {
    table: 'audit_heads',
    kind: 'retained',
    column: 'account_id',
    reason: 'the head of the retained audit chain, so it stays verifiable',
  },
  { table: 'meta', kind: 'global', reason: 'service-wide facts' },
  { table: 'arbiter_migrations', kind: 'global', reason: 'migration bookkeeping' },
  { table: 'arbiter_migrations_lock', kind: 'global', reason: 'migration bookkeeping' },
];
