import { type Kysely, sql } from 'kysely';
import type { Database } from '../../db/schema.ts';

export interface MonthlyCount {
  keyId: string;
  accountId: string;
  month: string;
  calls: number;
}

export interface DailyCount {
  accountId: string;
  day: string;
  endpoint: string;
  calls: number;
}

export function createUsageRepo(db: Kysely<Database>) {
  return {
    /** Adds a batch of counts in one transaction: either every count lands or none does. */
    async addCounts(monthly: MonthlyCount[], daily: DailyCount[]): Promise<void> {
      if (monthly.length === 0 && daily.length === 0) return;
      await db.transaction().execute(async (trx) => {
        if (monthly.length > 0) {
          await trx
            .insertInto('usage_monthly')
            .values(
              monthly.map((c) => ({
                key_id: c.keyId,
                account_id: c.accountId,
                month: c.month,
                calls: c.calls,
              })),
            )
            .onConflict((oc) =>
              oc
                .columns(['key_id', 'month'])
                .doUpdateSet({ calls: sql`usage_monthly.calls + excluded.calls` }),
            )
            .execute();
        }
        if (daily.length > 0) {
          await trx
            .insertInto('usage_daily')
            .values(
              daily.map((c) => ({
                account_id: c.accountId,
                day: c.day,
                endpoint: c.endpoint,
                calls: c.calls,
              })),
            )
            .onConflict((oc) =>
              oc
                .columns(['account_id', 'day', 'endpoint'])
                .doUpdateSet({ calls: sql`usage_daily.calls + excluded.calls` }),
            )
            .execute();
        }
      });
    },
    dailyForAccount(accountId: string, fromDay: string, toDay: string) {
      return db
        .selectFrom('usage_daily')
        .select(['day', 'endpoint', 'calls'])
        .where('account_id', '=', accountId)
        .where('day', '>=', fromDay)
        .where('day', '<=', toDay)
        .orderBy('day')
        .orderBy('endpoint')
        .execute();
    },
  };
}

export type UsageRepo = ReturnType<typeof createUsageRepo>;
