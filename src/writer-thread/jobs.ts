import type { Db } from '../db/database.ts';
import { type AuditEvent, createAuditRepo } from '../domains/audit/repo.ts';
import { createJudgmentRepo, type EvaluationRow } from '../domains/judgment/repo.ts';
import { writeEvaluations } from '../domains/judgment/service.ts';
import { emitEvents, raisedEvents, webhookEvents } from '../domains/webhooks/outbox.ts';

/** The writes that leave the request loop: batches the hot paths buffer. */
export type WriteJob =
  | { kind: 'audit.append'; events: AuditEvent[] }
  | { kind: 'judgment.evaluations'; rows: EvaluationRow[] };

export type JobRunner = (job: WriteJob) => Promise<void>;

/** Runs jobs on `db`: in the writer thread on its own connection, or here when it cannot. */
export function createJobRunner(db: Db): JobRunner {
  const audit = createAuditRepo(db.kysely, db.dialect);
  const judgment = createJudgmentRepo(db.kysely, db.dialect);
  return async (job) => {
    switch (job.kind) {
      case 'audit.append':
        await db.kysely.transaction().execute(async (trx) => {
          await audit.appendIn(trx, job.events);
          await emitEvents(trx, raisedEvents(job.events));
        });
        return;
      case 'judgment.evaluations':
        await writeEvaluations(db.kysely, judgment, webhookEvents, job.rows);
        return;
    }
  };
}
