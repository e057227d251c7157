import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { createContainer } from '../../src/container.ts';
import { migrateDown, migrateToLatest, openDatabase } from '../../src/db/database.ts';
import { generateKey, hashKey } from '../../src/domains/api-keys/key-format.ts';
import { createLogger } from '../../src/logger.ts';
import { bearer, createTestApp, type TestApp } from '../helpers/app.ts';
import { DIALECTS, freshDatabase } from '../helpers/databases.ts';

const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

/** An assistant deleting a file: escalated by the default policy, so it waits for a person. */
const ESCALATING = {
  action_type: 'fs.delete',
  actor: 'who-decides',
  actor_role: 'assistant',
  impact_scope: 'internal',
  payload: { path: 'build/output.txt' },
};

function cookieValue(setCookie: string | string[] | undefined, name: string): string | undefined {
  for (const c of [setCookie ?? []].flat()) {
    if (c.startsWith(`${name}=`)) return c.slice(name.length + 1).split(';')[0];
  }
  return undefined;
}

describe.each(DIALECTS)('who may loosen the guard, on %s', (dialect) => {
  let t: TestApp;
  let admin: string;
  let operator: string;
  let agent: string;

  const call = (key: string, method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) =>
    t.app.inject({ method, url, headers: bearer(key), ...(payload === undefined ? {} : { payload }) });
  let calls = 0;
  const escalate = async (key: string): Promise<string> => {
    // A path of its own each time, so the loop gate never sees the same call repeated.
    const payload = { path: `build/output-${++calls}.txt` };
    const res = await call(key, 'POST', '/v2/actions/evaluate', { ...ESCALATING, payload });
    expect(res.json().decision).toBe('ESCALATE');
    return res.json().evaluation_id;
  };

  beforeAll(async () => {
    t = await createTestApp(dialect);
    admin = t.ownerKey;
    const make = async (role: 'operator' | 'agent') =>
      (await call(admin, 'POST', '/api-keys', { name: role, ...(role === 'agent' ? {} : { role }) })).json();
    const op = await make('operator');
    const ag = await make('agent');
    expect(op.role).toBe('operator');
    expect(ag.role).toBe('agent'); // the default
    operator = op.key;
    agent = ag.key;
  });
  afterAll(() => t.close());

  it("shows the key's role to whoami", async () => {
    expect((await call(agent, 'GET', '/v1/whoami')).json().role).toBe('agent');
    expect((await call(operator, 'GET', '/v1/whoami')).json().role).toBe('operator');
    expect((await call(admin, 'GET', '/v1/whoami')).json().role).toBe('admin');
  });

  it('an agent key cannot approve its own escalation through a second key: it cannot make one', async () => {
    const id = await escalate(agent);
    const second = await call(agent, 'POST', '/api-keys', { name: 'my approver', role: 'agent' });
    expect(second.statusCode).toBe(403);
    expect(second.json().error.details.required_role).toBe('admin');
    const approve = await call(agent, 'POST', `/v2/actions/evaluations/${id}/approve`, {});
    expect(approve.statusCode).toBe(403);
    expect(approve.json().error.details.required_role).toBe('operator');
    expect((await call(agent, 'GET', `/v2/actions/evaluations/${id}`)).json().status).toBe('pending');
  });

  it('an agent key cannot loosen its own settings or policy', async () => {
    for (const [url, body] of [
      ['/v1/settings/execution', { allow_opaque: true }],
      ['/v1/settings/egress', { mode: 'denylist', trusted_domains: [], blocked_domains: [] }],
      ['/v2/policies', { policies: 'permit (principal, action, resource);' }],
    ] as const) {
      const res = await call(agent, 'PUT', url, body);
      expect(res.statusCode, url).toBe(403);
    }
  });

  it('an operator cannot decide an evaluation it asked for; another operator can', async () => {
    const id = await escalate(operator);
    const own = await call(operator, 'POST', `/v2/actions/evaluations/${id}/approve`, {});
    expect(own.statusCode).toBe(403);
    expect(own.json().error.message).toMatch(/key that asked/);
    const other = (
      await call(admin, 'POST', '/api-keys', { name: 'second operator', role: 'operator' })
    ).json().key as string;
    const decided = await call(other, 'POST', `/v2/actions/evaluations/${id}/deny`, { comment: 'no' });
    expect(decided.statusCode).toBe(200);
    expect(decided.json().status).toBe('denied');
  });

  it('an operator makes no keys, and no key makes one above its own role', async () => {
    expect((await call(operator, 'POST', '/api-keys', { name: 'x' })).statusCode).toBe(403);
    const accountId = (await call(operator, 'GET', '/v1/whoami')).json().account_id;
    await expect(
      t.container.services.apiKeys.create(accountId, 'x', { role: 'admin', actorRole: 'operator' }),
    ).rejects.toMatchObject({ code: 'FORBIDDEN' });
  });

  it('an agent key reads the evaluations it asked for, people read them all', async () => {
    const mine = await escalate(agent);
    const theirs = await escalate(operator);
    const listed = (await call(agent, 'GET', '/v2/actions/evaluations?limit=200')).json()
      .evaluations as Array<{
      evaluation_id: string;
    }>;
    const ids = listed.map((e) => e.evaluation_id);
    expect(ids).toContain(mine);
    expect(ids).not.toContain(theirs);
    expect((await call(agent, 'GET', `/v2/actions/evaluations/${theirs}`)).statusCode).toBe(404);
    const all = (await call(operator, 'GET', '/v2/actions/evaluations?limit=200')).json()
      .evaluations as Array<{
      evaluation_id: string;
    }>;
    expect(all.map((e) => e.evaluation_id)).toEqual(expect.arrayContaining([mine, theirs]));
  });

  it('records the role of a new key in the audit log', async () => {
    const created = (await call(admin, 'POST', '/api-keys', { name: 'audited', role: 'operator' })).json();
    const entries = await t.container.audit.repo.list(t.ownerId, { limit: 500 });
    const entry = entries.find((e) => e.action === 'api_key.created' && e.target === created.id);
    expect(entry?.details).toMatchObject({ name: 'audited', role: 'operator' });
  });

  describe('the console', () => {
    async function signIn(key: string) {
      const form = await t.app.inject({ method: 'GET', url: '/console' });
      const pre = cookieValue(form.headers['set-cookie'], 'arbiter_console_signin')!;
      const csrf = /name="_csrf" value="([^"]+)"/.exec(form.body)![1]!;
      return t.app.inject({
        method: 'POST',
        url: '/console/sign-in',
        headers: { ...FORM, cookie: `arbiter_console_signin=${pre}` },
        payload: new URLSearchParams({ _csrf: csrf, api_key: key }).toString(),
      });
    }
    const page = (res: Awaited<ReturnType<typeof signIn>>, url: string) =>
      t.app.inject({
        method: 'GET',
        url,
        headers: { cookie: `arbiter_console=${cookieValue(res.headers['set-cookie'], 'arbiter_console')}` },
      });

    it('refuses an agent key at sign-in', async () => {
      const res = await signIn(agent);
      expect(res.statusCode).toBe(403);
      expect(res.body).toContain('The console needs an operator or admin key');
      expect(cookieValue(res.headers['set-cookie'], 'arbiter_console')).toBeUndefined();
    });

    it('lets an operator decide escalations but not manage keys; an admin manages keys', async () => {
      const asOperator = await signIn(operator);
      expect(asOperator.statusCode).toBe(303);
      const escalations = await page(asOperator, '/console/escalations');
      expect(escalations.statusCode).toBe(200);
      expect(escalations.body).not.toContain('href="/console/keys"');
      expect((await page(asOperator, '/console/keys')).statusCode).toBe(403);

      const asAdmin = await signIn(admin);
      const keys = await page(asAdmin, '/console/keys');
      expect(keys.statusCode).toBe(200);
      expect(keys.body).toContain('<option value="agent" selected>');
      expect(keys.body).toMatch(/<td>operator<\/td>/);
    });
  });
});

