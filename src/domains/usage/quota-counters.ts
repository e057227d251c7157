import type { Logger } from 'pino';
import { logThrottle } from '../../lib/log-throttle.ts';
import { monthOf, startOfMonthKey } from '../../lib/utc-month.ts';
import type { UsageMeter } from './meter.ts';
import { LocalQuotaCounter, type QuotaCounter } from './quota.ts';
import type { UsageRepo } from './repo.ts';

/**
 * Quota counters every instance shares, one per account and month, each operation atomic where
 * the counters are kept (a Redis script, or one SQL statement).
 */
export interface SharedQuotaStore {
  /**
   * Raises the counter to `floor` when given (creating it), then counts one call unless `limit`
   * calls are counted: the count including it, `false` when the allowance is used up, undefined
   * when there is no counter and no floor was given.
   */
  take(accountId: string, month: string, limit: number, floor?: number): Promise<number | false | undefined>;
  /**
   * Raises the month's counter to at least `floor`; never lowers it, and never brings back the
   * counter of an account deleted meanwhile.
   */
  raise(accountId: string, month: string, floor: number): Promise<void>;
  /** Counts a call that is not subject to the allowance, if the month has a counter. */
  note(accountId: string, month: string): Promise<void>;
  forget(accountId: string, months: readonly string[]): Promise<void>;
}

/** The counters in the `quota_counters` table; an account's rows go with its GDPR deletion. */
export function databaseQuotaStore(
  repo: Pick<UsageRepo, 'takeQuota' | 'raiseQuota' | 'noteQuota'>,
): SharedQuotaStore {
  return {
    async take(accountId, month, limit, floor) {
      if (floor !== undefined) await repo.raiseQuota(accountId, month, floor);
      return repo.takeQuota(accountId, month, limit);
    },
    raise: (accountId, month, floor) => repo.raiseQuota(accountId, month, floor),
    note: (accountId, month) => repo.noteQuota(accountId, month),
    async forget() {},
  };
}

const SEP = '\u0000';

interface Reconciled {
  /** When the counter was last raised to the usage tables from here. */
  at: number;
  /** The first raise, which calls wait for. */
  first: Promise<number> | undefined;
}

/**
 * The usage tables could not be read while raising a counter: the database failed, not the shared
 * store. The call fails with it (503 when the database is away), and the store is not given up
 * for this instance's own counter, which would need the same tables.
 */
class UsageReadError extends Error {
  constructor(cause: unknown) {
    super("could not read the month's calls from the usage tables", { cause });
  }
}

/** How long the fallback counts on its own after the shared store failed before it is tried again. */
const RETRY_MS = 1000;

function previousMonth(month: string): string {
  return monthOf(startOfMonthKey(month, -1));
}

/**
 * One count per account and month shared by every instance, so the allowance holds exactly
 * however calls are spread over instances. Each instance raises a counter to what the usage
 * tables hold (written calls plus its own pending ones), never lowering it, before its first call
 * of the account in a month and then every `refreshMs` in the background while the account is
 * active. That brings in what the counter did not see: calls served on a plan without an
 * allowance earlier in the month, calls admitted by the fallback, a counter lost when Redis
 * restarted. Both numbers only ever undercount the calls served, so the larger one never refuses
 * a call the allowance still covers.
 *
 * With `fallback` (Redis), a store that cannot be reached is not an error: the call is decided by
 * this instance's own counter (the single-server counter, loaded from the usage tables) and Redis
 * is tried again after RETRY_MS. The fallback rather than the database counter because it needs
 * no round trip per call while the service is degraded and is exact on each instance; across
 * instances the allowance can then be overshot by what the others admit within about one usage
 * flush, until Redis is back and the counters are raised to the usage tables again. Without
 * `fallback` (the database counter) a failing store fails the call with 503, as the usage tables
 * it would fall back on are in the same database.
 */
export class SharedQuotaCounter implements QuotaCounter {
  private readonly floors = new Map<string, Promise<number>>();
  private readonly reconciled = new Map<string, Reconciled>();
  private static readonly MAX_ACCOUNTS = 100_000;
  private fallback: QuotaCounter | undefined;
  private retryAt = 0;
  private readonly report = logThrottle(10_000);

  constructor(
    private readonly deps: {
      store: SharedQuotaStore;
      repo: Pick<UsageRepo, 'monthlyCallsForAccount'>;
      meter: Pick<UsageMeter, 'pendingForAccount' | 'exclusive'>;
      refreshMs: number;
      /** Builds this instance's own counter while the store cannot be reached. */
      fallback?: () => QuotaCounter;
      log: Pick<Logger, 'warn' | 'info'>;
      now?: () => number;
    },
  ) {}

  take(accountId: string, month: string, limit: number): number | false | Promise<number | false> {
    if (this.fallback !== undefined) {
      if (this.now() < this.retryAt) return this.fallback.take(accountId, month, limit);
      // What the fallback admitted is in the usage tables, not in the shared counters: each is
      // raised to them again before it decides a call.
      this.reconciled.clear();
    }
    return this.takeShared(accountId, month, limit).then(
      (used) => {
        this.recovered();
        return used;
      },
      (err: unknown) => {
        if (this.deps.fallback === undefined || err instanceof UsageReadError) throw err;
        return this.degraded(err).take(accountId, month, limit);
      },
    );
  }

