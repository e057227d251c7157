import type { Transaction } from 'kysely';
import type { DialectName } from '../../db/database.ts';
import type { Database } from '../../db/schema.ts';

/** What plan limits read: an account's plan and how much of it is in use, inside the caller's transaction. */
export function createPlansRepo(dialect: DialectName) {
  return {
    /**
     * The account's plan. On PostgreSQL the account row stays locked until the transaction ends,
     * so two concurrent creations cannot both take the last place (SQLite writers are serial already).
     */
    async lockAccountPlan(trx: Transaction<Database>, accountId: string): Promise<string | undefined> {
      const account = await trx
        .selectFrom('accounts')
        .select('plan')
        .where('id', '=', accountId)
        .$if(dialect === 'postgres', (q) => q.forUpdate())
        .executeTakeFirst();
      return account?.plan;
    },

    async countActiveKeys(trx: Transaction<Database>, accountId: string): Promise<number> {
      const row = await trx
        .selectFrom('api_keys')
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .where('account_id', '=', accountId)
        .where('revoked_at', 'is', null)
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },
  };
}

export type PlansRepo = ReturnType<typeof createPlansRepo>;