describe.each(DIALECTS)('upgrading a database with keys on %s', (dialect) => {
  it('keeps the keys made before roles at full power, as admin, and says so once', async () => {
    const tdb = await freshDatabase(dialect);
    try {
      const db = openDatabase(tdb.database);
      await migrateToLatest(db);
      const downs: string[] = [];
      for (let i = 0; i < 30 && !downs.includes('Down 202611281000_key_roles'); i++) {
        downs.push(...(await migrateDown(db)));
      }
      expect(downs).toContain('Down 202611281000_key_roles');
      const secret = generateKey();
      await db.kysely
        .insertInto('accounts')
        .values({
          id: 'acc-old',
          email: 'old@example.com',
          name: 'Old',
          plan: 'free',
          created_at: '2026-01-01T00:00:00Z',
        })
        .execute();
      // Written as the schema stood before roles: no role column yet.
      await (db.kysely as unknown as import('kysely').Kysely<Record<string, Record<string, unknown>>>)
        .insertInto('api_keys')
        .values({
          id: '00000000-0000-4000-8000-00000000a11d',
          account_id: 'acc-old',
          name: 'old',
          key_hash: hashKey(secret),
          key_last4: secret.slice(-4),
          created_at: '2026-01-01T00:00:00Z',
          revoked_at: null,
        })
        .execute();
      await db.close();

      const start = async () => {
        let logs = '';
        const sink = new Writable({
          write(chunk, _enc, done) {
            logs += chunk.toString();
            done();
          },
        });
        const env = {
          ARBITER_DATA_DIR: tdb.dir,
          ARBITER_EMBEDDER: 'hash',
          ...(tdb.database.kind === 'postgres' ? { DATABASE_URL: tdb.database.url } : {}),
        };
        const config = loadConfig(env);
        const container = await createContainer(config, createLogger('info', sink));
        return { container, logs: () => logs };
      };
      const first = await start();
      const principal = await first.container.services.apiKeys.authenticate(secret);
      expect(principal.role).toBe('admin');
      expect(first.logs()).toMatch(/1 API key\(s\) made before key roles keep full power as admin keys/);
      await first.container.close();

      const second = await start();
      expect(second.logs()).not.toMatch(/made before key roles/);
      await second.container.close();
    } finally {
      await tdb.drop();
    }
  });
});
