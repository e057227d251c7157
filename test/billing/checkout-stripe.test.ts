import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, type TestApp } from '../helpers/app.ts';
import { HAS_CHROMIUM, launchBrowser } from '../helpers/browser.ts';
import { DIALECTS } from '../helpers/databases.ts';
import { type FakeStripe, startFakeStripe, subscriptionObject } from '../helpers/fake-stripe.ts';
import { startReceiver } from '../helpers/receiver.ts';

const SECRET_KEY = 'sk_test_arbiter_0123456789';
const WEBHOOK_SECRET = 'whsec_test_arbiter_signing_secret';

describe.each(DIALECTS)('Stripe billing on %s', (dialect) => {
  let t: TestApp;
  let stripe: FakeStripe;
  let appUrl: string;
  let shop: Awaited<ReturnType<typeof startReceiver>>;

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
    appUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
    stripe.webhookUrl = `${appUrl}/billing/stripe/webhook`;
    shop = await startReceiver(() => ({ status: 200, type: 'text/html', body: '<title>Thanks</title>' }));
  });
  afterAll(async () => {
    await shop.close();
    await t.close();
    await stripe.close();
  });

  async function freeAccount() {
    const created = await t.container.services.accounts.create({
      email: `stripe-${Math.random().toString(36).slice(2)}@example.com`,
      name: 'Stripe customer',
      plan: 'free',
    });
    return { accountId: created.account.id, key: created.key.key };
  }

  const status = async (key: string) =>
    (await t.app.inject({ method: 'GET', url: '/subscription/status', headers: bearer(key) })).json();

  async function startCheckout(key: string) {
    const res = await t.app.inject({
      method: 'POST',
      url: '/subscription/checkout',
      headers: bearer(key),
      payload: {
        plan_id: 'developer',
        success_url: `${shop.url}/thanks`,
        cancel_url: `${shop.url}/cancelled`,
      },
    });
    expect(res.statusCode).toBe(200);
    return res.json() as { checkout_url: string; session_id: string; provider: string };
  }

  it('creates a Checkout Session in subscription mode for the account, through the SDK', async () => {
    const { key, accountId } = await freeAccount();
    const body = await startCheckout(key);
    expect(body.provider).toBe('stripe');
    expect(body.checkout_url.startsWith(`${stripe.url}/c/pay/cs_test_`)).toBe(true);
    const sent = stripe.requests.at(-1)!;
    expect(sent.path).toBe('/v1/checkout/sessions');
    expect(sent.headers['content-type']).toContain('application/x-www-form-urlencoded');
    expect(sent.headers['idempotency-key']).toBe(body.session_id);
    expect(sent.body).toMatchObject({
      mode: 'subscription',
      client_reference_id: accountId,
      success_url: `${shop.url}/thanks`,
      metadata: { account_id: accountId, plan_id: 'developer' },
      line_items: [
        {
          quantity: '1',
          price_data: { currency: 'usd', unit_amount: '9900', recurring: { interval: 'month' } },
        },
      ],
    });
  });

  it('activates on checkout.session.completed, then follows past_due, renewal and cancellation', async () => {
    const { key, accountId } = await freeAccount();
    const { checkout_url } = await startCheckout(key);
    // The hosted page's Pay button: Stripe sends the signed event, then redirects.
    const paid = await fetch(`${checkout_url}`, { method: 'POST', redirect: 'manual' });
    expect(paid.status).toBe(303);
    expect(paid.headers.get('location')).toBe(`${shop.url}/thanks`);
    expect(await status(key)).toMatchObject({ plan: 'developer', status: 'active', provider: 'stripe' });
    const session = [...stripe.sessions.values()].find((s) => s.client_reference_id === accountId)!;
    const subId = String(session.subscription);
    const now = Math.floor(Date.now() / 1000);
    const sub = (status: string, periodStart = now, periodEnd = now + 30 * 86400) =>
      subscriptionObject({
        id: subId,
        customer: String(session.customer),
        status,
        metadata: { account_id: accountId, plan_id: 'developer' },
        periodStart,
        periodEnd,
      });

    expect((await stripe.sendEvent('customer.subscription.updated', sub('active'))).status).toBe(200);
    const active = await status(key);
    expect(active.billing_period).toEqual({
      start: new Date(now * 1000).toISOString(),
      end: new Date((now + 30 * 86400) * 1000).toISOString(),
    });

    const failed = await stripe.sendEvent('invoice.payment_failed', {
      id: 'in_test_1',
      object: 'invoice',
      customer: session.customer,
      parent: { type: 'subscription_details', subscription_details: { subscription: subId } },
    });
    expect(failed.status).toBe(200);
    expect(await status(key)).toMatchObject({ plan: 'developer', status: 'past_due' });

    await stripe.sendEvent('customer.subscription.updated', sub('active'));
    expect(await status(key)).toMatchObject({ plan: 'developer', status: 'active' });

    await stripe.sendEvent('customer.subscription.deleted', sub('canceled'));
    expect(await status(key)).toMatchObject({ plan: 'free', status: 'canceled' });
    expect((await t.container.services.accounts.findById(accountId))?.plan).toBe('free');

    const audit = await t.container.audit.repo.list(accountId, { limit: 100 });
    expect(audit.filter((e) => e.action === 'subscription.updated').map((e) => e.details.status)).toEqual([
      'active',
      'active',
      'past_due',
      'active',
      'canceled',
    ]);
  });

  it('rejects tampered, stale, wrongly signed and unsigned events, changing nothing', async () => {
    const { key, accountId } = await freeAccount();
    const completed = {
      id: 'cs_test_forged',
      object: 'checkout.session',
      mode: 'subscription',
      client_reference_id: accountId,
      customer: 'cus_test_x',
      subscription: 'sub_test_x',
      metadata: { account_id: accountId, plan_id: 'developer' },
    };
    const tampered = await stripe.sendEvent('checkout.session.completed', completed, {
      tamper: (p) => p.replace('"developer"', '"developer" '),
    });
    expect(tampered.status).toBe(400);
    expect(JSON.parse(tampered.body).error).toMatchObject({ code: 'VALIDATION_ERROR' });
    expect(JSON.parse(tampered.body).error.message).toContain('signature');

    const stale = await stripe.sendEvent('checkout.session.completed', completed, {
      timestamp: Math.floor(Date.now() / 1000) - 600,
    });
    expect(stale.status).toBe(400);
    expect(JSON.parse(stale.body).error.message).toMatch(/tolerance/i);

    const wrongSecret = await stripe.sendEvent('checkout.session.completed', completed, {
      secret: 'whsec_someone_else',
    });
    expect(wrongSecret.status).toBe(400);

    const unsigned = await fetch(stripe.webhookUrl!, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ id: 'evt_x', type: 'checkout.session.completed', data: { object: completed } }),
    });
    expect(unsigned.status).toBe(400);
    expect(await status(key)).toMatchObject({ plan: 'free', provider: 'none' });

    // The same body properly signed is applied, once: Stripe's retries change nothing more.
    const good = await stripe.sendEvent('checkout.session.completed', completed);
    expect(JSON.parse(good.body)).toEqual({ received: true, applied: true });
    expect(await status(key)).toMatchObject({ plan: 'developer', status: 'active' });
  });

  it('answers events it does not act on with 200, and ignores a retried event', async () => {
    const ignored = await stripe.sendEvent('customer.created', { id: 'cus_test_y', object: 'customer' });
    expect(ignored.status).toBe(200);
    expect(JSON.parse(ignored.body)).toEqual({ received: true, applied: false });

    const { key, accountId } = await freeAccount();
    const completed = {
      id: 'cs_test_retried',
      object: 'checkout.session',
      mode: 'subscription',
      client_reference_id: accountId,
      subscription: 'sub_test_retried',
      metadata: { account_id: accountId, plan_id: 'developer' },
    };
    const first = await stripe.sendEvent('checkout.session.completed', completed, { id: 'evt_test_retried' });
    const retried = await stripe.sendEvent('checkout.session.completed', completed, {
      id: 'evt_test_retried',
    });
    expect(JSON.parse(first.body)).toEqual({ received: true, applied: true });
    expect(JSON.parse(retried.body)).toEqual({ received: true, applied: false });
    expect(await status(key)).toMatchObject({ plan: 'developer', status: 'active' });
    const audit = await t.container.audit.repo.list(accountId, { limit: 100 });
    expect(audit.filter((e) => e.action === 'subscription.updated')).toHaveLength(1);
  });

  it.runIf(HAS_CHROMIUM)(
    'whole flow in headless Chromium against the Stripe-format server',
    async () => {
      const { key } = await freeAccount();
      const { checkout_url } = await startCheckout(key);
      const browser = await launchBrowser();
      try {
        const tab = await browser.context.newPage();
        await tab.goto(checkout_url);
        await tab.locator('#pay').click();
        await tab.waitForURL(`${shop.url}/thanks`);
      } finally {
        await browser.close();
      }
      expect(await status(key)).toMatchObject({ plan: 'developer', status: 'active', provider: 'stripe' });
    },
    60_000,
  );
});
