import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { secondsToNextMonth } from '../../src/domains/usage/quota.ts';
import { bearer, createTestApp, type TestApp } from '../helpers/app.ts';
import { DIALECTS } from '../helpers/databases.ts';
import { plansFileWithAllowance } from '../helpers/plans.ts';

const ALLOWANCE = 150;

describe.each(DIALECTS)('monthly allowance on %s', (dialect) => {
  let t: TestApp;
  const env = { ARBITER_LOG_LEVEL: 'silent', ARBITER_PLANS_FILE: plansFileWithAllowance(ALLOWANCE) };
  beforeAll(async () => {
    t = await createTestApp(dialect, { env });
  });
  afterAll(() => t.close());

  async function freeAccount() {
    const created = await t.container.services.accounts.create({
      email: `quota-${Math.random().toString(36).slice(2)}@example.com`,
      name: 'Quota',
      plan: 'free',
    });
    return { accountId: created.account.id, key: created.key.key };
  }
  const whoami = (key: string) => t.app.inject({ method: 'GET', url: '/v1/whoami', headers: bearer(key) });

  it('refuses with 429 after the allowance, keeps billing reachable, and serves again after upgrading', async () => {
    const { key } = await freeAccount();
    for (let i = 1; i <= ALLOWANCE; i++) {
      const res = await whoami(key);
      expect(res.statusCode).toBe(200);
      expect(res.headers['ratelimit-limit']).toBe(String(ALLOWANCE));
      expect(res.headers['ratelimit-remaining']).toBe(String(ALLOWANCE - i));
    }
    const refused = await whoami(key);
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toMatchObject({ success: false, error: { code: 'QUOTA_EXCEEDED' } });
    const retryAfter = Number(refused.headers['retry-after']);
    expect(Math.abs(retryAfter - secondsToNextMonth(Date.now()))).toBeLessThanOrEqual(2);
    expect(refused.headers['ratelimit-remaining']).toBe('0');
    expect(refused.headers['ratelimit-reset']).toBe(refused.headers['retry-after']);
    // Other limited routes too, but never billing, data rights or the operational endpoints.
    expect((await t.app.inject({ method: 'GET', url: '/api-keys', headers: bearer(key) })).statusCode).toBe(
      429,
    );
    for (const url of ['/subscription/status', '/billing/usage/current', '/gdpr/export']) {
      expect((await t.app.inject({ method: 'GET', url, headers: bearer(key) })).statusCode, url).toBe(200);
    }
    expect((await t.app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);

    const usage = (
      await t.app.inject({ method: 'GET', url: '/billing/usage/current', headers: bearer(key) })
    ).json();
    expect(usage.monthly_call_allowance).toBe(ALLOWANCE);
    expect(usage.by_endpoint.find((e: { endpoint: string }) => e.endpoint === 'GET /v1/whoami').calls).toBe(
      ALLOWANCE,
    );

    const started = await t.app.inject({
      method: 'POST',
      url: '/subscription/checkout',
      headers: bearer(key),
      payload: {
        plan_id: 'developer',
        success_url: 'https://shop.example/ok',
        cancel_url: 'https://shop.example/no',
      },
    });
    expect(started.statusCode).toBe(200);
    const confirm = await t.app.inject({
      method: 'POST',
      url: `${new URL(started.json().checkout_url).pathname}/confirm`,
    });
    expect(confirm.statusCode).toBe(303);

    const served = await whoami(key);
    expect(served.statusCode).toBe(200);
    expect(served.json().plan).toBe('developer');
    expect(served.headers['ratelimit-limit']).toBeUndefined();
  });

  it('admits exactly the allowance under 200 concurrent calls, and counts exactly what it admitted', async () => {
    const { key, accountId } = await freeAccount();
    const url = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const statuses = await Promise.all(
      Array.from({ length: 200 }, () =>
        fetch(`${url}/v1/whoami`, { headers: bearer(key) }).then((r) => r.status),
      ),
    );
    expect(statuses.filter((s) => s === 200)).toHaveLength(ALLOWANCE);
    expect(statuses.filter((s) => s === 429)).toHaveLength(200 - ALLOWANCE);

    await t.container.meter.flush();
    const written = await t.container.services.usage.monthlyCallsForAccount(
      accountId,
      new Date().toISOString().slice(0, 7),
    );
    expect(written).toBe(ALLOWANCE);
    const listed = (
      await t.app.inject({ method: 'GET', url: '/billing/usage/current', headers: bearer(key) })
    ).json();
    // The usage call itself is counted too (billing routes are metered, only never refused).
    expect(listed.by_key[0].calls).toBe(ALLOWANCE + 1);
    expect(listed.total_api_calls).toBe(ALLOWANCE + 1);
  });

  it('a second instance on the same database starts from the written count', async () => {
    const { key } = await freeAccount();
    for (let i = 0; i < ALLOWANCE - 1; i++) expect((await whoami(key)).statusCode).toBe(200);
    await t.container.meter.flush();
    const other = await createTestApp(dialect, { env, database: t.db });
    try {
      const last = await other.app.inject({ method: 'GET', url: '/v1/whoami', headers: bearer(key) });
      expect(last.statusCode).toBe(200);
      expect(last.headers['ratelimit-remaining']).toBe('0');
      expect(
        (await other.app.inject({ method: 'GET', url: '/v1/whoami', headers: bearer(key) })).statusCode,
      ).toBe(429);
    } finally {
      await other.app.close();
      await other.container.close();
    }
  });

  it("enforces the plan's key limit at POST /api-keys", async () => {
    const { key } = await freeAccount();
    const create = (name: string) =>
      t.app.inject({ method: 'POST', url: '/api-keys', headers: bearer(key), payload: { name } });
    expect((await create('two')).statusCode).toBe(201);
    const third = await create('three');
    expect(third.statusCode).toBe(201);
    const fourth = await create('four');
    expect(fourth.statusCode).toBe(403);
    expect(fourth.json().error).toMatchObject({ code: 'FORBIDDEN', details: { max_api_keys: 3 } });
    await t.app.inject({ method: 'DELETE', url: `/api-keys/${third.json().id}`, headers: bearer(key) });
    expect((await create('four again')).statusCode).toBe(201);
  });

  it('leaves unlimited plans without rate-limit headers', async () => {
    const res = await whoami(t.ownerKey);
    expect(res.statusCode).toBe(200);
    expect(res.headers['ratelimit-limit']).toBeUndefined();
  });
});
