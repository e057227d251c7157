import type { Logger } from 'pino';
import { logThrottle } from '../../lib/log-throttle.ts';
import { PeriodicFlush } from '../../lib/periodic-flush.ts';
import { timeOrderedId } from '../../lib/time-ordered-id.ts';
import type { AuditEvent, AuditRepo, IdentifiedAuditEvent } from './repo.ts';

let lastMs = 0;
let lastIso = new Date(0).toISOString();

/** `new Date().toISOString()`, formatted once per millisecond: a busy server records many per millisecond. */
function isoNow(): string {
  const ms = Date.now();
  if (ms !== lastMs) {
    lastMs = ms;
    lastIso = new Date(ms).toISOString();
  }
  return lastIso;
}

/**
 * The audit log. Changes that must be recorded together with what they change call the repo's
 * `appendIn(trx, …)` inside their own transaction. Hot-path events (every verdict) go through
 * `record`, which buffers and appends in batches so that a verdict never waits on a write;
 * `stop()` appends what is pending, so a graceful shutdown loses nothing.
 * The server appends those batches on the writer thread (src/writer-thread), off the request loop.
 */
export class AuditLog {
  private pending: IdentifiedAuditEvent[] = [];
  private readonly flusher: PeriodicFlush;
  // Flushes run every 100 ms: while the database is away, one line every 5 s says so.
  private readonly failureReport = logThrottle(5000);
  // Small enough that appending a batch holds SQLite's write lock for a few milliseconds only.
  private static readonly MAX_BATCH = 1000;

  constructor(
    readonly repo: AuditRepo,
    flushMs: number,
    private readonly log: Pick<Logger, 'error'>,
    /** Where batches are appended: the repo on this connection unless given (the writer thread). */
    private readonly append: (events: IdentifiedAuditEvent[]) => Promise<unknown> = (events) =>
      repo.append(events),
  ) {
    this.flusher = new PeriodicFlush(flushMs, () => this.writeBatch());
  }

  record(event: AuditEvent): void {
    const at = event.at ?? isoNow();
    // The id is fixed here, before the first attempt: every retry of the batch carries it, and
    // the append skips entries already written by an attempt whose answer was lost.
    this.pending.push({ ...event, at, id: event.id ?? timeOrderedId(Date.parse(at)) });
    // Once, on reaching the batch size: asking again for every event while a write is under way
    // queued a flush per event, which cost more than the events themselves.
    if (this.pending.length === AuditLog.MAX_BATCH) void this.flush();
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

  /** Everything pending, in batches of at most MAX_BATCH, so no transaction holds the lock for long. */
  private async writeBatch(): Promise<void> {
    while (this.pending.length > 0) {
      const batch = this.pending.splice(0, AuditLog.MAX_BATCH);
      try {
        await this.append(batch);
      } catch (err) {
        const report = this.failureReport();
        if (report)
          this.log.error(
            { err, events: batch.length, pending: this.pending.length, suppressed: report.suppressed },
            'audit append failed; events kept for the next attempt',
          );
        this.pending = batch.concat(this.pending);
        return;
      }
    }
  }
}
