import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { logThrottle } from './log-throttle.ts';

/** At most one line per connection per this long while Redis is away. */
const REDIS_LOG_INTERVAL_MS = 10_000;

/**
 * Reports a Redis connection's errors through the service's logger. An ioredis client with no
 * 'error' listener writes "[ioredis] Unhandled error event" to the console on every reconnection
 * attempt (several a second while Redis is down), outside the structured logs. ioredis keeps
 * reconnecting by itself; this says so once every REDIS_LOG_INTERVAL_MS, with how many errors
 * were not logged, and says when the connection is back. Call it right after creating a client.
 */
export function logRedisErrors(
  client: Redis,
  log: Pick<Logger, 'warn'> & Partial<Pick<Logger, 'info'>>,
  role: string,
): void {
  const report = logThrottle(REDIS_LOG_INTERVAL_MS);
  let failing = false;
  client.on('error', (err: Error) => {
    failing = true;
    const r = report();
    if (r)
      log.warn(
        { err, redis: role, suppressed: r.suppressed },
        'Redis connection failed; reconnecting in the background',
      );
  });
  client.on('ready', () => {
    if (!failing) return;
    failing = false;
    log.info?.({ redis: role }, 'Redis connection restored');
  });
}

/**
 * Connects `client`, or, when Redis cannot be reached, says so and carries on: ioredis keeps
 * reconnecting in the background (its 'ready' event says when it is back), and until then the
 * caller runs in the same degraded way as when Redis goes away later. An instance a supervisor
 * starts while Redis is down serves instead of exiting. Whether it is connected now.
 */
export async function connectOrCarryOn(
  client: Redis,
  log: Pick<Logger, 'warn'>,
  role: string,
): Promise<boolean> {
  try {
    await client.connect();
    return true;
  } catch (err) {
    log.warn(
      { err, redis: role },
      'Redis cannot be reached at start; starting without it, reconnecting in the background',
    );
    return false;
  }
}
