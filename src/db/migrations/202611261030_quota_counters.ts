import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // Calls counted against an account's monthly allowance, shared by every instance on one
  // PostgreSQL without Redis: one conditional UPDATE admits a call, so no instance can admit a
  // call beyond the allowance. `month` is `YYYY-MM` (UTC), as in usage_monthly.
  await db.schema
    .createTable('quota_counters')
    .addColumn('account_id', 'text', (c) => c.notNull())
    .addColumn('month', 'text', (c) => c.notNull())
    .addColumn('used', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('quota_counters_pk', ['account_id', 'month'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('quota_counters').execute();
}
