import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, type TestApp } from '../helpers/app.ts';

const TOKEN = 'operator-token-0123456789';

describe('operator API', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp('sqlite', { env: { ARBITER_ADMIN_TOKEN: TOKEN } });
  });
  afterAll(() => t.close());

  const create = (payload: object, token = TOKEN) =>
    t.app.inject({ method: 'POST', url: '/admin/accounts', headers: bearer(token), payload });

  it('creates an account on the free plan with a working first key', async () => {
    const res = await create({ email: 'New@Example.com', name: 'New' });
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body.account).toMatchObject({ email: 'new@example.com', plan: 'free' });
    const who = await t.app.inject({ method: 'GET', url: '/v1/whoami', headers: bearer(body.api_key.key) });
    expect(who.json()).toMatchObject({ account_id: body.account.id, plan: 'free' });
  });

  it('honours a named plan and refuses unknown plans and duplicate emails', async () => {
    expect(
      (await create({ email: 'dev@example.com', name: 'Dev', plan: 'developer' })).json().account.plan,
    ).toBe('developer');
    const dup = await create({ email: 'DEV@example.com', name: 'Dev again' });
    expect(dup.statusCode).toBe(409);
    const unknown = await create({ email: 'x@example.com', name: 'X', plan: 'platinum' });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().error.code).toBe('VALIDATION_ERROR');
    expect((await create({ email: 'not-an-email', name: 'X' })).statusCode).toBe(400);
  });

  it('refuses API keys and wrong tokens', async () => {
    expect((await create({ email: 'y@example.com', name: 'Y' }, t.ownerKey)).statusCode).toBe(401);
    expect((await create({ email: 'y@example.com', name: 'Y' }, `${TOKEN}x`)).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'POST', url: '/admin/accounts', payload: {} })).statusCode).toBe(
      401,
    );
  });

  it('is absent when no admin token is configured', async () => {
    const plain = await createTestApp('sqlite');
    const res = await plain.app.inject({
      method: 'POST',
      url: '/admin/accounts',
      headers: bearer(TOKEN),
      payload: {},
    });
    expect(res.statusCode).toBe(404);
    await plain.close();
  });
});
