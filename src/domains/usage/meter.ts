import type { Logger } from 'pino';
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
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> = Promise.resolve();

  constructor(
    private readonly repo: Pick<UsageRepo, 'addCounts'>,
    private readonly flushMs: number,
    private readonly log: Pick<Logger, 'error'>,
  ) {}

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

  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => void this.flush(), this.flushMs);
    this.timer.unref();
  }

  /** Writes pending counts; concurrent calls queue behind each other so no batch is written twice. */
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
