import { type Kysely, SqliteAdapter, sql } from 'kysely';

/**
 * The claim ledger. Vector indexes (sqlite-vec, pgvector) depend on the embedding dimension and
 * are created at start by the vector index adapter, not here.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const sqlite = db.getExecutor().adapter instanceof SqliteAdapter;

  // `rowkey` is the integer key the vector and full-text indexes refer to; `id` is the public uuid.
  // PostgreSQL keeps the full-text vector as a generated column; SQLite has an FTS5 table.
  const rowkey = sqlite
    ? sql.raw('rowkey integer primary key autoincrement')
    : sql.raw('rowkey bigserial primary key');
  const fullText = sqlite
    ? sql.raw('')
    : sql.raw("tsv tsvector generated always as (to_tsvector('english', claim)) stored,");
  await sql`create table claims (
    ${rowkey},
    id text not null unique,
    account_id text not null,
    short_id text not null,
    claim text not null,
    normalized text not null,
    source text not null,
    confidence double precision not null,
    version integer not null,
    status text not null,
    created_at text not null,
    updated_at text not null,
    ${fullText}
    unique (account_id, short_id)
  )`.execute(db);
  if (sqlite) {
    await sql`create virtual table claims_fts using fts5(claim, tokenize = 'porter unicode61')`.execute(db);
    // The index follows its rows: deleting claims (an account's erasure) leaves no text behind.
    await sql`create trigger claims_fts_after_delete after delete on claims begin
      delete from claims_fts where rowid = old.rowkey;
    end`.execute(db);
  } else {
    await sql`create index claims_tsv_idx on claims using gin (tsv)`.execute(db);
  }
  await db.schema
    .createIndex('claims_account_normalized_idx')
    .on('claims')
    .columns(['account_id', 'normalized', 'status'])
    .execute();
  await db.schema
    .createIndex('claims_account_status_idx')
    .on('claims')
    .columns(['account_id', 'status', 'rowkey'])
    .execute();

  await db.schema
    .createTable('claim_versions')
    .addColumn('claim_id', 'text', (c) => c.notNull())
    .addColumn('account_id', 'text', (c) => c.notNull())
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('claim', 'text', (c) => c.notNull())
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('confidence', 'double precision', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('ledger_seq', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('claim_versions_pk', ['claim_id', 'version'])
    .execute();
  await db.schema
    .createIndex('claim_versions_account_idx')
    .on('claim_versions')
    .columns(['account_id', 'ledger_seq'])
    .execute();

  // The source of truth for vectors (reindex, exact scan, cosine of lexical-only hits); active claims only.
  await db.schema
    .createTable('claim_vectors')
    .addColumn('rowkey', 'bigint', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull())
    .addColumn('embedding', sqlite ? 'blob' : 'bytea', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('claim_vectors_account_idx')
    .on('claim_vectors')
    .columns(['account_id', 'rowkey'])
    .execute();

  // The hash chain: every write appends an entry; state_hash = SHA-256(previous ‖ canonical(entry)).
  await db.schema
    .createTable('ledger_entries')
    .addColumn('account_id', 'text', (c) => c.notNull())
    .addColumn('seq', 'bigint', (c) => c.notNull())
    .addColumn('entry', 'text', (c) => c.notNull())
    .addColumn('prev_hash', 'text', (c) => c.notNull())
    .addColumn('state_hash', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('ledger_entries_pk', ['account_id', 'seq'])
    .execute();
  await db.schema
    .createTable('ledger_heads')
    .addColumn('account_id', 'text', (c) => c.primaryKey())
    .addColumn('seq', 'bigint', (c) => c.notNull())
    .addColumn('state_hash', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('idempotency_keys')
    .addColumn('account_id', 'text', (c) => c.notNull())
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('request_hash', 'text', (c) => c.notNull())
    .addColumn('status_code', 'integer', (c) => c.notNull())
    .addColumn('response', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('idempotency_keys_pk', ['account_id', 'key'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  const sqlite = db.getExecutor().adapter instanceof SqliteAdapter;
  for (const t of ['idempotency_keys', 'ledger_heads', 'ledger_entries', 'claim_vectors', 'claim_versions']) {
    await db.schema.dropTable(t).execute();
  }
  if (sqlite) await sql`drop table claims_fts`.execute(db);
  await db.schema.dropTable('claims').execute();
}
