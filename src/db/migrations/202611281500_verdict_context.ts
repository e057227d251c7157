import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // Where the account's agents work by default (`PUT /v1/settings/context`): a JSON object of
  // workspace roots, user, home, OS and the loopback origins an http.request may reach.
  await db.schema
    .alterTable('verdict_settings')
    .addColumn('context', 'text', (c) => c.notNull().defaultTo('{}'))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('verdict_settings').dropColumn('context').execute();
}
