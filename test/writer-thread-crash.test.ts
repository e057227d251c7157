import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Db, migrateToLatest, openDatabase } from '../src/db/database.ts';
import { type AuditRepo, createAuditRepo } from '../src/domains/audit/repo.ts';
import { AuditLog } from '../src/domains/audit/service.ts';
import { createJudgmentRepo, type EvaluationRow } from '../src/domains/judgment/repo.ts';
import { startWriterThread, type WriterCrashPoint, type WriterThread } from '../src/writer-thread/index.ts';
import { createJobRunner } from '../src/writer-thread/jobs.ts';
import { DIALECTS, freshDatabase, type TestDatabase } from './helpers/databases.ts';

/**
 * The writer thread exits (a real `process.exit` in the thread) with a job's transaction open,
 * or right after it committed and before it answered. The main thread then writes the job again
 * on its own connection: each entry and evaluation must be there exactly once, none lost.
 */
describe.each(DIALECTS)('writer thread dying mid-job on %s', (dialect) => {
  let tdb: TestDatabase;
  let db: Db;
  let audit: AuditRepo;
  let thread: WriterThread | undefined;
  const errors: unknown[] = [];

  beforeEach(async () => {
    tdb = await freshDatabase(dialect);
    db = openDatabase(tdb.database);
    await migrateToLatest(db);
    audit = createAuditRepo(db.kysely, db.dialect);
    errors.length = 0;
    const now = new Date().toISOString();
    await db.kysely
      .insertInto('webhook_endpoints')
      .values({
        id: 'ep1',
        account_id: 'a',
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

  const start = (crashAt: WriterCrashPoint) => {
    thread = startWriterThread(
      tdb.database,
      createJobRunner(db),
      { error: (obj) => errors.push(obj) },
      { crashAt },
    );
    return thread;
  };

  const webhookEvents = async (type: string) =>
    (await db.kysely.selectFrom('webhook_events').select('id').where('type', '=', type).execute()).length;

  async function appendThroughCrash(crashAt: WriterCrashPoint) {
    const writer = start(crashAt);
    const log = new AuditLog(audit, 60_000, { error: (obj: object) => errors.push(obj) }, (events) =>
      writer.run({ kind: 'audit.append', events }),
    );
    for (let i = 0; i < 10; i++)
      log.record({
        accountId: 'a',
        actor: 'k',
        action: 'verdict.rejected',
        details: { i },
        raises: { type: 'verdict.rejected', data: { i } },
      });
    await log.flush();
    // The thread is gone: what follows is written on this thread, after the retried batch.
    for (let i = 10; i < 15; i++)
      log.record({ accountId: 'a', actor: 'k', action: 'verdict.rejected', details: { i } });
    await log.stop();
  }

  for (const crashAt of ['after-commit', 'before-commit'] as const) {
    it(`appends each audit entry once when the thread dies ${crashAt}`, async () => {
      await appendThroughCrash(crashAt);
      const entries = await audit.list('a', { limit: 100 });
      expect(entries.map((e) => e.details.i)).toEqual(Array.from({ length: 15 }, (_, i) => i));
      expect(await audit.verify('a')).toEqual({ valid: true, entries: 15 });
      expect(await webhookEvents('verdict.rejected')).toBe(10);
      // The thread did die, and the main thread took over.
      expect(errors).toContainEqual(expect.objectContaining({ reason: 'exit code 70' }));
    });

    it(`writes each evaluation once when the thread dies ${crashAt}`, async () => {
      const writer = start(crashAt);
      const judgment = createJudgmentRepo(db.kysely, db.dialect);
      const rows = Array.from({ length: 6 }, (_, i) => evaluation(`ev${i}`, i % 2 ? 'BLOCKED' : 'ALLOWED'));
      await writer.run({ kind: 'judgment.evaluations', rows: rows.slice(0, 4) });
      // A batch holding rows that may already be written along with new ones, as a retry
      // after an unanswered write sends.
      await writer.run({ kind: 'judgment.evaluations', rows });
      const stored = await judgment.list('a', { limit: 100 });
      expect(stored.map((r) => r.id).sort()).toEqual(rows.map((r) => r.id));
      expect(await webhookEvents('action.blocked')).toBe(3);
      expect(errors).toContainEqual(expect.objectContaining({ reason: 'exit code 70' }));
    });
  }
});

function evaluation(id: string, decision: 'ALLOWED' | 'BLOCKED'): EvaluationRow {
  return {
    id,
    account_id: 'a',
    key_id: 'k',
    actor: 'agent',
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
