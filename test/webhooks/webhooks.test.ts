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
  ARBITER_WEBHOOK_DISABLE_AFTER: '4',
  // Failures in a row alone disable here: the time they must also span is tested with a clock.
  ARBITER_WEBHOOK_DISABLE_AFTER_MS: '0',
};

async function until(check: () => boolean | Promise<boolean>, what: string, ms = 10_000): Promise<void> {
  const start = Date.now();
  while (!(await check())) {
    if (Date.now() - start > ms) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

function verify(secret: string, req: Received): unknown {
  return new Webhook(secret).verify(req.body, {
    'webhook-id': String(req.headers['webhook-id']),
    'webhook-timestamp': String(req.headers['webhook-timestamp']),
    'webhook-signature': String(req.headers['webhook-signature']),
  });
}

describe.each(DIALECTS)('webhooks on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect, { env: ENV });
  });
  afterAll(() => t.close());

  async function subscribe(app: TestApp, key: string, url: string, eventTypes?: string[]) {
    const res = await app.app.inject({
      method: 'POST',
      url: '/webhooks',
      headers: bearer(key),
      payload: { url, ...(eventTypes ? { event_types: eventTypes } : {}) },
    });
    expect(res.statusCode).toBe(201);
    return res.json() as { id: string; secret: string };
  }

  async function revokeAKey(app: TestApp, key: string): Promise<string> {
    const created = (
      await app.app.inject({
        method: 'POST',
        url: '/api-keys',
        headers: bearer(key),
        payload: { name: 'doomed' },
      })
    ).json();
    await app.app.inject({ method: 'DELETE', url: `/api-keys/${created.id}`, headers: bearer(key) });
    return created.id;
  }

  it('retries a receiver that fails twice, which then gets the event once successfully, signed', async () => {
    const receiver = await startReceiver((_req, i) => ({ status: i < 2 ? 500 : 204 }));
    try {
      const account = await t.newAccount();
      const hook = await subscribe(t, account.key, `${receiver.url}/hook`, ['api_key.revoked']);
      const keyId = await revokeAKey(t, account.key);
      await until(() => receiver.received.length >= 3, 'three attempts');
      await new Promise((r) => setTimeout(r, 300));
      expect(receiver.received).toHaveLength(3);
      const ids = new Set(receiver.received.map((r) => r.headers['webhook-id']));
      expect(ids.size).toBe(1);
      for (const req of receiver.received) {
        expect(verify(hook.secret, req)).toMatchObject({ type: 'api_key.revoked', data: { key_id: keyId } });
      }
      expect(() =>
        verify(hook.secret, {
          ...receiver.received[2]!,
          body: receiver.received[2]!.body.replace('revoked', 'rEvoked'),
        }),
      ).toThrow();

      const log = (
        await t.app.inject({
          method: 'GET',
          url: `/webhooks/${hook.id}/deliveries`,
          headers: bearer(account.key),
        })
      ).json();
      expect(log.deliveries).toHaveLength(1);
      expect(log.deliveries[0]).toMatchObject({
        status: 'succeeded',
        attempts: 3,
        event_type: 'api_key.revoked',
      });
      expect(log.deliveries[0].attempt_log.map((a: { status_code: number }) => a.status_code)).toEqual([
        500, 500, 204,
      ]);

      // Manual redelivery: a new delivery of the same message.
      const again = await t.app.inject({
        method: 'POST',
        url: `/webhooks/${hook.id}/deliveries/${log.deliveries[0].id}/redeliver`,
        headers: bearer(account.key),
      });
      expect(again.statusCode).toBe(202);
      await until(() => receiver.received.length === 4, 'the redelivery');
      expect(receiver.received[3]!.headers['webhook-id']).toBe(receiver.received[0]!.headers['webhook-id']);
    } finally {
      await receiver.close();
    }
  });

  it('delivers verdict.rejected for a refused /v1/evaluate, once, and nothing for a safe one', async () => {
    const receiver = await startReceiver(() => ({ status: 204 }));
    try {
      const account = await t.newAccount();
      const hook = await subscribe(t, account.key, `${receiver.url}/verdicts`, ['verdict.rejected']);
      const evaluate = (payload: object) =>
        t.app.inject({ method: 'POST', url: '/v1/evaluate', headers: bearer(account.key), payload });
      expect((await evaluate({ action: 'fs.read', payload: { path: 'README.md' } })).json().is_safe).toBe(
        true,
      );
      const refused = (await evaluate({ action: 'fs.read', payload: { path: '/etc/shadow' } })).json();
      expect(refused.is_safe).toBe(false);
      await t.container.audit.flush();
      await until(() => receiver.received.length >= 1, 'the verdict.rejected delivery');
      await new Promise((r) => setTimeout(r, 300));
      expect(receiver.received).toHaveLength(1);
      expect(verify(hook.secret, receiver.received[0]!)).toMatchObject({
        type: 'verdict.rejected',
        data: {
          verdict_hash: refused.hash,
          action: 'fs.read',
          code: 'FILESYSTEM_DENIED',
          key_id: account.keyId,
        },
      });
      // The payload, which may hold what the verdict refused to let out, is never in the event.
      expect(receiver.received[0]!.body).not.toContain('shadow');
    } finally {
      await receiver.close();
    }
  });

  it('delivers the decisions on escalations: action.approved and action.denied, each once', async () => {
    const receiver = await startReceiver(() => ({ status: 204 }));
    try {
      const account = await t.newAccount();
      const approver = (
        await t.container.services.apiKeys.create(account.accountId, 'approver', { role: 'operator' })
      ).key;
      const hook = await subscribe(t, account.key, `${receiver.url}/decisions`, [
        'action.approved',
        'action.denied',
      ]);
      const escalate = async () => {
        const res = await t.app.inject({
          method: 'POST',
          url: '/v2/actions/evaluate',
          headers: bearer(account.key),
          payload: {
            action_type: 'http.request',
            actor: 'support-bot',
            actor_role: 'assistant',
            impact_scope: 'external',
            payload: {
              url: 'https://api.github.com/repos/acme/app/issues',
              method: 'POST',
              body: { title: 'x' },
            },
          },
        });
        expect(res.json().decision).toBe('ESCALATE');
        return res.json().evaluation_id as string;
      };
      const approved = await escalate();
      const denied = await escalate();
      for (const [id, verb] of [
        [approved, 'approve'],
        [denied, 'deny'],
      ] as const) {
        const res = await t.app.inject({
          method: 'POST',
          url: `/v2/actions/evaluations/${id}/${verb}`,
          headers: bearer(approver),
        });
        expect(res.statusCode).toBe(200);
      }
      await until(() => receiver.received.length >= 2, 'both decisions');
      await new Promise((r) => setTimeout(r, 300));
      const events = receiver.received.map((r) => verify(hook.secret, r) as { type: string; data: object });
      expect(events.map((e) => e.type).sort()).toEqual(['action.approved', 'action.denied']);
      expect(JSON.stringify(events)).toContain(approved);
      expect(JSON.stringify(events)).toContain(denied);
    } finally {
      await receiver.close();
    }
  });

  it('delivers claim.conflict_detected when a stored claim contradicts one kept before', async () => {
    const receiver = await startReceiver(() => ({ status: 204 }));
    try {
      const account = await t.newAccount();
      const hook = await subscribe(t, account.key, `${receiver.url}/claims`, ['claim.conflict_detected']);
      const store = async (claim: string) =>
        (
          await t.app.inject({
            method: 'POST',
            url: '/v2/vault/store',
            headers: bearer(account.key),
            payload: { claim, source: 'test', confidence: 0.9 },
          })
        ).json();
      const open = await store('The Berlin office is open on Sundays.');
      await store('The Lisbon office has a rooftop terrace.');
      const closed = await store('The Berlin office is not open on Sundays.');
      expect(closed.conflicts).toHaveLength(1);
      await until(() => receiver.received.length >= 1, 'the claim.conflict_detected delivery');
      await new Promise((r) => setTimeout(r, 300));
      expect(receiver.received).toHaveLength(1);
      expect(verify(hook.secret, receiver.received[0]!)).toMatchObject({
        type: 'claim.conflict_detected',
        data: {
          claim_id: closed.id,
          on_conflict: 'keep',
          conflicts: [{ id: open.id, kind: 'negation' }],
        },
      });
    } finally {
      await receiver.close();
    }
  });

  it('loses nothing across a restart between attempts', async () => {
    const receiver = await startReceiver((_req, i) => ({ status: i < 2 ? 503 : 200 }));
    const first = await createTestApp(dialect, { env: ENV, database: t.db });
    let second: TestApp | undefined;
    try {
      const account = await first.newAccount();
      const hook = await subscribe(first, account.key, `${receiver.url}/hook`);
      await revokeAKey(first, account.key);
      await until(() => receiver.received.length >= 1, 'the first attempt');
      await first.app.close();
      await first.container.close();

      second = await createTestApp(dialect, { env: ENV, database: t.db });
      await until(() => receiver.received.length >= 3, 'the remaining attempts');
      await new Promise((r) => setTimeout(r, 300));
      expect(receiver.received).toHaveLength(3);
      expect(new Set(receiver.received.map((r) => r.headers['webhook-id'])).size).toBe(1);
      for (const req of receiver.received)
        expect(verify(hook.secret, req)).toMatchObject({ type: 'api_key.revoked' });
      const row = await second.container.db.kysely
        .selectFrom('webhook_deliveries')
        .selectAll()
        .where('endpoint_id', '=', hook.id)
        .executeTakeFirstOrThrow();
      expect(row).toMatchObject({ status: 'succeeded', attempts: 3 });
    } finally {
      if (second) {
        await second.app.close();
        await second.container.close();
      }
      await receiver.close();
    }
  });

  it('disables an endpoint after persistent failure', async () => {
    const receiver = await startReceiver(() => ({ status: 500 }));
    try {
      const account = await t.newAccount();
      const hook = await subscribe(t, account.key, `${receiver.url}/down`);
      await revokeAKey(t, account.key);
      await until(async () => {
        const res = await t.app.inject({
          method: 'GET',
          url: `/webhooks/${hook.id}`,
          headers: bearer(account.key),
        });
        return res.json().webhook.status === 'disabled';
      }, 'the endpoint to be disabled');
      const shown = (
        await t.app.inject({ method: 'GET', url: `/webhooks/${hook.id}`, headers: bearer(account.key) })
      ).json();
      expect(shown.webhook.disabled_reason).toContain('4 consecutive failed deliveries');
      expect(receiver.received).toHaveLength(4);
      expect(JSON.stringify(shown)).not.toContain(hook.secret);
    } finally {
      await receiver.close();
    }
  });

  it('refuses internal, metadata and non-https destinations, unknown event types, and plans without webhooks', async () => {
    const account = await t.newAccount();
    for (const url of [
      'http://169.254.169.254/latest/meta-data',
      'https://169.254.169.254/',
      'https://10.0.0.7/hook',
      'https://[fd00::1]/hook',
      'https://metadata.google.internal/',
      'https://printer.local/hook',
      'https://user:pw@hooks.example.com/x',
      'http://hooks.example.com/plain-http',
      'ftp://hooks.example.com/x',
      'not a url',
    ]) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/webhooks',
        headers: bearer(account.key),
        payload: { url },
      });
      expect(res.statusCode, url).toBe(400);
      expect(res.json().error.code).toBe('VALIDATION_ERROR');
    }
    const unknownType = await t.app.inject({
      method: 'POST',
      url: '/webhooks',
      headers: bearer(account.key),
      payload: { url: 'https://hooks.example.com/x', event_types: ['nope.nothing'] },
    });
    expect(unknownType.statusCode).toBe(400);
    const free = await t.container.services.accounts.create({
      email: `nohooks-${Date.now()}@example.com`,
      name: 'Free',
      plan: 'free',
    });
    const refused = await t.app.inject({
      method: 'POST',
      url: '/webhooks',
      headers: bearer(free.key.key),
      payload: { url: 'https://hooks.example.com/x' },
    });
    expect(refused.statusCode).toBe(403);
    const types = (
      await t.app.inject({ method: 'GET', url: '/webhooks/event-types', headers: bearer(account.key) })
    ).json();
    expect(types.event_types.map((e: { type: string }) => e.type)).toEqual(
      expect.arrayContaining(['api_key.revoked', 'subscription.updated']),
    );
  });

  it("answers 404 for another account's endpoint and deliveries, and lists no secret", async () => {
    const owner = await t.newAccount();
    const other = await t.newAccount();
    const hook = await subscribe(t, owner.key, 'https://hooks.example.com/mine');
    for (const [method, url] of [
      ['GET', `/webhooks/${hook.id}`],
      ['DELETE', `/webhooks/${hook.id}`],
      ['GET', `/webhooks/${hook.id}/deliveries`],
      ['POST', `/webhooks/${hook.id}/deliveries/dlv_x/redeliver`],
    ] as const) {
      const res = await t.app.inject({ method, url, headers: bearer(other.key) });
      expect(res.statusCode, `${method} ${url}`).toBe(404);
    }
    const listed = await t.app.inject({ method: 'GET', url: '/webhooks', headers: bearer(owner.key) });
    expect(listed.json().webhooks.map((w: { id: string }) => w.id)).toEqual([hook.id]);
    expect(listed.body).not.toContain(hook.secret);
    expect(t.logs()).not.toContain(hook.secret);
    const deleted = await t.app.inject({
      method: 'DELETE',
      url: `/webhooks/${hook.id}`,
      headers: bearer(owner.key),
    });
    expect(deleted.statusCode).toBe(200);
    expect(
      (await t.app.inject({ method: 'GET', url: '/webhooks', headers: bearer(owner.key) })).json().webhooks,
    ).toEqual([]);
  });
});
