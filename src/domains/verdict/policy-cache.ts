import type { AccountPolicy } from './policy.ts';

interface Entry {
  policy: AccountPolicy;
  /** When the load that produced this entry started: staleness counts from there. */
  loadedAt: number;
}

/**
 * Account policies kept in memory, read on every verdict. An entry is served for at most
 * `maxAgeMs` (≤ 1 s) after its load began, so a change written by another instance sharing the
 * database applies here within that time. Past `refreshAfterMs` a request still gets the cached
 * entry and starts a reload in the background, so steady traffic never waits on the database.
 * Writes on this instance call `invalidate`, which applies them at once; a `PolicyChangeBus`
 * calls it for writes on other instances. While the bus cannot deliver (its connection is down)
 * the cache is `suspend`ed: every request reads the database, so no change can be missed.
 */
export class PolicyCache {
  private readonly entries = new Map<string, Entry>();
  private readonly loading = new Map<string, { promise: Promise<AccountPolicy>; startedAt: number }>();
  private readonly generation = new Map<string, number>();
  /** Bumped by `clear`: loads begun before it are not kept. */
  private epoch = 0;
  private suspended = false;
  private static readonly MAX_ACCOUNTS = 50_000;

  constructor(
    private readonly load: (accountId: string) => Promise<AccountPolicy>,
    private readonly maxAgeMs = 1000,
    private readonly refreshAfterMs = Math.floor(maxAgeMs / 2),
    private readonly now: () => number = performance.now.bind(performance),
    private readonly onBackgroundError: (err: unknown) => void = () => undefined,
  ) {}

  get(accountId: string): AccountPolicy | Promise<AccountPolicy> {
    if (this.suspended) return this.load(accountId);
    const entry = this.entries.get(accountId);
    if (entry !== undefined) {
      const age = this.now() - entry.loadedAt;
      if (age < this.refreshAfterMs) return entry.policy;
      if (age < this.maxAgeMs) {
        if (!this.loading.has(accountId)) this.reload(accountId).catch(this.onBackgroundError);
        return entry.policy;
      }
    }
    return this.reload(accountId);
  }

  invalidate(accountId: string): void {
    this.entries.delete(accountId);
    this.loading.delete(accountId);
    this.generation.set(accountId, (this.generation.get(accountId) ?? 0) + 1);
  }

  /** Forgets every account, and loads in flight too (the bus reconnected: anything may have changed). */
  clear(): void {
    this.entries.clear();
    this.loading.clear();
    this.epoch++;
  }

  /** Serve nothing from memory until `resume`. */
  suspend(): void {
    this.suspended = true;
    this.clear();
  }

  resume(): void {
    this.clear();
    this.suspended = false;
  }

  private reload(accountId: string): Promise<AccountPolicy> {
    const inFlight = this.loading.get(accountId);
    // A load begun longer than `maxAgeMs` ago may have read what a writer has since been told is
    // gone from every cache (PolicyChangeBus waits that long for an instance that does not answer).
    if (inFlight !== undefined && this.now() - inFlight.startedAt < this.maxAgeMs) return inFlight.promise;
    const startedAt = this.now();
    const generation = this.generation.get(accountId) ?? 0;
    const epoch = this.epoch;
    const promise: Promise<AccountPolicy> = this.load(accountId).then(
      (policy) => {
        // A write on this instance during the load may not be in what was read: keep it out.
        if ((this.generation.get(accountId) ?? 0) === generation && this.epoch === epoch) {
          if (this.entries.size >= PolicyCache.MAX_ACCOUNTS) this.entries.clear();
          this.entries.set(accountId, { policy, loadedAt: startedAt });
        }
        if (this.loading.get(accountId)?.promise === promise) this.loading.delete(accountId);
        return policy;
      },
      (err: unknown) => {
        if (this.loading.get(accountId)?.promise === promise) this.loading.delete(accountId);
        throw err;
      },
    );
    this.loading.set(accountId, { promise, startedAt });
    return promise;
  }
}
