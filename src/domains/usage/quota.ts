import { nextMonthStart } from '../../lib/utc-month.ts';
import type { UsageMeter } from './meter.ts';
import { dayOfMs } from './periods.ts';
import type { UsageRepo } from './repo.ts';

export interface QuotaDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the allowance renews (the next calendar month, UTC). */
  resetSeconds: number;
}

/** Seconds from `ms` to the first instant of the next UTC month. */
export function secondsToNextMonth(ms: number): number {
  const next = nextMonthStart(new Date(ms)).getTime();
  return Math.max(1, Math.ceil((next - ms) / 1000));
}

/**
 * Where an account's calls of a month (`YYYY-MM`, UTC) are counted against its allowance.
 * `take` counts one call unless `limit` calls are counted already, and answers the month's count
 * including that call, or `false` when the allowance is used up (the call is then not counted).
 * It answers synchronously where it can: the single-server path allocates no promise.
 */
export interface QuotaCounter {
  take(accountId: string, month: string, limit: number): number | false | Promise<number | false>;
  /** Counts a call that is not subject to the allowance (billing routes), so the count stays exact. */
  note(accountId: string, month: string): void;
  forgetAccount(accountId: string): void | Promise<void>;
}

/**
 * The monthly call allowance of plans that have one: the plan's limit, asked of a `QuotaCounter`
 * (in memory on one server, shared by every instance otherwise; see `createQuotaCounter`).
 */
export class QuotaGuard {
  constructor(
    private readonly deps: {
      allowanceOf: (plan: string) => number | null | undefined;
      counter: QuotaCounter;
      now?: () => number;
    },
  ) {}

  /**
   * Decides and counts one call. Undefined for plans without an allowance (the hot path for paid
   * plans is one map lookup).
   */
  admit(accountId: string, plan: string): QuotaDecision | undefined | Promise<QuotaDecision> {
    const limit = this.deps.allowanceOf(plan);
    if (limit === null || limit === undefined) return undefined;
    const nowMs = this.deps.now?.() ?? Date.now();
    const taken = this.deps.counter.take(accountId, dayOfMs(nowMs).slice(0, 7), limit);
    if (taken instanceof Promise) return taken.then((used) => decision(used, limit, nowMs));
    return decision(taken, limit, nowMs);
  }

  /** Counts a call that is not subject to the allowance (billing routes), so the count stays exact. */
  note(accountId: string): void {
    this.deps.counter.note(accountId, dayOfMs(this.deps.now?.() ?? Date.now()).slice(0, 7));
  }

  forgetAccount(accountId: string): void | Promise<void> {
    return this.deps.counter.forgetAccount(accountId);
  }
}

function decision(used: number | false, limit: number, nowMs: number): QuotaDecision {
  const resetSeconds = secondsToNextMonth(nowMs);
  if (used === false) return { allowed: false, limit, remaining: 0, resetSeconds };
  return { allowed: true, limit, remaining: Math.max(0, limit - used), resetSeconds };
}

interface AccountState {
  month: string;
  /** Calls of the month: written ones plus pending ones plus admitted since the last reconciliation. */
  used: number;
  ready: boolean;
  loading: Promise<void> | undefined;
  refreshedAt: number;
}

/**
 * Counts in this process's memory: every admission is decided and counted synchronously, so one
 * server is exact under any concurrency. The count is reconciled with the database (written calls
 * + this instance's pending ones, read while no batch is being written) on first use and then
 * every `refreshMs` in the background, which is how calls served by other instances would arrive:
 * across instances the allowance can be overshot by what the others served within about one
 * flush plus one refresh. The counter of SQLite (one server), and the fallback of the shared
 * counter while Redis cannot be reached.
 */
export class LocalQuotaCounter implements QuotaCounter {
  private readonly states = new Map<string, AccountState>();
  private static readonly MAX_ACCOUNTS = 100_000;

  constructor(
    private readonly deps: {
      repo: Pick<UsageRepo, 'monthlyCallsForAccount'>;
      meter: Pick<UsageMeter, 'pendingForAccount' | 'exclusive'>;
      refreshMs: number;
      now?: () => number;
    },
  ) {}

  /** A promise only the first time an account is seen in a month. */
  take(accountId: string, month: string, limit: number): number | false | Promise<number | false> {
    const state = this.stateFor(accountId, month);
    if (!state.ready) return this.load(accountId, state).then(() => this.count(state, limit));
    const nowMs = this.deps.now?.() ?? Date.now();
    if (nowMs - state.refreshedAt >= this.deps.refreshMs && state.loading === undefined) {
      void this.load(accountId, state).catch(() => undefined);
    }
    return this.count(state, limit);
  }

  note(accountId: string, month: string): void {
    const state = this.states.get(accountId);
    if (state?.ready && state.month === month) state.used += 1;
  }

  forgetAccount(accountId: string): void {
    this.states.delete(accountId);
  }

  private count(state: AccountState, limit: number): number | false {
    if (state.used >= limit) return false;
    state.used += 1;
    return state.used;
  }

  private stateFor(accountId: string, month: string): AccountState {
    let state = this.states.get(accountId);
    if (state === undefined || state.month !== month) {
      if (this.states.size >= LocalQuotaCounter.MAX_ACCOUNTS) this.states.clear();
      state = { month, used: 0, ready: false, loading: undefined, refreshedAt: 0 };
      this.states.set(accountId, state);
    }
    return state;
  }

  private load(accountId: string, state: AccountState): Promise<void> {
    state.loading ??= this.deps.meter
      .exclusive(async () => {
        const written = await this.deps.repo.monthlyCallsForAccount(accountId, state.month);
        // Synchronous from here: calls admitted during the read are in the meter's pending counts.
        state.used = written + this.deps.meter.pendingForAccount(accountId, state.month);
        state.ready = true;
        state.refreshedAt = this.deps.now?.() ?? Date.now();
      })
      .finally(() => {
        state.loading = undefined;
      });
    return state.loading;
  }
}
