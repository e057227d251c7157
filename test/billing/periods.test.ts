import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localProvider } from '../../src/domains/billing/providers.ts';
import { createBillingRepo } from '../../src/domains/billing/repo.ts';
import { createBillingService } from '../../src/domains/billing/service.ts';
import { bearer, createTestApp, type TestApp } from '../helpers/app.ts';
import { DIALECTS } from '../helpers/databases.ts';

describe.each(DIALECTS)('billing periods explained on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect, { env: { ARBITER_LOG_LEVEL: 'silent' } });
  });
  afterAll(() => t.close());

  /** The billing service at a fixed time, on the app's database. */
  const billingAt = (at: string) =>
    createBillingService({
      db: t.container.db.kysely,
      repo: createBillingRepo(t.container.db.kysely),
      audit: t.container.audit.repo,
      plans: t.container.plans,
      provider: localProvider(),
      forgetAccount: () => undefined,
      bus: undefined,
      usage: t.container.services.usage,
      meter: t.container.meter,
      publicUrl: undefined,
      now: () => new Date(at),
    });

  it('says a subscription from the 23rd is prorated against usage counted per calendar month', async () => {
    const { accountId } = await t.newAccount();
    await t.container.db.kysely
      .insertInto('subscriptions')
      .values({
        account_id: accountId,
        plan: 'developer',
        status: 'active',
        provider: 'stripe',
        customer_ref: 'cus_test_periods',
        subscription_ref: 'sub_test_periods',
        period_start: '2026-11-23T10:00:00.000Z',
        period_end: '2026-12-23T10:00:00.000Z',
        started_at: '2026-11-23T10:00:00.000Z',
        updated_at: '2026-11-23T10:00:00.000Z',
        provider_event_at: null,
      })
      .execute();
    const billing = billingAt('2026-11-25T12:00:00.000Z');

    const usage = await billing.usage(accountId);
    expect(usage.period).toEqual({ start: '2026-11-01T00:00:00.000Z', end: '2026-12-01T00:00:00.000Z' });
    expect(usage.usage_period).toMatchObject({ ...usage.period, basis: 'calendar_month_utc' });
    expect(usage.usage_period.note).toContain('calendar month in UTC');
    expect(usage.subscription_period).toEqual({
      start: '2026-11-23T10:00:00.000Z',
      end: '2026-12-23T10:00:00.000Z',
    });
    // 7 days 14 hours of a 30-day month.
    expect(usage.total_cost_usd).toBe(25.03);
    expect(usage.cost).toMatchObject({
      amount_usd: usage.total_cost_usd,
      price_usd_month: 99,
      prorated: true,
      charged_from: '2026-11-23T10:00:00.000Z',
      share_of_month: 0.2528,
    });
    expect(usage.cost.explanation).toMatch(/prorated .* since the plan became active on 2026-11-23/);

    const status = await billing.status(accountId);
    expect(status.billing_period).toEqual(usage.subscription_period);
    expect(status.subscription_period).toEqual(usage.subscription_period);
    expect(status.usage_period).toEqual(usage.usage_period);

    // The next calendar month is charged whole, though the subscription period still runs to the 23rd.
    const december = await billingAt('2026-12-10T00:00:00.000Z').usage(accountId);
    expect(december.cost).toMatchObject({ amount_usd: 99, prorated: false });
    expect(december.total_cost_usd).toBe(99);
    expect(december.cost.explanation).toContain('not prorated');
  });

  it('answers over HTTP with the explained fields next to the ones the spec names', async () => {
    const created = await t.container.services.accounts.create({
      email: `periods-${Math.random().toString(36).slice(2)}@example.com`,
      name: 'Free account',
      plan: 'free',
    });
    const res = await t.app.inject({
      method: 'GET',
      url: '/billing/usage/current',
      headers: bearer(created.key.key),
    });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({
      success: true,
      total_api_calls: expect.any(Number),
      total_cost_usd: 0,
      subscription_period: null,
      usage_period: { basis: 'calendar_month_utc', start: body.period.start, end: body.period.end },
      cost: { amount_usd: 0, prorated: false, price_usd_month: 0 },
    });
    const status = await t.app.inject({
      method: 'GET',
      url: '/subscription/status',
      headers: bearer(created.key.key),
    });
    expect(status.json()).toMatchObject({
      subscription_period: null,
      billing_period: { start: body.period.start, end: body.period.end },
      usage_period: { basis: 'calendar_month_utc' },
    });
  });
});
