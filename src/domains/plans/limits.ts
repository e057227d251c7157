import type { Transaction } from 'kysely';
import type { DialectName } from '../../db/database.ts';
import type { Database } from '../../db/schema.ts';
import { AppError } from '../../errors.ts';
import { findPlan, type Plan } from './catalog.ts';

/**
 * Refuses a new key when the account's plan allows no more active keys. Runs inside the key's
 * creation transaction; on PostgreSQL the account row is locked so two concurrent creations
 * cannot both take the last place (SQLite writers are serial already).
 */
export function keyLimitGuard(plans: readonly Plan[], dialect: DialectName) {
  return async (trx: Transaction<Database>, accountId: string): Promise<void> => {
    const account = await trx
      .selectFrom('accounts')
      .select('plan')
      .where('id', '=', accountId)
      .$if(dialect === 'postgres', (q) => q.forUpdate())
      .executeTakeFirst();
    const max = account ? findPlan(plans, account.plan)?.max_api_keys : null;
    if (max === null || max === undefined) return;
    const row = await trx
      .selectFrom('api_keys')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('account_id', '=', accountId)
      .where('revoked_at', 'is', null)
      .executeTakeFirstOrThrow();
    if (Number(row.n) >= max) {
      throw new AppError(
        'FORBIDDEN',
        `The ${account!.plan} plan allows ${max} active API keys; revoke one or upgrade with POST /subscription/checkout`,
        { details: { max_api_keys: max, plan: account!.plan } },
      );
    }
  };
}
