import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // Per-account scrubbing settings (`PUT /v2/vault/settings/pii`); an account without a row
  // scrubs with the defaults.
  await db.schema
    .createTable('ledger_settings')
    .addColumn('account_id', 'text', (c) => c.primaryKey())
    .addColumn('phone_region', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('ledger_settings').execute();
}
