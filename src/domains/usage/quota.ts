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

interface AccountState {
  month: string;
  /** Calls of the month: written ones plus pending ones plus admitted since the last reconciliation. */
  used: number;
  ready: boolean;
  loading: Promise<void> | undefined;
  refreshedAt: number;
}

/** Seconds from `ms` to the first instant of the next UTC month. */
export function secondsToNextMonth(ms: number): number {
  const d = new Date(ms);
  const next = Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1);
  return Math.max(1, Math.ceil((next - ms) / 1000));
}

/**
 * The monthly call allowance of plans that have one. Each account's count lives in memory and
 * every admission is decided and counted synchronously, so one instance is exact under any
 * concurrency. The count is reconciled with the database (written calls + this instance's pending
 * ones, read while no batch is being written) on first use and then every `refreshMs` in the
 * background, which is how calls served by other instances arrive: across instances the
 * allowance can be overshot by what the others served within about one flush plus one refresh.
 */
export class QuotaGuard {
  private readonly states = new Map<string, AccountState>();
  private static readonly MAX_ACCOUNTS = 100_000;

  constructor(
    private readonly deps: {
      allowanceOf: (plan: string) => number | null | undefined;
      repo: Pick<UsageRepo, 'monthlyCallsForAccount'>;
      meter: Pick<UsageMeter, 'pendingForAccount' | 'exclusive'>;
      refreshMs: number;
      now?: () => number;
    },
  ) {}

  /**
   * Decides and counts one call. Undefined for plans without an allowance (the hot path for paid
   * plans is one map lookup); a promise only the first time an account is seen in a month.
   */
  admit(accountId: string, plan: string): QuotaDecision | undefined | Promise<QuotaDecision> {
    const limit = this.deps.allowanceOf(plan);
    if (limit === null || limit === undefined) return undefined;
    const nowMs = this.deps.now?.() ?? Date.now();
    const state = this.stateFor(accountId, nowMs);
    if (!state.ready) return this.load(accountId, state).then(() => this.decide(state, limit, nowMs));
    if (nowMs - state.refreshedAt >= this.deps.refreshMs && state.loading === undefined) {
      void this.load(accountId, state).catch(() => undefined);
    }
    return this.decide(state, limit, nowMs);
  }

  /** Counts a call that is not subject to the allowance (billing routes), so the count stays exact. */
  note(accountId: string): void {
    const state = this.states.get(accountId);
    if (state?.ready) state.used += 1;
  }

  forgetAccount(accountId: string): void {
    this.states.delete(accountId);
  }

  private decide(state: AccountState, limit: number, nowMs: number): QuotaDecision {
    const resetSeconds = secondsToNextMonth(nowMs);
    if (state.used >= limit) return { allowed: false, limit, remaining: 0, resetSeconds };
    state.used += 1;
    return { allowed: true, limit, remaining: limit - state.used, resetSeconds };
  }

  private stateFor(accountId: string, nowMs: number): AccountState {
    const month = dayOfMs(nowMs).slice(0, 7);
    let state = this.states.get(accountId);
    if (state === undefined || state.month !== month) {
      if (this.states.size >= QuotaGuard.MAX_ACCOUNTS) this.states.clear();
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
