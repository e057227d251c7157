import { CompiledQuery, type Kysely } from 'kysely';
import type { DialectName } from './database.ts';
import type { Database } from './schema.ts';

const PG_ROWS_PER_STATEMENT = 500;

/**
 * Inserts a batch of rows of any size. SQLite: one single-row statement run per row, which the
 * connection keeps prepared; building a multi-row insert cost more per row, and its bound
 * parameters are capped (32,766). PostgreSQL: multi-row inserts of up to 500 rows, one round
 * trip each.
 */
export async function insertRows<T extends keyof Database & string>(
  executor: Kysely<Database>,
  dialect: DialectName,
  table: T,
  columns: readonly (keyof Database[T] & string)[],
  rows: readonly Database[T][],
): Promise<void> {
  if (rows.length === 0) return;
  if (dialect === 'sqlite') {
    const text = `insert into "${table}" (${columns.map((c) => `"${c}"`).join(', ')}) values (${columns.map(() => '?').join(', ')})`;
    for (const row of rows) {
      await executor.executeQuery(
        CompiledQuery.raw(
          text,
          columns.map((c) => row[c]),
        ),
      );
    }
    return;
  }
  for (let i = 0; i < rows.length; i += PG_ROWS_PER_STATEMENT) {
    await executor
      .insertInto(table)
      .values(rows.slice(i, i + PG_ROWS_PER_STATEMENT) as never)
      .execute();
  }
}
