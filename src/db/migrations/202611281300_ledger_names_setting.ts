import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // How the account's claims keep people's names: pseudonymize (one keyed pseudonym per word, the
  // default and what every account did before), redact (an irreversible <PERSON>) or keep.
  await db.schema
    .alterTable('ledger_settings')
    .addColumn('names', 'text', (c) => c.notNull().defaultTo('pseudonymize'))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('ledger_settings').dropColumn('names').execute();
}
