import type { Principal } from './principal.ts';

interface Entry {
  principal: Principal;
  expiresAt: number;
}

/**
 * Verified keys kept in memory for a short time so that the hot path does not wait on the
 * database. An entry lives at most `ttlMs` (≤ 1 s), which bounds how long a key revoked on
 * another instance can still pass here; revocations on this instance, or announced through
 * Redis, drop the entry at once.
 */
export class KeyCache {
  private readonly byHash = new Map<string, Entry>();
  private readonly hashByKeyId = new Map<string, string>();
  private static readonly MAX_ENTRIES = 100_000;

  constructor(
    private readonly ttlMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  get(keyHash: string): Principal | undefined {
    const entry = this.byHash.get(keyHash);
    if (!entry) return undefined;
    if (entry.expiresAt <= this.now()) {
      this.byHash.delete(keyHash);
      this.hashByKeyId.delete(entry.principal.keyId);
      return undefined;
    }
    return entry.principal;
  }

  set(keyHash: string, principal: Principal): void {
    if (this.ttlMs === 0) return;
    if (this.byHash.size >= KeyCache.MAX_ENTRIES) this.clear();
    this.byHash.set(keyHash, { principal, expiresAt: this.now() + this.ttlMs });
    this.hashByKeyId.set(principal.keyId, keyHash);
  }

  forgetKey(keyId: string): void {
    const hash = this.hashByKeyId.get(keyId);
    if (hash !== undefined) this.byHash.delete(hash);
    this.hashByKeyId.delete(keyId);
  }

  forgetAccount(accountId: string): void {
    for (const [hash, entry] of this.byHash) {
      if (entry.principal.accountId === accountId) {
        this.byHash.delete(hash);
        this.hashByKeyId.delete(entry.principal.keyId);
      }
    }
  }

  clear(): void {
    this.byHash.clear();
    this.hashByKeyId.clear();
  }
}
