import { Redis, type Result } from 'ioredis';
import type { Logger } from 'pino';
import { connectOrCarryOn, logRedisErrors } from '../../lib/redis-errors.ts';
import { startOfMonthKey } from '../../lib/utc-month.ts';
import type { SharedQuotaStore } from './quota-counters.ts';

/**
 * KEYS[1]: the account's counter of the month; ARGV: the allowance, the counter's lifetime in
 * seconds, and a floor or ''. Raises the counter to the floor (creating it) when one is given,
 * then counts one call unless the allowance is used up. Answers {1, count} for an admitted call,
 * {0, count} for a refused one and {-1, 0} when there is no counter and no floor to start it.
 */
const TAKE = `
local used = tonumber(redis.call('GET', KEYS[1]))
local floor = tonumber(ARGV[3])
if floor ~= nil and (used == nil or floor > used) then
  redis.call('SET', KEYS[1], floor, 'EX', ARGV[2])
  used = floor
end
if used == nil then return {-1, 0} end
if used >= tonumber(ARGV[1]) then return {0, used} end
redis.call('INCR', KEYS[1])
return {1, used + 1}
`;

/**
 * KEYS[1]: the counter; ARGV: its lifetime and the floor. Raises it to the floor, never lowers it.
 * A missing counter stays missing: the next call starts it from a floor anyway, and a raise that
 * arrives after a deletion must not bring the deleted account's counter back.
 */
const RAISE = `
local used = tonumber(redis.call('GET', KEYS[1]))
if used ~= nil and tonumber(ARGV[2]) > used then redis.call('SET', KEYS[1], ARGV[2], 'EX', ARGV[1]) end
return 0
`;

/** KEYS[1]: the counter. Counts a call not subject to the allowance, if the month has a counter. */
const NOTE = `
if redis.call('EXISTS', KEYS[1]) == 1 then return redis.call('INCR', KEYS[1]) end
return 0
`;

declare module 'ioredis' {
  interface RedisCommander<Context> {
    quotaTake(key: string, limit: number, ttl: number, floor: string): Result<[number, number], Context>;
    quotaRaise(key: string, ttl: number, floor: number): Result<number, Context>;
    quotaNote(key: string): Result<number, Context>;
  }
}

/**
 * How long an answer may take before the call falls back to this instance's own counter. Long
 * enough that a busy event loop does not mistake a slow reply for an outage (a false alarm costs
 * exactness); a Redis that hangs costs the calls of this one window, since the fallback is then
 * kept for a while before Redis is tried again.
 */
const COMMAND_TIMEOUT_MS = 1000;

/** A day past the end of the counter's month, so instances whose clocks differ a little agree. */
function lifetimeSeconds(month: string, nowMs: number): number {
  const end = startOfMonthKey(month, 1).getTime();
  return Math.max(1, Math.ceil((end - nowMs) / 1000)) + 86_400;
}

/**
 * The quota counters of every instance on one Redis, one key per account and month, each
 * admission one script run (atomic in Redis). Commands fail at once while the connection is down
 * (no offline queue), so the caller can fall back instead of waiting.
 */
export async function createRedisQuotaStore(
  url: string,
  log: Pick<Logger, 'warn'> & Partial<Pick<Logger, 'info'>>,
): Promise<SharedQuotaStore & { close(): Promise<void> }> {
  const redis = new Redis(url, {
    lazyConnect: true,
    maxRetriesPerRequest: 1,
    enableOfflineQueue: false,
    commandTimeout: COMMAND_TIMEOUT_MS,
  });
  logRedisErrors(redis, log, 'quota');
  redis.defineCommand('quotaTake', { numberOfKeys: 1, lua: TAKE });
  redis.defineCommand('quotaRaise', { numberOfKeys: 1, lua: RAISE });
  redis.defineCommand('quotaNote', { numberOfKeys: 1, lua: NOTE });
  await connectOrCarryOn(redis, log, 'quota');
  const keyOf = (accountId: string, month: string) => `arbiter:quota:${accountId}:${month}`;
  return {
    async take(accountId, month, limit, floor) {
      const [admitted, used] = await redis.quotaTake(
        keyOf(accountId, month),
        limit,
        lifetimeSeconds(month, Date.now()),
        floor === undefined ? '' : String(floor),
      );
      if (admitted < 0) return undefined;
      return admitted === 1 ? used : false;
    },
    async raise(accountId, month, floor) {
      await redis.quotaRaise(keyOf(accountId, month), lifetimeSeconds(month, Date.now()), floor);
    },
    async note(accountId, month) {
      await redis.quotaNote(keyOf(accountId, month));
    },
    async forget(accountId, months) {
      await redis.del(...months.map((month) => keyOf(accountId, month)));
    },
    async close() {
      redis.disconnect();
    },
  };
}