  note(accountId: string, month: string): void {
    if (this.fallback !== undefined) {
      this.fallback.note(accountId, month);
      if (this.now() < this.retryAt) return;
    }
    // A note that does not arrive is brought in by the next raise from the usage tables.
    this.deps.store.note(accountId, month).catch(() => undefined);
  }

  async forgetAccount(accountId: string): Promise<void> {
    this.fallback?.forgetAccount(accountId);
    for (const key of this.reconciled.keys())
      if (key.startsWith(accountId + SEP)) this.reconciled.delete(key);
    const month = monthOf(new Date(this.now()));
    try {
      await this.deps.store.forget(accountId, [month, previousMonth(month)]);
    } catch (err) {
      this.deps.log.warn(
        { err },
        'could not drop the quota counters of a deleted account; they expire a day after their month',
      );
    }
  }

  private async takeShared(accountId: string, month: string, limit: number): Promise<number | false> {
    const key = accountId + SEP + month;
    const nowMs = this.now();
    let state = this.reconciled.get(key);
    if (state === undefined) {
      // The account's first call here this month, or since Redis came back: its counter is raised
      // to the usage tables before it decides (as the single-server counter loads on first use).
      if (this.reconciled.size >= SharedQuotaCounter.MAX_ACCOUNTS) this.reconciled.clear();
      const first = this.floorOf(accountId, month);
      const entry: Reconciled = { at: nowMs, first };
      state = entry;
      this.reconciled.set(key, entry);
      first.then(
        () => {
          entry.first = undefined;
        },
        () => {
          if (this.reconciled.get(key) === entry) this.reconciled.delete(key);
        },
      );
    }
    if (state.first !== undefined) return this.takeFrom(accountId, month, limit, await state.first);
    if (nowMs - state.at >= this.deps.refreshMs) {
      state.at = nowMs;
      void this.floorOf(accountId, month)
        .then((floor) => this.deps.store.raise(accountId, month, floor))
        .catch(() => undefined);
    }
    const taken = await this.deps.store.take(accountId, month, limit);
    if (taken !== undefined) return taken;
    // The counter is gone: Redis restarted without its data.
    return this.takeFrom(accountId, month, limit, await this.floorOf(accountId, month));
  }

  private async takeFrom(
    accountId: string,
    month: string,
    limit: number,
    floor: number,
  ): Promise<number | false> {
    const taken = await this.deps.store.take(accountId, month, limit, floor);
    // Still no counter: the account was deleted meanwhile, and there is nothing left to count.
    return taken ?? floor + 1;
  }

  /**
   * Calls of the month in the usage tables: written ones plus this instance's pending ones, read
   * while no batch is being written (each call counted once). One read per account at a time.
   */
  private floorOf(accountId: string, month: string): Promise<number> {
    const key = accountId + SEP + month;
    let floor = this.floors.get(key);
    if (floor === undefined) {
      floor = this.deps.meter
        .exclusive(
          async () =>
            (await this.deps.repo.monthlyCallsForAccount(accountId, month)) +
            this.deps.meter.pendingForAccount(accountId, month),
        )
        .catch((err: unknown) => {
          throw new UsageReadError(err);
        })
        .finally(() => this.floors.delete(key));
      this.floors.set(key, floor);
    }
    return floor;
  }

  private degraded(err: unknown): QuotaCounter {
    this.retryAt = this.now() + RETRY_MS;
    if (this.fallback === undefined) {
      // A fresh counter loads every account from the usage tables, not from an earlier outage.
      this.fallback = this.deps.fallback!();
      const r = this.report();
      if (r)
        this.deps.log.warn(
          { err, suppressed: r.suppressed },
          'quota counters in Redis cannot be reached; this instance counts calls on its own until they can',
        );
    }
    return this.fallback;
  }

  private recovered(): void {
    if (this.fallback === undefined) return;
    this.fallback = undefined;
    this.deps.log.info('quota counters in Redis are reachable again');
  }

  private now(): number {
    return this.deps.now?.() ?? Date.now();
  }
}

/**
 * The quota counter for this deployment. SQLite is one server: it counts in memory, exact and
 * without a round trip on the hot path. PostgreSQL may have several instances, which share one
 * counter per account and month: in Redis when configured (one round trip; while Redis cannot be
 * reached each instance counts on its own, see SharedQuotaCounter), else in the database.
 */
export function createQuotaCounter(deps: {
  dialect: 'sqlite' | 'postgres';
  repo: Pick<UsageRepo, 'monthlyCallsForAccount' | 'takeQuota' | 'raiseQuota' | 'noteQuota'>;
  meter: Pick<UsageMeter, 'pendingForAccount' | 'exclusive'>;
  refreshMs: number;
  redis?: SharedQuotaStore;
  log: Pick<Logger, 'warn' | 'info'>;
}): QuotaCounter {
  const local = () =>
    new LocalQuotaCounter({ repo: deps.repo, meter: deps.meter, refreshMs: deps.refreshMs });
  if (deps.dialect === 'sqlite') return local();
  return new SharedQuotaCounter({
    store: deps.redis ?? databaseQuotaStore(deps.repo),
    repo: deps.repo,
    meter: deps.meter,
    refreshMs: deps.refreshMs,
    log: deps.log,
    ...(deps.redis ? { fallback: local } : {}),
  });
}
