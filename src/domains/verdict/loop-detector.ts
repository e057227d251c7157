import { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { connectOrCarryOn } from '../../lib/redis-errors.ts';
import { sha256 } from '../../lib/sha256.ts';

/**
 * Counts identical failing calls. `hit` records one more failure of `fingerprint` and returns how
 * many happened in a row without a pause of `windowMs`: each failure pushes the window's end out,
 * so a looping agent stays refused until it stops repeating the call for a whole window.
 */
export interface LoopStore {
  hit(fingerprint: string, windowMs: number): Promise<number>;
  close(): Promise<void>;
}

/** DESIGN "Loop detection": account + action + canonical payload (already canonical JSON). */
export function loopFingerprint(accountId: string, action: string, canonicalPayload: string): string {
  return `${accountId}:${sha256(`${JSON.stringify(action)}\n${canonicalPayload}`, 'base64url')}`;
}

/** One instance: a bounded map of counters. */
export class MemoryLoopStore implements LoopStore {
  private readonly counters = new Map<string, { count: number; expiresAt: number }>();

  constructor(
    private readonly maxEntries = 100_000,
    private readonly now: () => number = Date.now,
  ) {}

  async hit(fingerprint: string, windowMs: number): Promise<number> {
    const now = this.now();
    const current = this.counters.get(fingerprint);
    const count = current !== undefined && current.expiresAt > now ? current.count + 1 : 1;
    // Re-inserting keeps the map ordered by last failure, so eviction drops the coldest loop.
    this.counters.delete(fingerprint);
    this.counters.set(fingerprint, { count, expiresAt: now + windowMs });
    if (this.counters.size > this.maxEntries) this.evict(now);
    return count;
  }

  private evict(now: number): void {
    for (const [key, entry] of this.counters) if (entry.expiresAt <= now) this.counters.delete(key);
    while (this.counters.size > this.maxEntries) {
      const oldest = this.counters.keys().next().value;
      if (oldest === undefined) break;
      this.counters.delete(oldest);
    }
  }

  async close(): Promise<void> {
    this.counters.clear();
  }
}

/**
 * Shared by every instance on one Redis. One round trip per failing verdict: INCR and PEXPIRE in
 * a MULTI, so a counter can never be left without its expiry. While Redis cannot be reached,
 * each instance counts on its own (`local`) rather than turning verdicts into errors or letting
 * a loop through: a loop that keeps hitting one instance is still refused.
 */
export async function createRedisLoopStore(url: string, log: Pick<Logger, 'warn'>): Promise<LoopStore> {
  const redis = new Redis(url, {
    lazyConnect: true,
    maxRetriesPerRequest: 1,
    enableOfflineQueue: false,
    commandTimeout: 250,
  });
  redis.on('error', () => undefined);
  await connectOrCarryOn(redis, log, 'loop detection');
  const local = new MemoryLoopStore();
  let lastWarning = 0;
  return {
    async hit(fingerprint, windowMs) {
      const key = `arbiter:loop:${fingerprint}`;
      try {
        const replies = await redis.multi().incr(key).pexpire(key, windowMs).exec();
        const [err, count] = replies?.[0] ?? [new Error('empty reply'), 0];
        if (err) throw err;
        return Number(count);
      } catch (err) {
        if (Date.now() - lastWarning > 10_000) {
          lastWarning = Date.now();
          log.warn(
            { err },
            'loop detection could not reach Redis; this instance counts loops on its own meanwhile',
          );
        }
        return local.hit(fingerprint, windowMs);
      }
    },
    async close() {
      redis.disconnect();
      await local.close();
    },
  };
}
