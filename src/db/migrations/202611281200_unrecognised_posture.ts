import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // What /v1/evaluate answers for an action Arbiter does not understand: `allow` (safe, with
  // recognised: false, for the integration to ask a person) or `refuse` (POLICY_VIOLATION).
  await db.schema
    .alterTable('verdict_settings')
    .addColumn('unrecognised', 'text', (c) => c.notNull().defaultTo('allow'))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('verdict_settings').dropColumn('unrecognised').execute();
}
