import type { Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { AppError } from '../../errors.ts';
import { findPlan, type Plan } from './catalog.ts';
import type { PlansRepo } from './repo.ts';

/**
 * Refuses a new key when the account's plan allows no more active keys. Runs inside the key's
 * creation transaction, with the account's plan locked for it (`PlansRepo.lockAccountPlan`).
 */
export function keyLimitGuard(plans: readonly Plan[], repo: PlansRepo) {
  return async (trx: Transaction<Database>, accountId: string): Promise<void> => {
    const plan = await repo.lockAccountPlan(trx, accountId);
    const max = plan === undefined ? null : findPlan(plans, plan)?.max_api_keys;
    if (max === null || max === undefined) return;
    if ((await repo.countActiveKeys(trx, accountId)) >= max) {
      throw new AppError(
        'FORBIDDEN',
        `The ${plan} plan allows ${max} active API keys; revoke one or upgrade with POST /subscription/checkout`,
        { details: { max_api_keys: max, plan } },
      );
    }
  };
}
