import type { Db } from '../db/database.ts';
import type { Refusal } from '../db/write-apart.ts';
import { createAuditRepo, type IdentifiedAuditEvent } from '../domains/audit/repo.ts';
import { writeEvaluations } from '../domains/judgment/evaluation-writer.ts';
import { createJudgmentRepo, type EvaluationRow } from '../domains/judgment/repo.ts';
import { emitEvents, raisedEvents, webhookEvents } from '../domains/webhooks/outbox.ts';

/**
 * The writes that leave the request loop: batches the hot paths buffer. Every entry and row
 * carries its id from the start, so a job may run twice (its first run's commit was never
 * acknowledged) and write each once: the second run skips what the first one wrote.
 */
export type WriteJob =
  | { kind: 'audit.append'; events: IdentifiedAuditEvent[] }
  | { kind: 'judgment.evaluations'; rows: EvaluationRow[] };

/** Runs a job; resolves with the rows the database refused (left out, the rest written). */
export type JobRunner = (job: WriteJob) => Promise<Refusal[]>;

/**
 * Runs jobs on `db`: in the writer thread on its own connection, or here when it cannot.
 * `beforeCommit` (tests only: the writer thread's crash point) runs inside a job's transaction
 * once its rows are written.
 */
export function createJobRunner(db: Db, beforeCommit?: () => void): JobRunner {
  const audit = createAuditRepo(db.kysely, db.dialect);
  const repo = createJudgmentRepo(db.kysely, db.dialect);
  const judgment: typeof repo = beforeCommit
    ? {
        ...repo,
        insert: async (trx, rows) => {
          await repo.insert(trx, rows);
          beforeCommit();
        },
      }
    : repo;
  return async (job) => {
    switch (job.kind) {
      case 'audit.append':
        await db.kysely.transaction().execute(async (trx) => {
          const written = await audit.appendIn(trx, job.events);
          // The events of entries written before (by an unacknowledged run) were queued then.
          const ids = written.length === job.events.length ? undefined : new Set(written.map((w) => w.id));
          const events = ids ? job.events.filter((e) => ids.has(e.id)) : job.events;
          await emitEvents(trx, raisedEvents(events));
          beforeCommit?.();
        });
        return [];
      case 'judgment.evaluations': {
        // Read before the write's transaction: should a dying run's commit land in between, the
        // primary key fails this run and the writer's next attempt skips those rows.
        const stored = await repo.storedIds(job.rows.map((r) => r.id));
        const rows = stored.size === 0 ? job.rows : job.rows.filter((r) => !stored.has(r.id));
        return rows.length > 0 ? writeEvaluations(db.kysely, judgment, webhookEvents, rows) : [];
      }
    }
  };
}
