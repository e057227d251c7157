import type { Kysely, Transaction } from 'kysely';
import type { ApiKeyRow, Database } from '../../db/schema.ts';

export interface KeyWithUsage extends ApiKeyRow {
  calls_this_month: number;
}

/** Reads run on `db`; writes take the transaction their service opened (with its audit entry). */
export function createApiKeysRepo(db: Kysely<Database>) {
  return {
    async insert(trx: Transaction<Database>, row: ApiKeyRow): Promise<void> {
      await trx.insertInto('api_keys').values(row).execute();
    },
    /** The key behind a secret's hash, with its account's plan, for authentication. */
    findActiveByHash(keyHash: string) {
      return db
        .selectFrom('api_keys')
        .innerJoin('accounts', 'accounts.id', 'api_keys.account_id')
        .select([
          'api_keys.id as keyId',
          'api_keys.account_id as accountId',
          'accounts.plan as plan',
          'api_keys.role as role',
        ])
        .where('api_keys.key_hash', '=', keyHash)
        .where('api_keys.revoked_at', 'is', null)
        .executeTakeFirst();
    },
    async countActive(): Promise<number> {
      const row = await db
        .selectFrom('api_keys')
        .select((eb) => eb.fn.countAll<string | number>().as('n'))
        .where('revoked_at', 'is', null)
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },
    findForAccount(accountId: string, keyId: string): Promise<ApiKeyRow | undefined> {
      return db
        .selectFrom('api_keys')
        .selectAll()
        .where('id', '=', keyId)
        .where('account_id', '=', accountId)
        .executeTakeFirst();
    },
    /** Keys of an account, oldest first, with this month's flushed call count. */
    async listWithUsage(accountId: string, month: string): Promise<KeyWithUsage[]> {
      const rows = await db
        .selectFrom('api_keys')
        .leftJoin('usage_monthly', (join) =>
          join.onRef('usage_monthly.key_id', '=', 'api_keys.id').on('usage_monthly.month', '=', month),
        )
        .selectAll('api_keys')
        .select('usage_monthly.calls')
        .where('api_keys.account_id', '=', accountId)
        .orderBy('api_keys.created_at')
        .orderBy('api_keys.id')
        .execute();
      return rows.map(({ calls, ...key }) => ({ ...key, calls_this_month: Number(calls ?? 0) }));
    },
    async revoke(trx: Transaction<Database>, accountId: string, keyId: string, at: string): Promise<void> {
      await trx
        .updateTable('api_keys')
        .set({ revoked_at: at })
        .where('id', '=', keyId)
        .where('account_id', '=', accountId)
        .where('revoked_at', 'is', null)
        .execute();
    },
  };
}

export type ApiKeysRepo = ReturnType<typeof createApiKeysRepo>;
