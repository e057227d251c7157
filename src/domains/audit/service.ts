import type { Logger } from 'pino';
import type { AuditEvent, AuditRepo } from './repo.ts';

/**
 * The audit log. Changes that must be recorded together with what they change call the repo's
 * `appendIn(trx, …)` inside their own transaction. Hot-path events (every verdict) go through
 * `record`, which buffers and appends in batches so that a verdict never waits on a write;
 * `stop()` appends what is pending, so a graceful shutdown loses nothing.
 */
export class AuditLog {
  private pending: AuditEvent[] = [];
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> = Promise.resolve();
  private static readonly MAX_BATCH = 5000;

  constructor(
    readonly repo: AuditRepo,
    private readonly flushMs: number,
    private readonly log: Pick<Logger, 'error'>,
  ) {}

  record(event: AuditEvent): void {
    this.pending.push({ ...event, at: event.at ?? new Date().toISOString() });
    if (this.pending.length >= AuditLog.MAX_BATCH) void this.flush();
  }

  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => void this.flush(), this.flushMs);
    this.timer.unref();
  }

  flush(): Promise<void> {
    this.flushing = this.flushing.then(() => this.writeBatch());
    return this.flushing;
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.flush();
  }

  private async writeBatch(): Promise<void> {
    if (this.pending.length === 0) return;
    const batch = this.pending;
    this.pending = [];
    try {
      await this.repo.append(batch);
    } catch (err) {
      this.log.error({ err, events: batch.length }, 'audit append failed; events kept for the next attempt');
      this.pending = batch.concat(this.pending);
    }
  }
}
