import { randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTcpProxy, type TcpProxy } from '../../scripts/lib/tcp-proxy.ts';
import { KeyCache } from '../../src/domains/api-keys/key-cache.ts';
import { createRedisRevocationBus } from '../../src/domains/api-keys/revocation-bus.ts';
import { createLogger } from '../../src/logger.ts';
import { TEST_REDIS_URL } from '../helpers/databases.ts';

type Bus = Awaited<ReturnType<typeof createRedisRevocationBus>>;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until(condition: () => boolean, limitMs: number): Promise<void> {
  const start = performance.now();
  while (!condition()) {
    if (performance.now() - start > limitMs) throw new Error('timed out');
    await sleep(20);
  }
}

/**
 * Redis going away under the key-revocation bus: ioredis reconnects several times a second, and
 * without an 'error' listener each attempt wrote "[ioredis] Unhandled error event" to the console.
 * Its errors go through the service's logger instead, a line per connection per 10 s, and the bus
 * delivers again once Redis is back.
 */
describe.runIf(TEST_REDIS_URL)('Redis going away under the revocation bus', () => {
  let proxy: TcpProxy;
  let sender: Bus;
  let receiver: Bus;
  const cache = new KeyCache(60_000);
  let logText = '';
  const logger = createLogger(
    'info',
    new Writable({
      write(chunk, _enc, done) {
        logText += chunk.toString();
        done();
      },
    }),
  );
  const lines = () =>
    logText
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { level: number; msg: string; redis?: string; suppressed?: number });

  beforeAll(async () => {
    const direct = new URL(TEST_REDIS_URL!);
    proxy = await startTcpProxy({ host: direct.hostname, port: Number(direct.port || 6379) });
    const proxied = new URL(direct);
    proxied.port = String(proxy.port);
    sender = await createRedisRevocationBus(TEST_REDIS_URL!, new KeyCache(60_000), logger);
    receiver = await createRedisRevocationBus(proxied.toString(), cache, logger);
  });
  afterAll(async () => {
    await sender?.close();
    await receiver?.close();
    await proxy?.close();
  });

  it('logs through the logger, throttled, not on the console, and delivers again once Redis is back', async () => {
    const consoleError = vi.spyOn(console, 'error');
    try {
      await proxy.cut();
      await sleep(3000);
      const raw = consoleError.mock.calls.filter((args) => String(args[0]).includes('[ioredis]'));
      expect(raw).toEqual([]);
      const failures = lines().filter((l) => l.msg.startsWith('Redis connection failed'));
      // One line per connection (publisher, subscriber) in 3 s, however often ioredis retried.
      expect(failures.map((l) => l.redis).sort()).toEqual([
        'revocations publisher',
        'revocations subscriber',
      ]);
      expect(failures.every((l) => l.level === 40)).toBe(true);

      await proxy.restore();
      await until(() => lines().filter((l) => l.msg === 'Redis connection restored').length >= 2, 5000);

      // The subscriber subscribes again a moment after it reconnects (a revocation announced in
      // between is missed, as while Redis was away, and the key cache lifetime bounds that): a
      // revocation announced elsewhere reaches this cache again within 10 s.
      const delivered = async (): Promise<boolean> => {
        const keyId = randomUUID();
        cache.set(`hash-${keyId}`, { keyId, accountId: randomUUID(), plan: 'developer', role: 'agent' });
        expect(cache.get(`hash-${keyId}`)).toBeDefined();
        await sender.publishKey(keyId);
        try {
          await until(() => cache.get(`hash-${keyId}`) === undefined, 250);
          return true;
        } catch {
          return false;
        }
      };
      const back = performance.now();
      while (!(await delivered())) {
        if (performance.now() - back > 10_000) throw new Error('no revocation delivered within 10 s');
      }
    } finally {
      consoleError.mockRestore();
    }
  }, 30_000);
});
