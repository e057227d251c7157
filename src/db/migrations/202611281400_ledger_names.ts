import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // Each pseudonym of an account's claims with the word it stands for, sealed with the server's
  // secret key (AES-256-GCM, bound to the account and the pseudonym): the owner reads names as
  // written; forgetting a person deletes their rows.
  await db.schema
    .createTable('ledger_names')
    .addColumn('account_id', 'text', (c) => c.notNull())
    .addColumn('pseudonym', 'text', (c) => c.notNull())
    .addColumn('sealed', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('ledger_names_pk', ['account_id', 'pseudonym'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('ledger_names').execute();
}
