import { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { connectOrCarryOn, logRedisErrors } from '../../lib/redis-errors.ts';
import type { KeyCache } from './key-cache.ts';
import type { RevocationBus } from './service.ts';

const CHANNEL = 'arbiter:revocations';

/**
 * Announces revocations to every instance on the same Redis so their key caches drop the key at
 * once. Without Redis (gone away, or not there yet at start) the cache lifetime (≤ 1 s) bounds
 * the delay instead.
 */
export async function createRedisRevocationBus(
  url: string,
  cache: KeyCache,
  log: Pick<Logger, 'warn'> & Partial<Pick<Logger, 'info'>>,
): Promise<RevocationBus & { close(): Promise<void> }> {
  const publisher = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 2 });
  const subscriber = new Redis(url, { lazyConnect: true });
  logRedisErrors(publisher, log, 'revocations publisher');
  logRedisErrors(subscriber, log, 'revocations subscriber');
  // Subscribed on every (re)connection, also one that comes after a start without Redis
  // (subscribing twice is harmless).
  const subscribe = () =>
    subscriber.subscribe(CHANNEL).catch((err: unknown) => {
      log.warn(
        { err },
        'could not subscribe to revocations; other instances will see them within the key cache lifetime',
      );
    });
  subscriber.on('ready', () => void subscribe());
  const [, connected] = await Promise.all([
    connectOrCarryOn(publisher, log, 'revocations publisher'),
    connectOrCarryOn(subscriber, log, 'revocations subscriber'),
  ]);
  if (connected) await subscribe();
  subscriber.on('message', (_channel: string, message: string) => {
    const [kind, id] = message.split(':', 2);
    if (!id) return;
    if (kind === 'key') cache.forgetKey(id);
    else if (kind === 'account') cache.forgetAccount(id);
  });
  const publish = async (message: string) => {
    try {
      await publisher.publish(CHANNEL, message);
    } catch (err) {
      log.warn(
        { err },
        'could not announce a revocation; other instances will see it within the key cache lifetime',
      );
    }
  };
  return {
    publishKey: (keyId) => publish(`key:${keyId}`),
    publishAccount: (accountId) => publish(`account:${accountId}`),
    async close() {
      subscriber.disconnect();
      publisher.disconnect();
    },
  };
}
