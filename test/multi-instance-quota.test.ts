import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, type TestApp } from './helpers/app.ts';
import { freshDatabase, TEST_DATABASE_URL, TEST_REDIS_URL, type TestDatabase } from './helpers/databases.ts';
import { plansFileWithAllowance } from './helpers/plans.ts';

const ALLOWANCE = 150;
const CALLS = 400;

async function freeAccount(t: TestApp): Promise<{ accountId: string; key: string }> {
  const created = await t.container.services.accounts.create({
    email: `quota-${Math.random().toString(36).slice(2)}@example.com`,
    name: 'Quota',
    plan: 'free',
  });
  return { accountId: created.account.id, key: created.key.key };
}

/**
 * Two instances on one PostgreSQL (and, where given, one Redis), 400 concurrent calls of one
 * free account spread evenly over both, over real sockets: exactly the allowance is served, the
 * rest refused with QUOTA_EXCEEDED, and the usage tables count exactly the calls served.
 */
function sharedAllowanceSuite(env: Record<string, string>) {
  let database: TestDatabase;
  let a: TestApp;
  let b: TestApp;
  beforeAll(async () => {
    database = await freshDatabase('postgres');
    const withPlans = { ARBITER_PLANS_FILE: plansFileWithAllowance(ALLOWANCE), ...env };
    a = await createTestApp('postgres', { database, env: withPlans });
    b = await createTestApp('postgres', { database, env: withPlans });
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await database?.drop();
  });

  it(`admits exactly ${ALLOWANCE} of ${CALLS} concurrent calls spread over two instances`, async () => {
    const { accountId, key } = await freeAccount(a);
    const urls = [
      await a.app.listen({ port: 0, host: '127.0.0.1' }),
      await b.app.listen({ port: 0, host: '127.0.0.1' }),
    ];
    const responses = await Promise.all(
      Array.from({ length: CALLS }, async (_, i) => {
        const res = await fetch(`${urls[i % 2]}/v1/whoami`, { headers: bearer(key) });
        return { status: res.status, retryAfter: res.headers.get('retry-after'), body: await res.json() };
      }),
    );
    const refused = responses.filter((r) => r.status === 429);
    expect(responses.filter((r) => r.status === 200)).toHaveLength(ALLOWANCE);
    expect(refused).toHaveLength(CALLS - ALLOWANCE);
    for (const r of refused) {
      expect(r.body).toMatchObject({ success: false, error: { code: 'QUOTA_EXCEEDED' } });
      expect(Number(r.retryAfter)).toBeGreaterThan(0);
    }

    // What usage reports agrees: the calls served, and none of the refused ones.
    await a.container.meter.flush();
    await b.container.meter.flush();
    const month = new Date().toISOString().slice(0, 7);
    expect(await a.container.services.usage.monthlyCallsForAccount(accountId, month)).toBe(ALLOWANCE);
  });

  it("drops a deleted account's shared counter with the account", async () => {
    const { accountId, key } = await freeAccount(a);
    expect((await b.app.inject({ method: 'GET', url: '/v1/whoami', headers: bearer(key) })).statusCode).toBe(
      200,
    );
    const month = new Date().toISOString().slice(0, 7);
    const counters = async () => {
      const rows = await a.container.db.kysely
        .selectFrom('quota_counters')
        .select('used')
        .where('account_id', '=', accountId)
        .execute();
      if (!env.REDIS_URL) return rows.map((r) => Number(r.used));
      const redis = new Redis(env.REDIS_URL);
      try {
        const used = await redis.get(`arbiter:quota:${accountId}:${month}`);
        return used === null ? [] : [Number(used)];
      } finally {
        redis.disconnect();
      }
    };
    expect(await counters()).toEqual([1]);
    const deleted = await a.app.inject({
      method: 'DELETE',
      url: '/gdpr/delete-account',
      headers: bearer(key),
    });
    expect(deleted.statusCode).toBe(200);
    expect(await counters()).toEqual([]);
  });
}

describe.runIf(TEST_DATABASE_URL)('the allowance across two instances on one PostgreSQL', () => {
  sharedAllowanceSuite({});
});

describe.runIf(TEST_DATABASE_URL && TEST_REDIS_URL)(
  'the allowance across two instances on one PostgreSQL and one Redis',
  () => {
    sharedAllowanceSuite({ REDIS_URL: TEST_REDIS_URL! });
  },
);
