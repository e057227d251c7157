import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, type TestApp } from '../helpers/app.ts';

/** The public billing routes (checkout page, Stripe webhook) are not in the shared fuzz list: they have their own credentials. */
describe('property: random requests to the public billing routes never produce a 5xx', () => {
  let t: TestApp;
  let token: string;
  beforeAll(async () => {
    t = await createTestApp('sqlite', {
      env: {
        ARBITER_LOG_LEVEL: 'silent',
        ARBITER_BILLING: 'stripe',
        STRIPE_SECRET_KEY: 'sk_test_fuzz',
        STRIPE_WEBHOOK_SECRET: 'whsec_fuzz',
        // Nothing listens here: a checkout started by the fuzzer must fail cleanly too.
        STRIPE_API_URL: 'http://127.0.0.1:9',
      },
    });
    const free = await t.container.services.accounts.create({
      email: 'fuzz@example.com',
      name: 'F',
      plan: 'free',
    });
    const res = await t.app.inject({
      method: 'POST',
      url: '/subscription/checkout',
      headers: bearer(free.key.key),
      payload: {
        plan_id: 'developer',
        success_url: 'https://a.example/ok',
        cancel_url: 'https://a.example/no',
      },
    });
    // The provider is unreachable: a clear 503, not a 500.
    expect(res.statusCode).toBe(503);
    token = 'x'.repeat(43);
  });
  afterAll(() => t.close());

  it('answers with a non-5xx status and, on error, the DESIGN error body', async () => {
    const path = fc.oneof(
      fc.constantFrom(
        '/billing/stripe/webhook',
        `/checkout/${token}`,
        `/checkout/${token}/confirm`,
        `/checkout/${token}/cancel`,
      ),
      fc.string({ maxLength: 60 }).map((s) => `/checkout/${encodeURIComponent(s)}`),
      fc.string({ maxLength: 60 }).map((s) => `/checkout/${encodeURIComponent(s)}/confirm`),
    );
    const body = fc.oneof(
      fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v)),
      fc.string({ maxLength: 200 }),
      fc.constantFrom(
        '{"id":"evt_1","type":"checkout.session.completed","data":{"object":{}}}',
        'decision=confirm',
        '',
      ),
    );
    const signature = fc.oneof(
      fc.constant(undefined),
      fc.string({ maxLength: 80 }),
      fc.integer({ min: 0, max: 2 ** 31 }).map((n) => `t=${n},v1=${'a'.repeat(64)}`),
    );
    const contentType = fc.constantFrom(
      undefined,
      'application/json',
      'application/json; charset=utf-8',
      'application/x-www-form-urlencoded',
      'text/plain',
      'multipart/form-data',
    );
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('GET', 'POST', 'PUT', 'DELETE'),
        path,
        body,
        signature,
        contentType,
        async (method, url, payload, sig, type) => {
          const headers: Record<string, string> = {};
          if (sig !== undefined) headers['stripe-signature'] = sig;
          if (type !== undefined) headers['content-type'] = type;
          const res = await t.app.inject({
            method: method as 'GET',
            url,
            headers,
            ...(method === 'GET' ? {} : { payload }),
          });
          expect(res.statusCode, `${method} ${url} ${payload}`).toBeLessThan(500);
          if (res.statusCode >= 400) {
            expect(res.json()).toMatchObject({
              success: false,
              error: { code: expect.any(String), message: expect.any(String) },
              request_id: expect.any(String),
            });
          }
        },
      ),
      { numRuns: 400 },
    );
  });
});
