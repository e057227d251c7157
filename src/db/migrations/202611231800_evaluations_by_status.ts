import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // The pending escalations of one account, newest first: the console asks every second while a
  // page is open, and `GET /v2/actions/evaluations?status=…` asks the same. Without this index the
  // few pending rows are found by walking all of the account's evaluations.
  await db.schema
    .createIndex('judgment_evaluations_account_status_created')
    .on('judgment_evaluations')
    .columns(['account_id', 'status', 'created_at', 'id'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('judgment_evaluations_account_status_created').execute();
}
