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
 * Writes on this instance call `invalidate`, which applies them at once.
 */
export class PolicyCache {
  private readonly entries = new Map<string, Entry>();
  private readonly loading = new Map<string, Promise<AccountPolicy>>();
  private readonly generation = new Map<string, number>();
  private static readonly MAX_ACCOUNTS = 50_000;

  constructor(
    private readonly load: (accountId: string) => Promise<AccountPolicy>,
    private readonly maxAgeMs = 1000,
    private readonly refreshAfterMs = Math.floor(maxAgeMs / 2),
    private readonly now: () => number = performance.now.bind(performance),
    private readonly onBackgroundError: (err: unknown) => void = () => undefined,
  ) {}

  get(accountId: string): AccountPolicy | Promise<AccountPolicy> {
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

  private reload(accountId: string): Promise<AccountPolicy> {
    const inFlight = this.loading.get(accountId);
    if (inFlight !== undefined) return inFlight;
    const startedAt = this.now();
    const generation = this.generation.get(accountId) ?? 0;
    const promise = this.load(accountId).then(
      (policy) => {
        // A write on this instance during the load may not be in what was read: keep it out.
        if ((this.generation.get(accountId) ?? 0) === generation) {
          if (this.entries.size >= PolicyCache.MAX_ACCOUNTS) this.entries.clear();
          this.entries.set(accountId, { policy, loadedAt: startedAt });
        }
        if (this.loading.get(accountId) === promise) this.loading.delete(accountId);
        return policy;
      },
      (err: unknown) => {
        if (this.loading.get(accountId) === promise) this.loading.delete(accountId);
        throw err;
      },
    );
    this.loading.set(accountId, promise);
    return promise;
  }
}
