import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, type TestApp } from '../helpers/app.ts';
import { DIALECTS } from '../helpers/databases.ts';
import { type FakeStripe, startFakeStripe } from '../helpers/fake-stripe.ts';

const SECRET_KEY = 'sk_test_arbiter_gdpr_0123456789';
const WEBHOOK_SECRET = 'whsec_test_arbiter_gdpr_signing';

describe.each(DIALECTS)('GDPR deletion of a Stripe-billed account on %s', (dialect) => {
  let t: TestApp;
  let stripe: FakeStripe;

  beforeAll(async () => {
    stripe = await startFakeStripe({ secretKey: SECRET_KEY, webhookSecret: WEBHOOK_SECRET });
    t = await createTestApp(dialect, {
      env: {
        ARBITER_LOG_LEVEL: 'silent',
        ARBITER_BILLING: 'stripe',
        STRIPE_SECRET_KEY: SECRET_KEY,
        STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
        STRIPE_API_URL: stripe.url,
      },
    });
    stripe.webhookUrl = `${await t.app.listen({ port: 0, host: '127.0.0.1' })}/billing/stripe/webhook`;
  });
  afterAll(async () => {
    await t.close();
    await stripe.close();
  });

  /** A free account that then pays for the developer plan through the hosted checkout. */
  async function payingAccount() {
    const created = await t.container.services.accounts.create({
      email: `gdpr-stripe-${Math.random().toString(36).slice(2)}@example.com`,
      name: 'Paying customer',
      plan: 'free',
    });
    const key = created.key.key;
    const checkout = await t.app.inject({
      method: 'POST',
      url: '/subscription/checkout',
      headers: bearer(key),
      payload: {
        plan_id: 'developer',
        success_url: 'https://shop.example/ok',
        cancel_url: 'https://shop.example/no',
      },
    });
    expect(checkout.statusCode).toBe(200);
    const paid = await fetch(checkout.json().checkout_url, { method: 'POST', redirect: 'manual' });
    expect(paid.status).toBe(303);
    const session = [...stripe.sessions.values()].find((s) => s.client_reference_id === created.account.id)!;
    const subscriptionId = String(session.subscription);
    expect(stripe.subscriptions.get(subscriptionId)?.status).toBe('active');
    return { accountId: created.account.id, key, subscriptionId };
  }

  const cancellations = (subscriptionId: string) =>
    stripe.requests.filter((r) => r.method === 'DELETE' && r.path === `/v1/subscriptions/${subscriptionId}`);
  const whoami = async (key: string) =>
    (await t.app.inject({ method: 'GET', url: '/v1/whoami', headers: bearer(key) })).statusCode;
  const deleteAccount = (key: string) =>
    t.app.inject({ method: 'DELETE', url: '/gdpr/delete-account', headers: bearer(key) });

  it('cancels the subscription at Stripe, then deletes the account', async () => {
    const { key, subscriptionId, accountId } = await payingAccount();
    const deleted = await deleteAccount(key);
    expect(deleted.statusCode).toBe(200);
    expect(cancellations(subscriptionId)).toHaveLength(1);
    expect(stripe.subscriptions.get(subscriptionId)?.status).toBe('canceled');
    expect(await whoami(key)).toBe(401);
    expect(await t.container.services.accounts.findByIdOrEmail(accountId)).toBeUndefined();
    // Stripe's own notice of the cancellation arrives afterwards and finds no one to change.
    const notice = await stripe.sendEvent('customer.subscription.deleted', {
      ...stripe.subscriptions.get(subscriptionId)!,
    });
    expect(notice.status).toBe(200);
    expect(await t.container.services.accounts.findByIdOrEmail(accountId)).toBeUndefined();
  });

  it('when Stripe fails, answers 503 and deletes nothing; a later attempt goes through', async () => {
    const { key, subscriptionId, accountId } = await payingAccount();
    const rowsBefore = await t.container.db.kysely
      .selectFrom('subscriptions')
      .selectAll()
      .where('account_id', '=', accountId)
      .execute();
    stripe.cancelFailure = 500;
    try {
      const refused = await deleteAccount(key);
      expect(refused.statusCode).toBe(503);
      expect(refused.json().error).toMatchObject({
        code: 'UNAVAILABLE',
        message: expect.stringContaining(`did not cancel subscription ${subscriptionId}`),
      });
    } finally {
      stripe.cancelFailure = undefined;
    }
    expect(stripe.subscriptions.get(subscriptionId)?.status).toBe('active');
    expect(await whoami(key)).toBe(200);
    const status = (
      await t.app.inject({ method: 'GET', url: '/subscription/status', headers: bearer(key) })
    ).json();
    expect(status).toMatchObject({ plan: 'developer', status: 'active', provider: 'stripe' });
    expect(
      await t.container.db.kysely
        .selectFrom('subscriptions')
        .selectAll()
        .where('account_id', '=', accountId)
        .execute(),
    ).toEqual(rowsBefore);

    expect((await deleteAccount(key)).statusCode).toBe(200);
    expect(stripe.subscriptions.get(subscriptionId)?.status).toBe('canceled');
    expect(await whoami(key)).toBe(401);
  });

  it('deletes a free account without calling Stripe', async () => {
    const created = await t.container.services.accounts.create({
      email: `gdpr-free-${Math.random().toString(36).slice(2)}@example.com`,
      name: 'Free customer',
      plan: 'free',
    });
    const before = stripe.requests.length;
    expect((await deleteAccount(created.key.key)).statusCode).toBe(200);
    expect(stripe.requests.slice(before)).toEqual([]);
  });
});
