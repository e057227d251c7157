import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { Database } from '../../db/schema.ts';
import { PeriodicFlush } from '../../lib/periodic-flush.ts';
import { eventData, type JudgmentEvents } from './events.ts';
import type { EvaluationRow, JudgmentRepo } from './repo.ts';

/**
 * Writes a batch of ALLOWED and BLOCKED evaluations, with the `action.blocked` events of the
 * blocked ones, in one transaction. Runs on the writer thread in the server.
 */
export async function writeEvaluations(
  db: Kysely<Database>,
  repo: Pick<JudgmentRepo, 'insert'>,
  events: JudgmentEvents,
  batch: readonly EvaluationRow[],
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await repo.insert(trx, batch);
    for (const row of batch) {
      if (row.decision === 'BLOCKED') {
        await events.emit(trx, row.account_id, 'action.blocked', eventData(row), new Date(row.created_at));
      }
    }
  });
}

/**
 * Buffers ALLOWED and BLOCKED evaluations and writes them in batches, off the request path, like
 * the audit log: the answer never waits on a write. Until a batch is written its rows are served
 * from memory, so the instance that answered can always show the evaluation; other instances
 * see it after the next flush. Escalations do not come through here: they are written before
 * the answer.
 */
export class EvaluationWriter {
  private pending = new Map<string, EvaluationRow>();
  private readonly flusher: PeriodicFlush;

  constructor(
    private readonly persist: (batch: EvaluationRow[]) => Promise<void>,
    flushMs: number,
    private readonly log: Pick<Logger, 'error'>,
  ) {
    this.flusher = new PeriodicFlush(flushMs, () => this.write());
  }

  add(row: EvaluationRow): void {
    this.pending.set(row.id, row);
    // Once, on reaching the batch size (as AuditLog.record): asking for every row while a write
    // is under way would queue a flush per row.
    if (this.pending.size === 1000) void this.flush();
  }

  peek(id: string): EvaluationRow | undefined {
    return this.pending.get(id);
  }

  start(): void {
    this.flusher.start();
  }

  flush(): Promise<void> {
    return this.flusher.flush();
  }

  stop(): Promise<void> {
    return this.flusher.stop();
  }

  /** Everything pending, in transactions of at most 1,000 rows, so none holds the lock for long. */
  private async write(): Promise<void> {
    while (this.pending.size > 0) {
      const batch: EvaluationRow[] = [];
      for (const row of this.pending.values()) {
        batch.push(row);
        if (batch.length === 1000) break;
      }
      try {
        await this.persist(batch);
        for (const row of batch) if (this.pending.get(row.id) === row) this.pending.delete(row.id);
      } catch (err) {
        this.log.error(
          { err, evaluations: batch.length },
          'writing evaluations failed; kept for the next attempt',
        );
        return;
      }
    }
  }
}
