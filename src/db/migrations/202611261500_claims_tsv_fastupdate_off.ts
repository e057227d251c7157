import { type Kysely, SqliteAdapter, sql } from 'kysely';

/**
 * The claims' GIN index writes through instead of queuing new entries in a pending list. With
 * the default (`fastupdate = on`) every full-text query read the whole pending list, which grows
 * until a vacuum empties it (never, where autovacuum is off), and the planner, counting it in
 * the index's cost, scanned the table instead: checking which of a query's names an account
 * holds took 29 ms at 20k claims, and 1.1 ms once the list was merged and writes went straight
 * in. Each store pays a little more to update the index in place; searches no longer grow with
 * what was stored since the last vacuum.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  if (db.getExecutor().adapter instanceof SqliteAdapter) return;
  await sql`alter index claims_tsv_idx set (fastupdate = off)`.execute(db);
  // Merges what is already queued (turning the option off does not).
  await sql`select gin_clean_pending_list('claims_tsv_idx'::regclass)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (db.getExecutor().adapter instanceof SqliteAdapter) return;
  await sql`alter index claims_tsv_idx reset (fastupdate)`.execute(db);
}
