/**
 * The ledger state hash every verdict reports, kept for a moment in memory: reading the chain
 * head costs a query, and a verdict without `expected_state_hash` only reports the hash.
 * A caller that compares (`fresh: true`) always reads the database, so STATE_DRIFT is exact;
 * writes on this instance refresh the entry at once, writes on others within `ttlMs`.
 */
export function createStateHashCache(
  read: (accountId: string) => Promise<string>,
  options: { ttlMs: number; now?: () => number; maxEntries?: number },
) {
  const now = options.now ?? Date.now;
  const maxEntries = options.maxEntries ?? 10_000;
  const entries = new Map<string, { hash: string; until: number }>();

  return {
    async currentStateHash(accountId: string, opts: { fresh?: boolean } = {}): Promise<string> {
      const hit = entries.get(accountId);
      if (!opts.fresh && hit && hit.until > now()) return hit.hash;
      const hash = await read(accountId);
      if (entries.size >= maxEntries) entries.clear();
      entries.set(accountId, { hash, until: now() + options.ttlMs });
      return hash;
    },
    /** The remembered hash while it is fresh, without reading the database. */
    peek(accountId: string): string | undefined {
      const hit = entries.get(accountId);
      return hit && hit.until > now() ? hit.hash : undefined;
    },
    /** A write on this instance moved the head: remember the new hash. */
    written(accountId: string, hash: string): void {
      entries.set(accountId, { hash, until: now() + options.ttlMs });
    },
  };
}
