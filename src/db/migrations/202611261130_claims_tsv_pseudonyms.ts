import { type Kysely, SqliteAdapter, sql } from 'kysely';

/**
 * PostgreSQL's text search parser reads a pseudonym such as `<PERSON5bc86af7>` as a markup tag
 * and drops it, so names never reached the full-text side of search there (SQLite's FTS5 splits
 * on the brackets and keeps the word). The generated column now reads the claim with `<` and `>`
 * as spaces: the pseudonym is one word, `person5bc86af7`, on both databases.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  if (db.getExecutor().adapter instanceof SqliteAdapter) return;
  await generatedTsv(db, sql.raw("to_tsvector('english', translate(claim, '<>', '  '))"));
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (db.getExecutor().adapter instanceof SqliteAdapter) return;
  await generatedTsv(db, sql.raw("to_tsvector('english', claim)"));
}

async function generatedTsv(db: Kysely<unknown>, expression: ReturnType<typeof sql.raw>): Promise<void> {
  await sql`drop index if exists claims_tsv_idx`.execute(db);
  await sql`alter table claims drop column tsv`.execute(db);
  await sql`alter table claims add column tsv tsvector generated always as (${expression}) stored`.execute(
    db,
  );
  await sql`create index claims_tsv_idx on claims using gin (tsv)`.execute(db);
}
