import type { Kysely } from 'kysely';
import type { Database } from './schema.ts';

/** SQLite caps a statement's parameters; ids are looked up this many at a time. */
const IDS_PER_STATEMENT = 500;

/**
 * Which of `ids` the table holds already: what a retried write skips, so that a batch whose first
 * attempt committed unseen is not written twice.
 */
export async function storedIds(
  db: Kysely<Database>,
  table: 'audit_log' | 'judgment_evaluations',
  ids: readonly string[],
): Promise<Set<string>> {
  const stored = new Set<string>();
  for (let i = 0; i < ids.length; i += IDS_PER_STATEMENT) {
    const rows = await db
      .selectFrom(table)
      .select('id')
      .where('id', 'in', ids.slice(i, i + IDS_PER_STATEMENT))
      .execute();
    for (const r of rows) stored.add(r.id);
  }
  return stored;
}
