import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { Database } from '../../db/schema.ts';
import { type Refusal, writeApart } from '../../db/write-apart.ts';
import { Errors } from '../../errors.ts';
import { PeriodicFlush } from '../../lib/periodic-flush.ts';
import { eventData, type JudgmentEvents } from './events.ts';
import type { EvaluationRow, JudgmentRepo } from './repo.ts';

/**
 * Writes a batch of ALLOWED and BLOCKED evaluations, with the `action.blocked` events of the
 * blocked ones, in one transaction. A row the database refuses is left out, with its event, and
 * returned; the rest of the batch is written. Runs on the writer thread in the server.
 */
export function writeEvaluations(
  db: Kysely<Database>,
  repo: Pick<JudgmentRepo, 'insert'>,
  events: JudgmentEvents,
  batch: readonly EvaluationRow[],
): Promise<Refusal[]> {
  return db.transaction().execute((trx) =>
    writeApart(trx, batch, async (rows) => {
      await repo.insert(trx, rows);
      for (const row of rows) {
        if (row.decision === 'BLOCKED') {
          await events.emit(trx, row.account_id, 'action.blocked', eventData(row), new Date(row.created_at));
        }
      }
    }),
  );
}

/**
 * Writes ALLOWED and BLOCKED evaluations by group commit: `add` queues a row and resolves once
 * the transaction holding it has committed, and the rows that arrive while one transaction is
 * being written share the next one. The answer therefore names only evaluations that are stored
 * (a process killed right after answering loses none), at the cost of one write per burst rather
 * than one per request. A row the database refuses, or whose batch fails as a whole (the
 * database is away), is dropped and its request answered 503, so the caller retries rather than
 * trusting an evaluation that may never be written; a refused row fails no other account's
 * request in its batch (`writeEvaluations`). Until a batch is
 * written its rows are served from memory. Escalations do not come through here: they are
 * written before the answer.
 */
export class EvaluationWriter {
  private pending = new Map<string, EvaluationRow>();
  private readonly waiting = new Map<string, { resolve: () => void; reject: (err: unknown) => void }>();
  private flushQueued = false;
  private readonly flusher: PeriodicFlush;

  constructor(
    /** Writes a batch; returns the rows the database refused, which are not written. */
    private readonly persist: (batch: EvaluationRow[]) => Promise<readonly Refusal[]>,
    flushMs: number,
    private readonly log: Pick<Logger, 'error'>,
  ) {
    this.flusher = new PeriodicFlush(flushMs, () => this.write());
  }

  /** Queues the row; resolves once it is written, rejects (503) if its batch could not be. */
  add(row: EvaluationRow): Promise<void> {
    this.pending.set(row.id, row);
    const written = new Promise<void>((resolve, reject) => this.waiting.set(row.id, { resolve, reject }));
    // One flush for every row added in the same turn of the event loop: the rows of a burst go
    // in one transaction, queued behind the one being written, if any.
    if (!this.flushQueued) {
      this.flushQueued = true;
      setImmediate(() => {
        this.flushQueued = false;
        void this.flush();
      });
    }
    return written;
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

  /**
   * Takes the batch out of the buffer and answers the requests waiting on it: with `failure` if
   * the whole batch failed, else each refused row with its own.
   */
  private settle(batch: readonly EvaluationRow[], failure?: Error, refused?: ReadonlySet<string>): void {
    for (const row of batch) {
      if (this.pending.get(row.id) === row) this.pending.delete(row.id);
      const waiter = this.waiting.get(row.id);
      this.waiting.delete(row.id);
      if (failure) waiter?.reject(failure);
      else if (refused?.has(row.id)) waiter?.reject(unrecorded());
      else waiter?.resolve();
    }
  }

  /** Everything pending, in transactions of at most 1,000 rows, so none holds the lock for long. */
  private async write(): Promise<void> {
    while (this.pending.size > 0) {
      const batch: EvaluationRow[] = [];
      for (const row of this.pending.values()) {
        batch.push(row);
        if (batch.length === 1000) break;
      }
      let refusals: readonly Refusal[];
      try {
        refusals = await this.persist(batch);
      } catch (err) {
        this.log.error(
          { err, evaluations: batch.length },
          'writing evaluations failed; their requests get 503',
        );
        this.settle(batch, unrecorded());
        continue;
      }
      if (refusals.length > 0)
        this.log.error(
          {
            refused: refusals.map((r) => ({
              evaluation_id: r.id,
              account_id: this.pending.get(r.id)?.account_id,
              reason: r.reason,
            })),
            evaluations: batch.length,
          },
          'the database refused evaluations; their requests get 503, the rest of the batch is written',
        );
      this.settle(batch, undefined, refusals.length > 0 ? new Set(refusals.map((r) => r.id)) : undefined);
    }
  }
}

const unrecorded = () => Errors.unavailable('The evaluation could not be recorded; retry the request');
