import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Db, migrateToLatest, openDatabase } from '../../src/db/database.ts';
import { EvaluationWriter, writeEvaluations } from '../../src/domains/judgment/evaluation-writer.ts';
import { createJudgmentRepo, type EvaluationRow } from '../../src/domains/judgment/repo.ts';
import { webhookEvents } from '../../src/domains/webhooks/outbox.ts';
import { startWriterThread, type WriterThread } from '../../src/writer-thread/index.ts';
import { createJobRunner } from '../../src/writer-thread/jobs.ts';
import { DIALECTS, freshDatabase, type TestDatabase } from '../helpers/databases.ts';

/**
 * Rows of many accounts share one batch. A row the database refuses (PostgreSQL stores no NUL in
 * text; no database stores a null where the column says not null) fails only its own request:
 * the rows of the other accounts are written and answered. Below the HTTP layer on purpose: the
 * batch must hold whatever the routes let through.
 */
describe.each(DIALECTS)('an evaluation batch with a row the database refuses, on %s', (dialect) => {
  let tdb: TestDatabase;
  let db: Db;
  let thread: WriterThread | undefined;
  const logged: object[] = [];
  const log = { error: (obj: object) => void logged.push(obj) };

  beforeEach(async () => {
    tdb = await freshDatabase(dialect);
    db = openDatabase(tdb.database);
    await migrateToLatest(db);
    logged.length = 0;
    const now = new Date().toISOString();
    for (const account of ['good', 'bad'])
      await db.kysely
        .insertInto('webhook_endpoints')
        .values({
          id: `ep-${account}`,
          account_id: account,
          url: 'https://example.com/hook',
          description: '',
          event_types: '[]',
          secret: 'whsec_test',
          status: 'enabled',
          disabled_reason: null,
          consecutive_failures: 0,
          created_at: now,
          updated_at: now,
        })
        .execute();
  });
  afterEach(async () => {
    await thread?.close();
    thread = undefined;
    await db.close();
    await tdb.drop();
  });

  const judgment = () => createJudgmentRepo(db.kysely, db.dialect);
  const refusedActor = dialect === 'postgres' ? 'agent\u0000x' : (null as unknown as string);
  const batch = () => [
    evaluation('ev-good-1', 'good', 'ALLOWED'),
    evaluation('ev-bad-1', 'bad', 'BLOCKED', refusedActor),
    evaluation('ev-good-2', 'good', 'BLOCKED'),
    evaluation('ev-bad-2', 'bad', 'ALLOWED', null as unknown as string),
    evaluation('ev-bad-3', 'bad', 'ALLOWED'),
  ];

  async function expectOnlyRefusedRowsFailed(outcomes: PromiseSettledResult<void>[], rows: EvaluationRow[]) {
    const byId = Object.fromEntries(rows.map((r, i) => [r.id, outcomes[i]!.status]));
    expect(byId).toEqual({
      'ev-good-1': 'fulfilled',
      'ev-bad-1': 'rejected',
      'ev-good-2': 'fulfilled',
      'ev-bad-2': 'rejected',
      'ev-bad-3': 'fulfilled',
    });
    expect((await judgment().list('good', { limit: 10 })).map((r) => r.id).sort()).toEqual([
      'ev-good-1',
      'ev-good-2',
    ]);
    expect((await judgment().list('bad', { limit: 10 })).map((r) => r.id)).toEqual(['ev-bad-3']);
    // The refused BLOCKED row's event was rolled back with it; the stored one's was kept.
    const events = await db.kysely.selectFrom('webhook_events').select(['account_id', 'type']).execute();
    expect(events).toEqual([{ account_id: 'good', type: 'action.blocked' }]);
  }

  it('answers every other request when the batch goes through the writer thread', async () => {
    thread = startWriterThread(tdb.database, createJobRunner(db), log);
    const writer = new EvaluationWriter(
      (rows) => thread!.run({ kind: 'judgment.evaluations', rows }),
      60_000,
      log,
    );
    const rows = batch();
    const outcomes = Promise.allSettled(rows.map((r) => writer.add(r)));
    await writer.flush();
    await expectOnlyRefusedRowsFailed(await outcomes, rows);
    expect(logged).toContainEqual(
      expect.objectContaining({
        refused: [
          expect.objectContaining({ evaluation_id: 'ev-bad-1', account_id: 'bad' }),
          expect.objectContaining({ evaluation_id: 'ev-bad-2', account_id: 'bad' }),
        ],
      }),
    );
  });

  it('answers every other request when the batch is written on this connection', async () => {
    const writer = new EvaluationWriter(
      (rows) => writeEvaluations(db.kysely, judgment(), webhookEvents, rows),
      60_000,
      log,
    );
    const rows = batch();
    const outcomes = Promise.allSettled(rows.map((r) => writer.add(r)));
    await writer.flush();
    await expectOnlyRefusedRowsFailed(await outcomes, rows);
  });

  it('writes a batch the database takes whole in one go', async () => {
    const rows = ['a', 'b', 'c'].map((id) => evaluation(id, 'good', 'ALLOWED'));
    expect(await writeEvaluations(db.kysely, judgment(), webhookEvents, rows)).toEqual([]);
    expect(await judgment().list('good', { limit: 10 })).toHaveLength(3);
  });
});

function evaluation(
  id: string,
  accountId: string,
  decision: 'ALLOWED' | 'BLOCKED',
  actor = 'agent',
): EvaluationRow {
  return {
    id,
    account_id: accountId,
    key_id: 'k',
    actor,
    actor_role: 'agent',
    action_type: 'shell',
    action_kind: 'shell.exec',
    impact_scope: 'local',
    decision,
    status: decision === 'BLOCKED' ? 'blocked' : 'allowed',
    reason: 'test',
    gates: '[]',
    policy_version: 1,
    payload_sha256: '0'.repeat(64),
    payload: null,
    created_at: new Date().toISOString(),
    expires_at: null,
    decided_at: null,
    decided_by: null,
    comment: null,
  };
}
