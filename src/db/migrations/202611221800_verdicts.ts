import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // One row per account that changed a verdict setting; absent rows mean the defaults.
  await db.schema
    .createTable('verdict_settings')
    .addColumn('account_id', 'text', (c) => c.primaryKey())
    .addColumn('egress_mode', 'text', (c) => c.notNull())
    .addColumn('trusted_domains', 'text', (c) => c.notNull())
    .addColumn('blocked_domains', 'text', (c) => c.notNull())
    .addColumn('loop_threshold', 'bigint', (c) => c.notNull())
    .addColumn('loop_window_ms', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('verdict_actions')
    .addColumn('account_id', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('schema', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('verdict_actions_pk', ['account_id', 'name'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('verdict_actions').execute();
  await db.schema.dropTable('verdict_settings').execute();
}
