import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, type TestApp } from '../helpers/app.ts';
import { DIALECTS } from '../helpers/databases.ts';

describe.each(DIALECTS)('API keys over HTTP on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(() => t.close());

  it('creates a key, shows its secret once and only masked afterwards', async () => {
    const created = await t.app.inject({
      method: 'POST',
      url: '/api-keys',
      headers: bearer(t.ownerKey),
      payload: { name: 'ci' },
    });
    expect(created.statusCode).toBe(201);
    const body = created.json();
    expect(body).toMatchObject({ success: true, name: 'ci', role: 'agent' });
    expect(body.key).toMatch(/^arbiter_sk_[0-9A-Za-z]{32,}$/);
    expect(body.id).toMatch(/^[0-9a-f-]{36}$/);

    const listed = await t.app.inject({ method: 'GET', url: '/api-keys', headers: bearer(t.ownerKey) });
    expect(listed.statusCode).toBe(200);
    const keys = listed.json() as Array<Record<string, unknown>>;
    const mine = keys.find((k) => k.id === body.id);
    expect(mine).toMatchObject({
      name: 'ci',
      role: 'agent',
      status: 'active',
      calls_this_month: 0,
      key: `arbiter_sk_…${body.key.slice(-4)}`,
    });
    expect(listed.body).not.toContain(body.key);
    expect(listed.body).not.toContain(t.ownerKey);
    expect(Object.keys(mine!).sort()).toEqual([
      'calls_this_month',
      'created_at',
      'id',
      'key',
      'name',
      'revoked_at',
      'role',
      'status',
    ]);
  });

  it('works with the new key and counts its calls this month', async () => {
    const created = (
      await t.app.inject({
        method: 'POST',
        url: '/api-keys',
        headers: bearer(t.ownerKey),
        payload: { name: 'counted', role: 'admin' },
      })
    ).json();
    for (let i = 0; i < 3; i++) {
      const r = await t.app.inject({ method: 'GET', url: '/v1/whoami', headers: bearer(created.key) });
      expect(r.statusCode).toBe(200);
      expect(r.json()).toEqual({ account_id: t.ownerId, key_id: created.id, plan: 'owner', role: 'admin' });
    }
    const count = async () =>
      (
        (
          await t.app.inject({ method: 'GET', url: '/api-keys', headers: bearer(created.key) })
        ).json() as Array<{ id: string; calls_this_month: number }>
      ).find((k) => k.id === created.id)!.calls_this_month;
    // The listing call itself is counted before it reads.
    expect(await count()).toBe(4);
    await t.container.meter.flush();
    expect(await count()).toBe(5);
  });

  it('revokes permanently: the key stops working at once on this instance', async () => {
    const created = (
      await t.app.inject({
        method: 'POST',
        url: '/api-keys',
        headers: bearer(t.ownerKey),
        payload: { name: 'doomed' },
      })
    ).json();
    expect(
      (await t.app.inject({ method: 'GET', url: '/v1/whoami', headers: bearer(created.key) })).statusCode,
    ).toBe(200);
    const del = await t.app.inject({
      method: 'DELETE',
      url: `/api-keys/${created.id}`,
      headers: bearer(t.ownerKey),
    });
    expect(del.statusCode).toBe(200);
    expect(del.json()).toEqual({ success: true });
    const after = await t.app.inject({ method: 'GET', url: '/v1/whoami', headers: bearer(created.key) });
    expect(after.statusCode).toBe(401);
    expect(after.json().error.code).toBe('UNAUTHENTICATED');
    const again = await t.app.inject({
      method: 'DELETE',
      url: `/api-keys/${created.id}`,
      headers: bearer(t.ownerKey),
    });
    // A repeated DELETE answers as one of a deleted claim does: there is nothing left to delete.
    expect(again.statusCode).toBe(404);
    expect(again.json().error.code).toBe('NOT_FOUND');
    expect(again.json().error.message).toContain('already revoked');
    const listed = (
      await t.app.inject({ method: 'GET', url: '/api-keys', headers: bearer(t.ownerKey) })
    ).json();
    expect(listed.find((k: { id: string }) => k.id === created.id)).toMatchObject({ status: 'revoked' });
  });

  it('refuses bad bodies with VALIDATION_ERROR naming the field', async () => {
    const cases = [{}, { name: '' }, { name: 42 }, { name: 'ok', scope: 'admin' }, []];
    for (const payload of cases) {
      const r = await t.app.inject({
        method: 'POST',
        url: '/api-keys',
        headers: bearer(t.ownerKey),
        payload,
      });
      expect(r.statusCode, JSON.stringify(payload)).toBe(400);
      expect(r.json()).toMatchObject({ success: false, error: { code: 'VALIDATION_ERROR' } });
      expect(r.json().request_id).toBe(r.headers['x-request-id']);
    }
  });

  it("answers 404 for another account's key and for unknown ids", async () => {
    const other = await t.newAccount();
    const del = await t.app.inject({
      method: 'DELETE',
      url: `/api-keys/${other.keyId}`,
      headers: bearer(t.ownerKey),
    });
    expect(del.statusCode).toBe(404);
    expect(
      (await t.app.inject({ method: 'GET', url: '/v1/whoami', headers: bearer(other.key) })).statusCode,
    ).toBe(200);
    const unknown = await t.app.inject({
      method: 'DELETE',
      url: '/api-keys/not-a-uuid',
      headers: bearer(t.ownerKey),
    });
    expect(unknown.statusCode).toBe(404);
    const list = (await t.app.inject({ method: 'GET', url: '/api-keys', headers: bearer(other.key) })).json();
    expect(list.map((k: { id: string }) => k.id)).toEqual([other.keyId]);
  });
});
