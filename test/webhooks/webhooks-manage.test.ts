import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, type TestApp } from '../helpers/app.ts';
import { DIALECTS } from '../helpers/databases.ts';
import { type Received, startReceiver } from '../helpers/receiver.ts';

const ENV = {
  ARBITER_LOG_LEVEL: 'silent',
  ARBITER_WEBHOOK_ALLOW_LOOPBACK: 'true',
  ARBITER_WEBHOOK_POLL_MS: '20',
  ARBITER_WEBHOOK_RETRY_BASE_MS: '40',
  ARBITER_WEBHOOK_DISABLE_AFTER: '2',
  // Failures in a row alone disable here: the time they must also span is tested with a clock.
  ARBITER_WEBHOOK_DISABLE_AFTER_MS: '0',
  ARBITER_WEBHOOK_MAX_ATTEMPTS: '1',
};

async function until(check: () => boolean | Promise<boolean>, what: string, ms = 10_000): Promise<void> {
  const start = Date.now();
  while (!(await check())) {
    if (Date.now() - start > ms) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

const headersOf = (req: Received) => ({
  'webhook-id': String(req.headers['webhook-id']),
  'webhook-timestamp': String(req.headers['webhook-timestamp']),
  'webhook-signature': String(req.headers['webhook-signature']),
});

describe.each(DIALECTS)('webhook endpoint management on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect, { env: ENV });
  });
  afterAll(() => t.close());

  const call = (method: 'GET' | 'POST', url: string, key: string, payload?: object) =>
    t.app.inject({ method, url, headers: bearer(key), ...(payload ? { payload } : {}) });

  it('sends a signed test event to one endpoint, and signs with a rotated secret from then on', async () => {
    const receiver = await startReceiver(() => ({ status: 204 }));
    try {
      const account = await t.newAccount();
      // Subscribed to one unrelated type: the test event comes anyway.
      const hook = (
        await call('POST', '/webhooks', account.key, {
          url: `${receiver.url}/hook`,
          event_types: ['api_key.revoked'],
        })
      ).json();
      const sent = await call('POST', `/webhooks/${hook.id}/test`, account.key);
      expect(sent.statusCode).toBe(202);
      await until(() => receiver.received.length === 1, 'the test event');
      const first = receiver.received[0]!;
      expect(new Webhook(hook.secret).verify(first.body, headersOf(first))).toMatchObject({
        type: 'webhook.test',
        data: { webhook_id: hook.id },
      });

      const rotated = await call('POST', `/webhooks/${hook.id}/rotate-secret`, account.key);
      expect(rotated.statusCode).toBe(200);
      const secret = rotated.json().secret as string;
      expect(secret).toMatch(/^whsec_/);
      expect(secret).not.toBe(hook.secret);
      // The secret is shown once: reading the endpoint does not return it.
      expect(JSON.stringify((await call('GET', `/webhooks/${hook.id}`, account.key)).json())).not.toContain(
        secret,
      );

      await call('POST', `/webhooks/${hook.id}/test`, account.key);
      await until(() => receiver.received.length === 2, 'the second test event');
      const second = receiver.received[1]!;
      expect(new Webhook(secret).verify(second.body, headersOf(second))).toMatchObject({
        type: 'webhook.test',
      });
      expect(() => new Webhook(hook.secret).verify(second.body, headersOf(second))).toThrow();

      const log = (await call('GET', `/webhooks/${hook.id}/deliveries`, account.key)).json();
      expect(log.deliveries.map((d: { event_type: string }) => d.event_type)).toEqual([
        'webhook.test',
        'webhook.test',
      ]);
    } finally {
      await receiver.close();
    }
  });

  it('re-enables an endpoint its failures disabled, and refuses a test event while it is disabled', async () => {
    let healthy = false;
    const receiver = await startReceiver(() => ({ status: healthy ? 204 : 500 }));
    try {
      const account = await t.newAccount();
      const hook = (await call('POST', '/webhooks', account.key, { url: `${receiver.url}/hook` })).json();
      for (let i = 0; i < 2; i++) {
        await call('POST', `/webhooks/${hook.id}/test`, account.key);
        await until(() => receiver.received.length === i + 1, `failure ${i + 1}`);
      }
      await until(
        async () =>
          (await call('GET', `/webhooks/${hook.id}`, account.key)).json().webhook.status === 'disabled',
        'the endpoint to be disabled',
      );
      const refused = await call('POST', `/webhooks/${hook.id}/test`, account.key);
      expect(refused.statusCode).toBe(409);

      const enabled = await call('POST', `/webhooks/${hook.id}/enable`, account.key);
      expect(enabled.statusCode).toBe(200);
      expect(enabled.json().webhook).toMatchObject({ status: 'enabled', disabled_reason: null });
      healthy = true;
      expect((await call('POST', `/webhooks/${hook.id}/test`, account.key)).statusCode).toBe(202);
      await until(() => receiver.received.length === 3, 'the event after re-enabling');
    } finally {
      await receiver.close();
    }
  });

  it("cannot enable, rotate or test another account's endpoint", async () => {
    const owner = await t.newAccount();
    const other = await t.newAccount();
    const hook = (await call('POST', '/webhooks', owner.key, { url: 'https://hooks.example.com/in' })).json();
    for (const path of ['enable', 'rotate-secret', 'test']) {
      const res = await call('POST', `/webhooks/${hook.id}/${path}`, other.key);
      expect(res.statusCode, path).toBe(404);
    }
    expect((await call('POST', '/webhooks/we_nope/test', owner.key)).statusCode).toBe(404);
  });
});
