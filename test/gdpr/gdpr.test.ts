import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TABLES } from '../../src/domains/gdpr/registry.ts';
import { bearer, createTestApp, type TestApp } from '../helpers/app.ts';
import { DIALECTS } from '../helpers/databases.ts';
import { startReceiver } from '../helpers/receiver.ts';

/** Rows per table holding any of `needles` in any column, found by scanning every table in the database. */
async function scan(
  db: Kysely<unknown>,
  needles: string[],
  like: string[] = [],
): Promise<Record<string, number>> {
  const found: Record<string, number> = {};
  for (const table of await db.introspection.getTables()) {
    for (const column of table.columns) {
      const asText = sql`cast(${sql.ref(column.name)} as text)`;
      const conditions = [
        sql`${asText} in (${sql.join(needles)})`,
        ...like.map((text) => sql`lower(${asText}) like ${`%${text.toLowerCase()}%`}`),
      ];
      const { rows } = await sql<{
        n: number | string;
      }>`select count(*) as n from ${sql.table(table.name)} where ${sql.join(conditions, sql` or `)}`.execute(
        db,
      );
      const n = Number(rows[0]?.n ?? 0);
      if (n > 0) found[`${table.name}.${column.name}`] = n;
    }
  }
  return found;
}

describe.each(DIALECTS)('GDPR export and deletion on %s', (dialect) => {
  let t: TestApp;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  beforeAll(async () => {
    receiver = await startReceiver();
    t = await createTestApp(dialect, {
      env: { ARBITER_LOG_LEVEL: 'silent', ARBITER_WEBHOOK_ALLOW_LOOPBACK: 'true' },
    });
  });
  afterAll(async () => {
    await t.close();
    await receiver.close();
  });

  it('every table in the database is registered for export and deletion', async () => {
    const registered = new Set(TABLES.map((r) => r.table));
    const tables = (await t.container.db.kysely.introspection.getTables()).map((x) => x.name);
    expect(tables.filter((name) => !registered.has(name))).toEqual([]);
  });

  it('exports every record by id and no secret; deletion leaves only audit entries, pseudonymous', async () => {
    const email = `gdpr-${Math.random().toString(36).slice(2)}@example.com`;
    const name = 'Ada Lovelace-Gdprtest';
    const created = await t.container.services.accounts.create({ email, name, plan: 'free' });
    const accountId = created.account.id;
    const key = created.key.key;
    const call = (method: 'GET' | 'POST' | 'DELETE', url: string, payload?: object) =>
      t.app.inject({ method, url, headers: bearer(key), ...(payload ? { payload } : {}) });

    // Subscription and checkout session, through the local checkout.
    const checkout = (
      await call('POST', '/subscription/checkout', {
        plan_id: 'developer',
        success_url: 'https://shop.example/ok',
        cancel_url: 'https://shop.example/no',
      })
    ).json();
    await t.app.inject({ method: 'POST', url: `${new URL(checkout.checkout_url).pathname}/confirm` });
    // A webhook endpoint, a second key revoked (an event, a delivery and its attempt), usage.
    const hook = (
      await call('POST', '/webhooks', { url: `${receiver.url}/hook`, description: 'mine' })
    ).json();
    expect(hook.secret).toMatch(/^whsec_/);
    const second = (await call('POST', '/api-keys', { name: 'second' })).json();
    expect((await call('DELETE', `/api-keys/${second.id}`)).statusCode).toBe(200);
    for (let i = 0; i < 3; i++) await call('GET', '/v1/whoami');
    await t.container.meter.flush();
    await t.container.webhookWorker.tick();
    const deliveries = (await call('GET', `/webhooks/${hook.id}/deliveries`)).json().deliveries;
    expect(deliveries).toHaveLength(1);
    const auditIds = (await t.container.audit.repo.list(accountId, { limit: 1000 })).map((e) => e.id);

    const exported = await call('GET', '/gdpr/export');
    expect(exported.statusCode).toBe(200);
    const data = exported.json();
    expect(data.profile).toMatchObject({ id: accountId, email, name, plan: 'developer' });
    expect(data.api_keys.map((k: { id: string }) => k.id).sort()).toEqual([created.key.id, second.id].sort());
    expect(data.api_keys.every((k: { key: string }) => /^arbiter_sk_….{4}$/.test(k.key))).toBe(true);
    expect(data.billing.subscription).toMatchObject({
      account_id: accountId,
      plan: 'developer',
      status: 'active',
    });
    expect(data.billing.checkout_sessions.map((s: { id: string }) => s.id)).toEqual([checkout.session_id]);
    expect(data.webhooks.endpoints.map((e: { id: string }) => e.id)).toEqual([hook.id]);
    expect(data.webhooks.events.map((e: { id: string }) => e.id)).toEqual([deliveries[0].event_id]);
    expect(data.webhooks.deliveries.map((d: { id: string }) => d.id)).toEqual([deliveries[0].id]);
    expect(data.webhooks.attempts).toHaveLength(1);
    expect(data.usage.monthly.map((u: { key_id: string }) => u.key_id)).toContain(created.key.id);
    expect(data.usage.daily.length).toBeGreaterThan(0);
    expect(data.audit_log.map((e: { id: string }) => e.id)).toEqual(auditIds);
    expect(data).toHaveProperty('ledger_entries');
    expect(data).toHaveProperty('evaluations');
    const hashes = (
      await t.container.db.kysely
        .selectFrom('api_keys')
        .select('key_hash')
        .where('account_id', '=', accountId)
        .execute()
    ).map((r) => r.key_hash);
    for (const secret of [key, second.key, hook.secret, ...hashes])
      expect(exported.body).not.toContain(secret);
    expect(exported.body).not.toMatch(/key_hash|token_hash|"secret"/);

    const otherAccount = await t.newAccount();
    const deleted = await call('DELETE', '/gdpr/delete-account');
    expect(deleted.statusCode).toBe(200);
    expect(deleted.json()).toMatchObject({ success: true, message: expect.any(String) });
    // Every key stops at once.
    expect((await call('GET', '/v1/whoami')).statusCode).toBe(401);

    const ids = [
      accountId,
      created.key.id,
      second.id,
      hook.id,
      checkout.session_id,
      deliveries[0].id,
      deliveries[0].event_id,
    ];
    const left = await scan(t.container.db.kysely as Kysely<unknown>, ids, [email, name]);
    const retained = new Set(TABLES.filter((r) => r.kind === 'retained').map((r) => r.table));
    expect(Object.keys(left).filter((where) => !retained.has(where.split('.')[0]!))).toEqual([]);
    // What is kept names no one: neither the email nor the name is anywhere in the database.
    expect(
      await scan(t.container.db.kysely as Kysely<unknown>, ['not-an-id-anywhere'], [email, name]),
    ).toEqual({});
    expect(await t.container.audit.repo.verify(accountId)).toMatchObject({ valid: true });
    const trail = await t.container.audit.repo.list(accountId, { limit: 1000 });
    expect(trail.at(-1)).toMatchObject({ action: 'account.deleted' });
    expect(trail).toHaveLength(auditIds.length + 2); // + the export and the deletion

    // Nobody else lost anything.
    expect(
      (await t.app.inject({ method: 'GET', url: '/v1/whoami', headers: bearer(otherAccount.key) }))
        .statusCode,
    ).toBe(200);
    expect(
      (await t.app.inject({ method: 'GET', url: '/v1/whoami', headers: bearer(t.ownerKey) })).statusCode,
    ).toBe(200);
  });

  it("refuses to delete the operator's own account", async () => {
    const res = await t.app.inject({
      method: 'DELETE',
      url: '/gdpr/delete-account',
      headers: bearer(t.ownerKey),
    });
    expect(res.statusCode).toBe(403);
    expect(res.json().error.code).toBe('FORBIDDEN');
  });
});

