import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTcpProxy, type TcpProxy } from '../../scripts/lib/tcp-proxy.ts';
import { createRedisLoopStore, type LoopStore } from '../../src/domains/verdict/loop-detector.ts';
import { createLogger } from '../../src/logger.ts';
import { TEST_REDIS_URL } from '../helpers/databases.ts';

/**
 * Redis going away under loop detection: each instance counts on its own meanwhile, so a failing
 * call repeated on one instance is still refused (it used to count 0 and let every loop through),
 * and counts are shared through Redis again once it is back.
 */
describe.runIf(TEST_REDIS_URL)('Redis going away under loop detection', () => {
  let proxy: TcpProxy;
  let store: LoopStore;

  beforeAll(async () => {
    const direct = new URL(TEST_REDIS_URL!);
    proxy = await startTcpProxy({ host: direct.hostname, port: Number(direct.port || 6379) });
    const proxied = new URL(direct);
    proxied.port = String(proxy.port);
    store = await createRedisLoopStore(proxied.toString(), createLogger('silent'));
  });
  afterAll(async () => {
    await store?.close();
    await proxy?.close();
  });

  it('counts locally while Redis is down and through Redis once it is back', async () => {
    // Counted 40 times in Redis: higher than any local count this test can reach.
    const shared = `account:${randomUUID()}`;
    for (let i = 1; i <= 40; i++) expect(await store.hit(shared, 60_000)).toBe(i);

    await proxy.cut();
    const local = `account:${randomUUID()}`;
    const counts: number[] = [];
    for (let i = 0; i < 4; i++) counts.push(await store.hit(local, 60_000));
    expect(counts).toEqual([1, 2, 3, 4]);

    await proxy.restore();
    // ioredis reconnects by itself; until it has, the call is counted locally (from 1).
    let count = 0;
    for (let polls = 0; polls < 30 && count <= 40; polls++) {
      count = await store.hit(shared, 60_000);
      if (count <= 40) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(count).toBeGreaterThan(40);
  });
});
