import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, type TestApp } from './helpers/app.ts';
import { freshDatabase, TEST_DATABASE_URL, TEST_REDIS_URL, type TestDatabase } from './helpers/databases.ts';
import { revokeOnAThenTimeOnB } from './helpers/revocation.ts';

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
