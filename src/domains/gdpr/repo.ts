import type { Kysely, Transaction } from 'kysely';
import type { DialectName } from '../../db/database.ts';
import type { Database } from '../../db/schema.ts';

// Table names come from the registry, not from the typed schema: other domains add tables.
type AnyDb = Kysely<Record<string, Record<string, unknown>>>;

/** Reads and erases an account's rows table by table, as the GDPR registry (`registry.ts`) names them, in the caller's transaction. */
export function createGdprRepo(dialect: DialectName) {
  return {
    /** The account's rows of one registered table, in the rule's order. */
    async accountRows(
      trx: Transaction<Database>,
      table: { table: string; column: string; orderBy?: string | undefined },
      accountId: string,
    ): Promise<Record<string, unknown>[]> {
      let q = (trx as unknown as AnyDb)
        .selectFrom(table.table)
        .selectAll()
        .where(table.column, '=', accountId);
      if (table.orderBy) q = q.orderBy(table.orderBy);
      return q.execute();
    },

    /**
     * Locks the account row before anything is deleted (PostgreSQL), so that a usage batch being
     * written meanwhile, here or on another instance, either finishes first and is deleted with
     * the rest, or waits and finds no account to count for.
     */
    async lockAccount(trx: Transaction<Database>, accountId: string): Promise<void> {
      await trx
        .selectFrom('accounts')
        .select('id')
        .where('id', '=', accountId)
        .$if(dialect === 'postgres', (q) => q.forUpdate())
        .execute();
    },

    /** Deletes the account's rows of one registered table; how many went. */
    async deleteAccountRows(trx: Transaction<Database>, table: string, column: string, accountId: string) {
      const result = await (trx as unknown as AnyDb)
        .deleteFrom(table)
        .where(column, '=', accountId)
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}

export type GdprRepo = ReturnType<typeof createGdprRepo>;
