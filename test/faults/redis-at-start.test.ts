import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTcpProxy, type TcpProxy } from '../../scripts/lib/tcp-proxy.ts';
import { bearer, createTestApp, type TestApp } from '../helpers/app.ts';
import { freshDatabase, TEST_DATABASE_URL, TEST_REDIS_URL, type TestDatabase } from '../helpers/databases.ts';
import { revokeOnAThenTimeOnB } from '../helpers/revocation.ts';

/**
 * An instance started while Redis is down (a supervisor replacing a dead instance during a Redis
 * outage): it used to exit with "Connection is closed.". It serves in the documented degrade
 * instead, and joins the others through Redis once Redis answers.
 */
describe.runIf(TEST_DATABASE_URL && TEST_REDIS_URL)('an instance started while Redis is down', () => {
  let database: TestDatabase;
  let proxy: TcpProxy;
  let a: TestApp;
  let b: TestApp | undefined;

  beforeAll(async () => {
    database = await freshDatabase('postgres');
    const direct = new URL(TEST_REDIS_URL!);
    proxy = await startTcpProxy({ host: direct.hostname, port: Number(direct.port || 6379) });
    await proxy.cut();
    const proxied = new URL(direct);
    proxied.port = String(proxy.port);
    // A long key cache lifetime: only a Redis announcement makes B forget a key within 250 ms.
    const env = { ARBITER_KEY_CACHE_MS: '1000' };
    a = await createTestApp('postgres', { database, env: { ...env, REDIS_URL: TEST_REDIS_URL! } });
    b = await createTestApp('postgres', { database, env: { ...env, REDIS_URL: proxied.toString() } });
    b.ownerKey = a.ownerKey;
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
    await proxy?.close();
    await database?.drop();
  });

  it('starts, says why it runs without Redis, and decides verdicts with loops counted locally', async () => {
    const warnings = b!
      .logs()
      .split('\n')
      .filter((l) => l.includes('Redis cannot be reached at start'))
      .map((l) => (JSON.parse(l) as { redis: string }).redis)
      .sort();
    expect(warnings).toEqual([
      'loop detection',
      'policy publisher',
      'policy subscriber',
      'quota',
      'revocations publisher',
      'revocations subscriber',
    ]);
    const codes: string[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await b!.app.inject({
        method: 'POST',
        url: '/v1/evaluate',
        headers: bearer(b!.ownerKey),
        payload: { action: 'shell.exec', payload: { command: 'rm -rf / # started without redis' } },
      });
      expect(res.statusCode).toBeLessThan(500);
      codes.push(res.json().error?.code ?? 'safe');
    }
    expect(codes.at(-1)).toBe('RATE_LIMIT_EXCEEDED');
  });

  it('receives revocations through Redis once Redis answers', async () => {
    await proxy.restore();
    // ioredis reconnects by itself (within a second or two); each attempt revokes a new key on A.
    let fastest = Number.POSITIVE_INFINITY;
    const start = performance.now();
    while (fastest >= 250 && performance.now() - start < 10_000) {
      fastest = Math.min(fastest, await revokeOnAThenTimeOnB(a, b!, 1500));
    }
    expect(fastest).toBeLessThan(250);
    expect(b!.logs()).toContain('Redis connection restored');
  });
});
