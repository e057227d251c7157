import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTcpProxy, type TcpProxy } from '../../scripts/lib/tcp-proxy.ts';
import { bearer, createTestApp, type TestApp } from '../helpers/app.ts';
import { freshDatabase, TEST_DATABASE_URL, TEST_REDIS_URL, type TestDatabase } from '../helpers/databases.ts';
import { plansFileWithAllowance } from '../helpers/plans.ts';

const ALLOWANCE = 150;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Redis going away under the shared quota counters of two instances: calls are still decided
 * (each instance counts on its own, from the usage tables), never answered with a 5xx, and once
 * Redis is back the shared counter is raised to the calls the instances served meanwhile, so the
 * allowance holds again.
 */
describe.runIf(TEST_DATABASE_URL && TEST_REDIS_URL)('Redis going away under the quota counters', () => {
  let database: TestDatabase;
  let proxy: TcpProxy;
  let direct: Redis;
  let a: TestApp;
  let b: TestApp;
  beforeAll(async () => {
    database = await freshDatabase('postgres');
    const target = new URL(TEST_REDIS_URL!);
    proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 6379) });
    const proxied = new URL(target);
    proxied.port = String(proxy.port);
    const env = { ARBITER_PLANS_FILE: plansFileWithAllowance(ALLOWANCE), REDIS_URL: proxied.toString() };
    a = await createTestApp('postgres', { database, env });
    b = await createTestApp('postgres', { database, env });
    direct = new Redis(TEST_REDIS_URL!);
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    direct?.disconnect();
    await proxy?.close();
    await database?.drop();
  });

  it('decides every call without a 5xx while Redis is away, and holds the allowance once it is back', async () => {
    const created = await a.container.services.accounts.create({
      email: `quota-outage-${Date.now()}@example.com`,
      name: 'Quota outage',
      plan: 'free',
    });
    const { key } = created.key;
    const counterKey = `arbiter:quota:${created.account.id}:${new Date().toISOString().slice(0, 7)}`;
    const whoami = (t: TestApp) => t.app.inject({ method: 'GET', url: '/v1/whoami', headers: bearer(key) });
    const burst = async (n: number) =>
      (await Promise.all(Array.from({ length: n }, (_, i) => whoami(i % 2 === 0 ? a : b)))).map(
        (r) => r.statusCode,
      );

    expect(await burst(100)).toEqual(Array(100).fill(200));
    expect(await direct.get(counterKey)).toBe('100');
    await a.container.meter.flush();
    await b.container.meter.flush();

    await proxy.cut();
    const during = await burst(100);
    expect(during.filter((s) => s !== 200 && s !== 429)).toEqual([]);
    // Each instance starts from the 100 calls written and serves the 50 left at least once.
    expect(during.filter((s) => s === 200).length).toBeGreaterThanOrEqual(ALLOWANCE - 100);
    expect(a.logs()).toContain('quota counters in Redis cannot be reached');
    expect(await direct.get(counterKey)).toBe('100');

    await a.container.meter.flush();
    await b.container.meter.flush();
    await proxy.restore();
    // Both instances find Redis again (it is retried a second after a failure).
    const start = performance.now();
    const after: number[] = [];
    while (
      !(a.logs().includes('reachable again') && b.logs().includes('reachable again')) &&
      performance.now() - start < 10_000
    ) {
      after.push(...(await burst(2)));
      await sleep(100);
    }
    expect(a.logs()).toContain('quota counters in Redis are reachable again');
    expect(b.logs()).toContain('quota counters in Redis are reachable again');
    after.push(...(await burst(20)));
    // The counter left at 100 by the outage was raised to what the instances served meanwhile.
    expect(after.filter((s) => s !== 429)).toEqual([]);
    expect(Number(await direct.get(counterKey))).toBeGreaterThanOrEqual(ALLOWANCE);
  }, 30_000);
});

/**
 * The other way round: Redis is up and PostgreSQL is not. When an account's counter must be
 * raised to the usage tables (here: Redis lost it), that read fails on the database. The call
 * answers 503, and Redis is not reported unreachable nor traded for this instance's own counter.
 */
describe.runIf(TEST_DATABASE_URL && TEST_REDIS_URL)(
  'PostgreSQL going away under the Redis quota counters',
  () => {
    let database: TestDatabase;
    let proxy: TcpProxy;
    let direct: Redis;
    let app: TestApp;
    beforeAll(async () => {
      database = await freshDatabase('postgres');
      if (database.database.kind !== 'postgres') throw new Error('a PostgreSQL database was expected');
      const target = new URL(database.database.url);
      proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
      const proxied = new URL(target);
      proxied.port = String(proxy.port);
      app = await createTestApp('postgres', {
        database,
        env: {
          ARBITER_PLANS_FILE: plansFileWithAllowance(ALLOWANCE),
          REDIS_URL: TEST_REDIS_URL!,
          DATABASE_URL: proxied.toString(),
          // Long enough that the key is still known when the database is gone.
          ARBITER_KEY_CACHE_MS: '1000',
        },
      });
      direct = new Redis(TEST_REDIS_URL!);
    });
    afterAll(async () => {
      await proxy?.restore();
      await app?.close();
      direct?.disconnect();
      await proxy?.close();
      await database?.drop();
    });

    it('answers 503 and keeps the shared counter', async () => {
      const created = await app.container.services.accounts.create({
        email: `quota-db-outage-${Date.now()}@example.com`,
        name: 'Quota database outage',
        plan: 'free',
      });
      const { key } = created.key;
      const counterKey = `arbiter:quota:${created.account.id}:${new Date().toISOString().slice(0, 7)}`;
      const whoami = () => app.app.inject({ method: 'GET', url: '/v1/whoami', headers: bearer(key) });

      expect((await whoami()).statusCode).toBe(200);
      expect(await direct.get(counterKey)).toBe('1');
      // The key is in the cache now; the database goes, and Redis loses the counter.
      await proxy.cut();
      await direct.del(counterKey);
      const during = await whoami();
      expect(during.statusCode).toBe(503);
      expect(during.headers['retry-after']).toBeDefined();
      expect(app.logs()).not.toContain('quota counters in Redis cannot be reached');

      await proxy.restore();
      // Still the shared counter: raised to the usage tables once the database is back.
      let after = await whoami();
      for (let i = 0; i < 50 && after.statusCode !== 200; i++) {
        await sleep(100);
        after = await whoami();
      }
      expect(after.statusCode).toBe(200);
      expect(Number(await direct.get(counterKey))).toBeGreaterThanOrEqual(2);
      expect(app.logs()).not.toContain('quota counters in Redis cannot be reached');
    }, 30_000);
  },
);
