import { type Kysely, sql } from 'kysely';
import type { DialectName } from '../../db/database.ts';
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

export function createUsageRepo(db: Kysely<Database>, dialect: DialectName) {
  return {
    /** Adds a batch of counts in one transaction: either every count lands or none does. */
    async addCounts(allMonthly: MonthlyCount[], allDaily: DailyCount[]): Promise<void> {
      if (allMonthly.length === 0 && allDaily.length === 0) return;
      await db.transaction().execute(async (trx) => {
        // Counts of an account deleted meanwhile (possibly on another instance) are dropped, not
        // resurrected. On PostgreSQL the share lock orders this batch against a deletion, which
        // locks the account row first: either the deletion waits and removes these rows too, or
        // this batch waits and then no longer sees the account.
        const accountIds = [...new Set([...allMonthly, ...allDaily].map((c) => c.accountId))];
        const existing = new Set(
          (
            await trx
              .selectFrom('accounts')
              .select('id')
              .where('id', 'in', accountIds)
              .$if(dialect === 'postgres', (q) => q.forShare())
              .execute()
          ).map((r) => r.id),
        );
        const monthly = allMonthly.filter((c) => existing.has(c.accountId));
        const daily = allDaily.filter((c) => existing.has(c.accountId));
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
    /** Written calls of every key of the account in a month. */
    async monthlyCallsForAccount(accountId: string, month: string): Promise<number> {
      const row = await db
        .selectFrom('usage_monthly')
        .select((eb) => eb.fn.sum<number | string | null>('calls').as('calls'))
        .where('account_id', '=', accountId)
        .where('month', '=', month)
        .executeTakeFirst();
      return Number(row?.calls ?? 0);
    },
    /**
     * Counts one call against the account's shared quota counter of the month unless `limit` calls
     * are counted already: the count including it, `false` when the allowance is used up, undefined
     * when the month has no counter yet. One conditional UPDATE decides, so concurrent calls on
     * any number of instances cannot pass the limit together.
     */
    async takeQuota(accountId: string, month: string, limit: number): Promise<number | false | undefined> {
      const taken = await db
        .updateTable('quota_counters')
        .set({ used: sql`used + 1` })
        .where('account_id', '=', accountId)
        .where('month', '=', month)
        .where('used', '<', limit)
        .returning('used')
        .executeTakeFirst();
      if (taken !== undefined) return Number(taken.used);
      const row = await db
        .selectFrom('quota_counters')
        .select('used')
        .where('account_id', '=', accountId)
        .where('month', '=', month)
        .executeTakeFirst();
      return row === undefined ? undefined : false;
    },
    /**
     * Creates the account's counter of the month or raises it to at least `floor` (never lowers
     * it). Not for an account deleted meanwhile: on PostgreSQL the share lock orders this against
     * a deletion, as for usage batches.
     */
    async raiseQuota(accountId: string, month: string, floor: number): Promise<void> {
      const larger =
        dialect === 'postgres'
          ? sql<number>`greatest(quota_counters.used, excluded.used)`
          : sql<number>`max(quota_counters.used, excluded.used)`;
      await db
        .insertInto('quota_counters')
        .columns(['account_id', 'month', 'used'])
        .expression(
          db
            .selectFrom('accounts')
            .select([
              'id',
              sql<string>`cast(${month} as text)`.as('month'),
              sql<number>`cast(${floor} as bigint)`.as('used'),
            ])
            .where('id', '=', accountId)
            .$if(dialect === 'postgres', (q) => q.forShare()),
        )
        .onConflict((oc) => oc.columns(['account_id', 'month']).doUpdateSet({ used: larger }))
        .execute();
    },
    /** Counts a call that is not subject to the allowance on the month's counter, if it has one. */
    async noteQuota(accountId: string, month: string): Promise<void> {
      await db
        .updateTable('quota_counters')
        .set({ used: sql`used + 1` })
        .where('account_id', '=', accountId)
        .where('month', '=', month)
        .execute();
    },
    monthlyByKey(accountId: string, month: string) {
      return db
        .selectFrom('usage_monthly')
        .select(['key_id', 'calls'])
        .where('account_id', '=', accountId)
        .where('month', '=', month)
        .execute();
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
