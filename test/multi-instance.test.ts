import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, type TestApp } from './helpers/app.ts';
import { freshDatabase, TEST_DATABASE_URL, TEST_REDIS_URL, type TestDatabase } from './helpers/databases.ts';

/** Polls until `instance` refuses `key`; returns the milliseconds that took. */
async function msUntilRefused(instance: TestApp, key: string, limitMs = 3000): Promise<number> {
  const start = performance.now();
  while (performance.now() - start < limitMs) {
    const res = await instance.app.inject({ method: 'GET', url: '/v1/whoami', headers: bearer(key) });
    if (res.statusCode === 401) return performance.now() - start;
    await new Promise((r) => setTimeout(r, 20));
  }
  return Number.POSITIVE_INFINITY;
}

async function revokeOnAThenTimeOnB(a: TestApp, b: TestApp): Promise<number> {
  const created = (
    await a.app.inject({
      method: 'POST',
      url: '/api-keys',
      headers: bearer(a.ownerKey),
      payload: { name: 'shared' },
    })
  ).json();
  // B has verified (and cached) the key before A revokes it.
  expect(
    (await b.app.inject({ method: 'GET', url: '/v1/whoami', headers: bearer(created.key) })).statusCode,
  ).toBe(200);
  expect(
    (await b.app.inject({ method: 'GET', url: '/v1/whoami', headers: bearer(created.key) })).statusCode,
  ).toBe(200);
  expect(
    (await a.app.inject({ method: 'DELETE', url: `/api-keys/${created.id}`, headers: bearer(a.ownerKey) }))
      .statusCode,
  ).toBe(200);
  return msUntilRefused(b, created.key);
}

describe.runIf(TEST_DATABASE_URL)('two instances on one PostgreSQL', () => {
  let database: TestDatabase;
  let a: TestApp;
  let b: TestApp;
  beforeAll(async () => {
    database = await freshDatabase('postgres');
    a = await createTestApp('postgres', { database });
    b = await createTestApp('postgres', { database });
    b.ownerKey = a.ownerKey;
  });
  afterAll(async () => {
    await a.close();
    await b.close();
    await database.drop();
  });

  it('shares one owner: the second instance does not create another', async () => {
    expect(b.ownerId).toBe(a.ownerId);
    expect(
      (await b.app.inject({ method: 'GET', url: '/api-keys', headers: bearer(a.ownerKey) })).statusCode,
    ).toBe(200);
  });

  it('rejects on B a key revoked on A within one second', async () => {
    const ms = await revokeOnAThenTimeOnB(a, b);
    expect(ms).toBeLessThan(1000);
  });
});

describe.runIf(TEST_DATABASE_URL && TEST_REDIS_URL)('two instances on one PostgreSQL and one Redis', () => {
  let database: TestDatabase;
  let a: TestApp;
  let b: TestApp;
  beforeAll(async () => {
    database = await freshDatabase('postgres');
    // A long cache lifetime: only the Redis announcement can make B forget the key quickly.
    const env = { REDIS_URL: TEST_REDIS_URL!, ARBITER_KEY_CACHE_MS: '1000' };
    a = await createTestApp('postgres', { database, env });
    b = await createTestApp('postgres', { database, env });
    b.ownerKey = a.ownerKey;
  });
  afterAll(async () => {
    await a.close();
    await b.close();
    await database.drop();
  });

  it('drops a revoked key from every cache as soon as the revocation is announced', async () => {
    const ms = await revokeOnAThenTimeOnB(a, b);
    expect(ms).toBeLessThan(250);
  });
});
