import type { Logger } from 'pino';
import { PeriodicFlush } from '../../lib/periodic-flush.ts';
import { dayOfMs } from './periods.ts';
import type { DailyCount, MonthlyCount, UsageRepo } from './repo.ts';

const SEP = '\u0000';

/**
 * Counts authenticated calls in memory and writes them to the database in batches, so that
 * metering costs a map increment on the hot path. A failed write puts the counts back for the
 * next flush, and `stop()` flushes what is pending, so a graceful shutdown loses nothing.
 */
export class UsageMeter {
  private monthly = new Map<string, MonthlyCount>();
  private daily = new Map<string, DailyCount>();
  private readonly flusher: PeriodicFlush;

  constructor(
    private readonly repo: Pick<UsageRepo, 'addCounts'>,
    flushMs: number,
    private readonly log: Pick<Logger, 'error'>,
  ) {
    this.flusher = new PeriodicFlush(flushMs, () => this.writeBatch());
  }

  record(keyId: string, accountId: string, endpoint: string, at: Date | number = Date.now()): void {
    const day = dayOfMs(typeof at === 'number' ? at : at.getTime());
    const month = day.slice(0, 7);
    const mKey = keyId + SEP + month;
    const m = this.monthly.get(mKey);
    if (m) m.calls += 1;
    else this.monthly.set(mKey, { keyId, accountId, month, calls: 1 });

    const dKey = accountId + SEP + day + SEP + endpoint;
    const d = this.daily.get(dKey);
    if (d) d.calls += 1;
    else this.daily.set(dKey, { accountId, day, endpoint, calls: 1 });
  }

  /** Calls counted here but not yet written, so reads can add them to what the database holds. */
  pendingForKey(keyId: string, month: string): number {
    return this.monthly.get(keyId + SEP + month)?.calls ?? 0;
  }

  pendingForAccountDaily(accountId: string): DailyCount[] {
    return [...this.daily.values()].filter((c) => c.accountId === accountId);
  }

  pendingForAccountMonthly(accountId: string, month: string): MonthlyCount[] {
    return [...this.monthly.values()].filter((c) => c.accountId === accountId && c.month === month);
  }

  /** Calls of the account counted here but not yet written, for one month. */
  pendingForAccount(accountId: string, month: string): number {
    let calls = 0;
    for (const c of this.monthly.values())
      if (c.accountId === accountId && c.month === month) calls += c.calls;
    return calls;
  }

  /** Drops the pending counts of an account that no longer exists, so a flush does not bring rows back. */
  forgetAccount(accountId: string): void {
    for (const [k, c] of this.monthly) if (c.accountId === accountId) this.monthly.delete(k);
    for (const [k, c] of this.daily) if (c.accountId === accountId) this.daily.delete(k);
  }

  /**
   * Runs `fn` while no batch is being written, so that what it reads from the database plus what
   * is pending here counts every call exactly once (the quota guard's reconciliation).
   */
  exclusive<T>(fn: () => Promise<T>): Promise<T> {
    return this.flusher.exclusive(fn);
  }

  start(): void {
    this.flusher.start();
  }

  /** Writes pending counts; concurrent calls queue behind each other so no batch is written twice. */
  flush(): Promise<void> {
    return this.flusher.flush();
  }

  stop(): Promise<void> {
    return this.flusher.stop();
  }

  private async writeBatch(): Promise<void> {
    if (this.monthly.size === 0 && this.daily.size === 0) return;
    const monthly = this.monthly;
    const daily = this.daily;
    this.monthly = new Map();
    this.daily = new Map();
    try {
      await this.repo.addCounts([...monthly.values()], [...daily.values()]);
    } catch (err) {
      this.log.error({ err }, 'usage flush failed; counts kept for the next attempt');
      for (const [k, c] of monthly) {
        const now = this.monthly.get(k);
        if (now) now.calls += c.calls;
        else this.monthly.set(k, c);
      }
      for (const [k, c] of daily) {
        const now = this.daily.get(k);
        if (now) now.calls += c.calls;
        else this.daily.set(k, c);
      }
    }
  }
}
