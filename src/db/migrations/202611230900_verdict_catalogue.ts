import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // Protected resources and execution settings are a few per-account values of the same kind as
  // the egress and loop settings, read by the same one-row query that loads an account's policy:
  // they extend `verdict_settings` rather than add a table and a second read to every load.
  await db.schema
    .alterTable('verdict_settings')
    .addColumn('protected_resources', 'text', (c) => c.notNull().defaultTo('{}'))
    .execute();
  await db.schema
    .alterTable('verdict_settings')
    .addColumn('allow_opaque', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();

  // An account's own catalogue rules: one JSON document replaced as a whole, with a counter that
  // grows on every replacement (clients compare it) and a digest (part of the policy version).
  await db.schema
    .createTable('verdict_catalogue_rules')
    .addColumn('account_id', 'text', (c) => c.primaryKey())
    .addColumn('rules', 'text', (c) => c.notNull())
    .addColumn('digest', 'text', (c) => c.notNull())
    .addColumn('version', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('verdict_catalogue_rules').execute();
  await db.schema.alterTable('verdict_settings').dropColumn('allow_opaque').execute();
  await db.schema.alterTable('verdict_settings').dropColumn('protected_resources').execute();
}
