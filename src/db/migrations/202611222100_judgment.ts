import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // Every version of every account's Cedar policy document is kept: an evaluation names the
  // version it was judged under, and that text must stay readable afterwards.
  await db.schema
    .createTable('judgment_policies')
    .addColumn('account_id', 'text', (c) => c.notNull())
    .addColumn('version', 'bigint', (c) => c.notNull())
    .addColumn('text', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('created_by', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('judgment_policies_pk', ['account_id', 'version'])
    .execute();

  // The current version per account: one primary-key read per evaluation tells every instance
  // whether its compiled copy is still current.
  await db.schema
    .createTable('judgment_policy_heads')
    .addColumn('account_id', 'text', (c) => c.primaryKey())
    .addColumn('version', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('judgment_evaluations')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull())
    .addColumn('key_id', 'text', (c) => c.notNull())
    .addColumn('actor', 'text', (c) => c.notNull())
    .addColumn('actor_role', 'text', (c) => c.notNull())
    .addColumn('action_type', 'text', (c) => c.notNull())
    .addColumn('action_kind', 'text', (c) => c.notNull())
    .addColumn('impact_scope', 'text', (c) => c.notNull())
    .addColumn('decision', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('gates', 'text', (c) => c.notNull())
    .addColumn('policy_version', 'bigint', (c) => c.notNull())
    .addColumn('payload_sha256', 'text', (c) => c.notNull())
    .addColumn('payload', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text')
    .addColumn('decided_at', 'text')
    .addColumn('decided_by', 'text')
    .addColumn('comment', 'text')
    .execute();
  await db.schema
    .createIndex('judgment_evaluations_account_created')
    .on('judgment_evaluations')
    .columns(['account_id', 'created_at', 'id'])
    .execute();
  await db.schema
    .createIndex('judgment_evaluations_status_expiry')
    .on('judgment_evaluations')
    .columns(['status', 'expires_at'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('judgment_evaluations').execute();
  await db.schema.dropTable('judgment_policy_heads').execute();
  await db.schema.dropTable('judgment_policies').execute();
}
