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
  /** `agent`, `operator` or `admin` (api-keys/roles.ts). */
  role: string;
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

/**
 * Calls counted against an account's monthly allowance (`month` = `YYYY-MM`), shared by the
 * instances of one PostgreSQL deployment without Redis.
 */
export interface QuotaCountersTable {
  account_id: string;
  month: string;
  used: number;
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

/** An account's paid plan and where it is billed; `status` is active, past_due or canceled. */
export interface SubscriptionsTable {
  account_id: string;
  plan: string;
  status: string;
  provider: string;
  customer_ref: string | null;
  subscription_ref: string | null;
  period_start: string | null;
  period_end: string | null;
  started_at: string;
  updated_at: string;
  provider_event_at: string | null;
}

/** A started checkout: `status` is open, completed, canceled or expired. Only a hash of a local token is kept. */
export interface CheckoutSessionsTable {
  id: string;
  account_id: string;
  plan: string;
  provider: string;
  token_hash: string | null;
  provider_session_id: string | null;
  success_url: string;
  cancel_url: string;
  status: string;
  created_at: string;
  expires_at: string;
  completed_at: string | null;
}

export interface BillingEventsTable {
  id: string;
  account_id: string | null;
  type: string;
  received_at: string;
}

export interface WebhookEndpointsTable {
  id: string;
  account_id: string;
  url: string;
  description: string;
  /** JSON array of event types; empty = every type. */
  event_types: string;
  /** The signing secret (`whsec_…`), needed in clear to sign; shown once at creation. */
  secret: string;
  status: string;
  disabled_reason: string | null;
  consecutive_failures: number;
  /** When the current run of failed deliveries began; null while the last one succeeded. */
  failing_since: string | null;
  created_at: string;
  updated_at: string;
}

export interface WebhookEventsTable {
  id: string;
  account_id: string;
  type: string;
  /** The JSON body sent to receivers. */
  payload: string;
  created_at: string;
}

/** One event to one endpoint: `status` is pending, delivering, succeeded or failed. */
export interface WebhookDeliveriesTable {
  id: string;
  event_id: string;
  endpoint_id: string;
  account_id: string;
  status: string;
  attempts: number;
  next_attempt_at: string;
  lease_owner: string | null;
  lease_until: string | null;
  last_status_code: number | null;
  last_error: string | null;
  created_at: string;
  updated_at: string;
  completed_at: string | null;
}

export interface WebhookAttemptsTable {
  id: string;
  delivery_id: string;
  endpoint_id: string;
  account_id: string;
  attempt: number;
  at: string;
  status_code: number | null;
  error: string | null;
  duration_ms: number;
}

/** Per-account verdict policy; an account without a row uses the defaults. Domain lists are JSON arrays. */
export interface VerdictSettingsTable {
  account_id: string;
  egress_mode: string;
  trusted_domains: string;
  blocked_domains: string;
  loop_threshold: number;
  loop_window_ms: number;
  /** JSON object of name lists by kind (branches, namespaces, databases, buckets, projects). */
  protected_resources: string;
  /** 1 when opaque code is allowed (`PUT /v1/settings/execution`), else 0. */
  allow_opaque: number;
  /** `allow` or `refuse`: what a verdict on an action Arbiter does not understand answers. */
  unrecognised: string;
  /** JSON object: the default agent context and the named local origins (`/v1/settings/context`). */
  context: string;
  updated_at: string;
}

/** An account's own destructive-operation catalogue rules: one JSON array, replaced as a whole. */
export interface VerdictCatalogueRulesTable {
  account_id: string;
  rules: string;
  /** `digestOf` the rules: part of the policy version of every verdict of the account. */
  digest: string;
  /** Grows by one on every replacement. */
  version: number;
  created_at: string;
  updated_at: string;
}

/** An account's own action for `POST /v1/evaluate`: its name and JSON Schema (JSON text). */
export interface VerdictActionsTable {
  account_id: string;
  name: string;
  schema: string;
  created_at: string;
  updated_at: string;
}

export type ClaimStatus = 'active' | 'superseded' | 'deleted';

export interface ClaimsTable {
  rowkey: Generated<number>;
  id: string;
  account_id: string;
  short_id: string;
  /** The statement after personal data was scrubbed: the raw text is never stored. */
  claim: string;
  /** Case-, space- and end-punctuation-folded claim: the same normalised claim is a new version. */
  normalized: string;
  source: string;
  confidence: number;
  version: number;
  status: ClaimStatus;
  created_at: string;
  updated_at: string;
}

export interface ClaimVersionsTable {
  claim_id: string;
  account_id: string;
  version: number;
  claim: string;
  source: string;
  confidence: number;
  created_at: string;
  /** The ledger entry that recorded this version. */
  ledger_seq: number;
}

export interface ClaimVectorsTable {
  rowkey: number;
  account_id: string;
  embedding: Uint8Array;
}

export interface LedgerEntriesTable {
  account_id: string;
  seq: number;
  /** Canonical JSON of the entry the hash covers. */
  entry: string;
  prev_hash: string;
  state_hash: string;
}

/** An account's scrubbing settings (`PUT /v2/vault/settings/pii`); no row: the defaults. */
/** A pseudonym of the account's claims and the word it stands for, sealed (ledger `pii/name-vault.ts`). */
export interface LedgerNamesTable {
  account_id: string;
  pseudonym: string;
  sealed: string;
  created_at: string;
}

export interface LedgerSettingsTable {
  account_id: string;
  /** ISO 3166-1 alpha-2 region whose national phone formats are read without a country code. */
  phone_region: string;
  /** `pseudonymize` | `redact` | `keep`: how person names are kept in the account's claims. */
  names: Generated<string>;
  updated_at: string;
}

export interface LedgerHeadsTable {
  account_id: string;
  seq: number;
  state_hash: string;
}

export interface IdempotencyKeysTable {
  account_id: string;
  key: string;
  request_hash: string;
  status_code: number;
  response: string;
  created_at: string;
}

/** One version of an account's Cedar policy document; versions start at 1 (0 is the built-in default). */
export interface JudgmentPoliciesTable {
  account_id: string;
  version: number;
  text: string;
  created_at: string;
  /** The API key id that uploaded it. */
  created_by: string;
}

export interface JudgmentPolicyHeadsTable {
  account_id: string;
  version: number;
}

/**
 * One `POST /v2/actions/evaluate`. `status` is allowed, blocked, pending (an ESCALATE awaiting a
 * human), approved, denied or expired. `gates` is JSON; `payload` is kept only for escalations,
 * which a human has to read before deciding.
 */
export interface JudgmentEvaluationsTable {
  id: string;
  account_id: string;
  key_id: string;
  actor: string;
  actor_role: string;
  action_type: string;
  action_kind: string;
  impact_scope: string;
  decision: string;
  status: string;
  reason: string;
  gates: string;
  policy_version: number;
  payload_sha256: string;
  payload: string | null;
  created_at: string;
  expires_at: string | null;
  decided_at: string | null;
  decided_by: string | null;
  comment: string | null;
}

/** An operator console session: the token's SHA-256, never the token. */
export interface ConsoleSessionsTable {
  token_hash: string;
  account_id: string;
  key_id: string;
  created_at: string;
  expires_at: string;
}

export interface Database {
  accounts: AccountsTable;
  api_keys: ApiKeysTable;
  usage_monthly: UsageMonthlyTable;
  usage_daily: UsageDailyTable;
  quota_counters: QuotaCountersTable;
  meta: MetaTable;
  audit_log: AuditLogTable;
  audit_heads: AuditHeadsTable;
  subscriptions: SubscriptionsTable;
  checkout_sessions: CheckoutSessionsTable;
  billing_events: BillingEventsTable;
  webhook_endpoints: WebhookEndpointsTable;
  webhook_events: WebhookEventsTable;
  webhook_deliveries: WebhookDeliveriesTable;
  webhook_attempts: WebhookAttemptsTable;
  judgment_policies: JudgmentPoliciesTable;
  judgment_policy_heads: JudgmentPolicyHeadsTable;
  judgment_evaluations: JudgmentEvaluationsTable;
  verdict_settings: VerdictSettingsTable;
  verdict_actions: VerdictActionsTable;
  verdict_catalogue_rules: VerdictCatalogueRulesTable;
  claims: ClaimsTable;
  claim_versions: ClaimVersionsTable;
  claim_vectors: ClaimVectorsTable;
  ledger_entries: LedgerEntriesTable;
  ledger_heads: LedgerHeadsTable;
  ledger_settings: LedgerSettingsTable;
  ledger_names: LedgerNamesTable;
  idempotency_keys: IdempotencyKeysTable;
  console_sessions: ConsoleSessionsTable;
}

export type Account = Selectable<AccountsTable>;
export type NewAccount = Insertable<AccountsTable>;
export type ApiKeyRow = Selectable<ApiKeysTable>;
