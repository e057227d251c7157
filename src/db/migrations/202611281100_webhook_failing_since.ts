import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // When the endpoint's current run of failures began (null while its last delivery succeeded):
  // an endpoint is disabled only once it has failed both often enough and for long enough, not
  // after one burst. Endpoints failing at the upgrade start their run at their next failure.
  await db.schema.alterTable('webhook_endpoints').addColumn('failing_since', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('webhook_endpoints').dropColumn('failing_since').execute();
}
