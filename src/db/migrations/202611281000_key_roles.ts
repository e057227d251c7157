import type { Kysely } from 'kysely';

/** The migration's name, so the start-up can say once what it did to the keys already there. */
export const KEY_ROLES_MIGRATION = '202611281000_key_roles';

export async function up(db: Kysely<unknown>): Promise<void> {
  // Every key made before roles had every power: it keeps it, as `admin`. New keys always name
  // their role (the insert's type requires it), so the default only fills the existing rows.
  await db.schema
    .alterTable('api_keys')
    .addColumn('role', 'text', (c) => c.notNull().defaultTo('admin'))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('api_keys').dropColumn('role').execute();
}