describe.each(DIALECTS)('GDPR deletion racing a usage flush on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect, { env: { ARBITER_LOG_LEVEL: 'silent' } });
  });
  afterAll(async () => {
    await t.close();
  });

  it('leaves no usage row behind when a batch is written while the account is deleted', async () => {
    const { gdpr } = t.container.services;
    const accounts = await Promise.all(Array.from({ length: 12 }, () => t.newAccount()));
    for (const account of accounts) {
      for (let i = 0; i < 3; i++)
        t.container.meter.record(account.keyId, account.accountId, 'GET /v1/whoami');
      // The flush and the deletion run on two connections at once, in both start orders.
      const principal = { accountId: account.accountId, keyId: account.keyId, plan: 'free' };
      await Promise.all(
        accounts.indexOf(account) % 2 === 0
          ? [t.container.meter.flush(), gdpr.deleteAccount(principal)]
          : [gdpr.deleteAccount(principal), t.container.meter.flush()],
      );
    }
    const ids = accounts.map((a) => a.accountId);
    const db = t.container.db.kysely;
    const monthly = await db
      .selectFrom('usage_monthly')
      .select('account_id')
      .where('account_id', 'in', ids)
      .execute();
    const daily = await db
      .selectFrom('usage_daily')
      .select('account_id')
      .where('account_id', 'in', ids)
      .execute();
    expect([...monthly, ...daily]).toEqual([]);
  });
});
