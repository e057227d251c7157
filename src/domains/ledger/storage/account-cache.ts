/**
 * Accounts' vectors held in this process (the in-process scans), bounded in accounts and in bytes:
 * the least recently used accounts go first. An account is measured each time it is stored, as
 * the scans store it again after every refresh. The account just stored always stays, even alone
 * over the byte limit, since the query at hand needs it.
 */
export class AccountCache<T> {
  private readonly entries = new Map<string, { value: T; bytes: number }>();
  private total = 0;

  constructor(
    private readonly sizeOf: (value: T) => number,
    private readonly limits: { maxAccounts: number; maxBytes: number },
  ) {}

  /** The account's entry, now the most recently used. */
  get(accountId: string): T | undefined {
    const entry = this.entries.get(accountId);
    if (entry === undefined) return undefined;
    this.entries.delete(accountId);
    this.entries.set(accountId, entry);
    return entry.value;
  }

  set(accountId: string, value: T): void {
    this.delete(accountId);
    const bytes = this.sizeOf(value);
    this.entries.set(accountId, { value, bytes });
    this.total += bytes;
    for (const [oldest, entry] of this.entries) {
      if (oldest === accountId) break;
      if (this.entries.size <= this.limits.maxAccounts && this.total <= this.limits.maxBytes) break;
      this.entries.delete(oldest);
      this.total -= entry.bytes;
    }
  }

  delete(accountId: string): void {
    const entry = this.entries.get(accountId);
    if (entry === undefined) return;
    this.entries.delete(accountId);
    this.total -= entry.bytes;
  }

  clear(): void {
    this.entries.clear();
    this.total = 0;
  }

  /** What the held accounts measured when stored. */
  get heldBytes(): number {
    return this.total;
  }

  get size(): number {
    return this.entries.size;
  }
}

/** Accounts a scan keeps at most, and the bytes of vectors (`ARBITER_VECTOR_CACHE_MB`). */
export const DEFAULT_CACHE_LIMITS = { maxAccounts: 64, maxBytes: 512 * 1024 * 1024 };
