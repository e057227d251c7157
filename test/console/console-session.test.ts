import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, type TestApp } from '../helpers/app.ts';
import { DIALECTS } from '../helpers/databases.ts';

const ENV = { ARBITER_LOG_LEVEL: 'silent' };
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

function cookieValue(setCookie: string | string[] | undefined, name: string): string | undefined {
  for (const c of [setCookie ?? []].flat()) {
    if (c.startsWith(`${name}=`)) return c.slice(name.length + 1).split(';')[0];
  }
  return undefined;
}

function csrfOf(body: string): string {
  const m = /name="_csrf" value="([^"]+)"/.exec(body);
  if (!m) throw new Error('the page has no anti-forgery field');
  return m[1]!;
}

async function signIn(t: TestApp, key: string) {
  const form = await t.app.inject({ method: 'GET', url: '/console' });
  const pre = cookieValue(form.headers['set-cookie'], 'arbiter_console_signin')!;
  const res = await t.app.inject({
    method: 'POST',
    url: '/console/sign-in',
    headers: { ...FORM, cookie: `arbiter_console_signin=${pre}` },
    payload: new URLSearchParams({ _csrf: csrfOf(form.body), api_key: key }).toString(),
  });
  expect(res.statusCode).toBe(303);
  const token = cookieValue(res.headers['set-cookie'], 'arbiter_console')!;
  const cookie = `arbiter_console=${token}`;
  const page = await t.app.inject({ method: 'GET', url: '/console/keys', headers: { cookie } });
  return { token, cookie, csrf: csrfOf(page.body), setCookie: res.headers['set-cookie'] };
}

describe.each(DIALECTS)('console sessions and security on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect, { env: ENV });
  });
  afterAll(() => t.close());

  const get = (url: string, cookie?: string) =>
    t.app.inject({ method: 'GET', url, headers: cookie ? { cookie } : {} });
  const post = (url: string, cookie: string, fields: Record<string, string>, headers = {}) =>
    t.app.inject({
      method: 'POST',
      url,
      headers: { ...FORM, cookie, ...headers },
      payload: new URLSearchParams(fields).toString(),
    });

  it('serves the sign-in form with strict security headers and no inline script', async () => {
    const res = await get('/console');
    expect(res.statusCode).toBe(200);
    expect(res.body).toMatch(/<label for="api-key">API key<\/label>/);
    expect(res.body).toMatch(/<input[^>]+id="api-key"/);
    expect(res.body).toMatch(/<button type="submit" class="primary">Sign in<\/button>/);
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain('unsafe-inline');
    expect(res.headers['x-frame-options']).toBe('DENY');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    // Every script the page loads comes from the service; none is written inline.
    for (const tag of res.body.match(/<script[^>]*>[^<]*<\/script>/g) ?? []) {
      expect(tag).toMatch(/^<script src="\/console\/assets\/[^"]+"[^>]*><\/script>$/);
    }
    const htmx = await get('/console/assets/htmx.min.js');
    expect(htmx.statusCode).toBe(200);
    expect(htmx.headers['content-type']).toMatch(/javascript/);
  });

  it('keeps only a hash of the session token, in an HttpOnly, SameSite=Strict cookie', async () => {
    const account = await t.newAccount();
    const session = await signIn(t, account.key);
    const set = [session.setCookie].flat().find((c) => String(c).startsWith('arbiter_console='))!;
    expect(set).toMatch(/; HttpOnly/);
    expect(set).toMatch(/; SameSite=Strict/);
    expect(set).toMatch(/; Path=\/console/);
    expect(set).not.toMatch(/Secure/);
    const rows = await t.container.db.kysely
      .selectFrom('console_sessions')
      .selectAll()
      .where('account_id', '=', account.accountId)
      .execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]!.token_hash).toBe(createHash('sha256').update(session.token).digest('hex'));
    expect(JSON.stringify(rows)).not.toContain(session.token);
    expect(t.logs()).not.toContain(session.token);
  });

  it('marks the cookie Secure when the console is served over TLS', async () => {
    const tls = await createTestApp(dialect, {
      env: { ...ENV, ARBITER_PUBLIC_URL: 'https://arbiter.example.com' },
    });
    try {
      const session = await signIn(tls, tls.ownerKey);
      const set = [session.setCookie].flat().find((c) => String(c).startsWith('arbiter_console='))!;
      expect(set).toMatch(/; Secure/);
    } finally {
      await tls.close();
    }
  });

  it('refuses a sign-in without the form token or from another site, and a wrong key', async () => {
    const account = await t.newAccount();
    const form = await get('/console');
    const pre = cookieValue(form.headers['set-cookie'], 'arbiter_console_signin')!;
    const noToken = await post('/console/sign-in', `arbiter_console_signin=${pre}`, { api_key: account.key });
    expect(noToken.statusCode).toBe(403);
    expect(cookieValue(noToken.headers['set-cookie'], 'arbiter_console')).toBeUndefined();
    const foreign = await post(
      '/console/sign-in',
      `arbiter_console_signin=${pre}`,
      { _csrf: pre, api_key: account.key },
      { origin: 'https://evil.example' },
    );
    expect(foreign.statusCode).toBe(403);
    const wrongKey = await post('/console/sign-in', `arbiter_console_signin=${pre}`, {
      _csrf: pre,
      api_key: 'arbiter_sk_wrong',
    });
    expect(wrongKey.statusCode).toBe(401);
    expect(wrongKey.body).toContain('unknown or revoked');
  });

  it('refuses changes without the session token or from another site, and changes nothing', async () => {
    const account = await t.newAccount();
    const { cookie, csrf } = await signIn(t, account.key);
    const before = (await t.container.services.apiKeys.list(account.accountId)).length;
    expect((await post('/console/keys', cookie, { name: 'a' })).statusCode).toBe(403);
    expect(
      (
        await post('/console/keys', cookie, {
          name: 'b',
          _csrf: `${csrf.slice(0, -1)}${csrf.endsWith('0') ? '1' : '0'}`,
        })
      ).statusCode,
    ).toBe(403);
    const other = await signIn(t, (await t.newAccount()).key);
    expect((await post('/console/keys', cookie, { name: 'c', _csrf: other.csrf })).statusCode).toBe(403);
    expect(
      (await post('/console/keys', cookie, { name: 'd', _csrf: csrf }, { origin: 'https://evil.example' }))
        .statusCode,
    ).toBe(403);
    expect((await t.container.services.apiKeys.list(account.accountId)).length).toBe(before);
    // With its token the same request works, and shows the new key once.
    const made = await post('/console/keys', cookie, { name: 'made-here', _csrf: csrf });
    expect(made.statusCode).toBe(200);
    const secret = /<code class="secret" id="new-key">([^<]+)<\/code>/.exec(made.body)![1]!;
    // A key made in the console without a role is an agent's.
    const whoami = await t.app.inject({ method: 'GET', url: '/v1/whoami', headers: bearer(secret) });
    expect(whoami.statusCode).toBe(200);
    expect(whoami.json().role).toBe('agent');
    const list = await get('/console/keys', cookie);
    expect(list.body).toContain('made-here');
    expect(list.body).not.toContain(secret);
    expect(list.body).toContain(`…${secret.slice(-4)}`);
  });

  it('ends the session on sign-out, on expiry, and when its key is revoked', async () => {
    const account = await t.newAccount();
    const out = await signIn(t, account.key);
    expect((await get('/console/escalations', out.cookie)).statusCode).toBe(200);
    const signOut = await post('/console/sign-out', out.cookie, { _csrf: out.csrf });
    expect(signOut.statusCode).toBe(303);
    const after = await get('/console/escalations', out.cookie);
    expect(after.statusCode).toBe(303);
    expect(after.headers.location).toBe('/console');

    const expiring = await signIn(t, account.key);
    await t.container.db.kysely
      .updateTable('console_sessions')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('token_hash', '=', createHash('sha256').update(expiring.token).digest('hex'))
      .execute();
    expect((await get('/console/escalations', expiring.cookie)).statusCode).toBe(303);
    expect(
      (await post('/console/keys', expiring.cookie, { name: 'x', _csrf: expiring.csrf })).statusCode,
    ).toBe(401);

    const second = await t.container.services.apiKeys.create(account.accountId, 'second', { role: 'admin' });
    const revoked = await signIn(t, second.key);
    expect((await get('/console/escalations', revoked.cookie)).statusCode).toBe(200);
    const del = await t.app.inject({
      method: 'DELETE',
      url: `/api-keys/${second.id}`,
      headers: bearer(account.key),
    });
    expect(del.statusCode).toBe(200);
    expect((await get('/console/escalations', revoked.cookie)).statusCode).toBe(303);
  });

  it('sees a sign-in and a revocation from another instance on the same database', async () => {
    const other = await createTestApp(dialect, { env: ENV, database: t.db });
    try {
      const account = await t.newAccount();
      const key = await t.container.services.apiKeys.create(account.accountId, 'shared', { role: 'admin' });
      const session = await signIn(t, key.key);
      expect(
        (await other.app.inject({ method: 'GET', url: '/console/keys', headers: { cookie: session.cookie } }))
          .statusCode,
      ).toBe(200);
      // Revoked in the console of the second instance: the first no longer admits the session.
      const own = await signIn(other, account.key);
      const revoke = await other.app.inject({
        method: 'POST',
        url: `/console/keys/${key.id}/revoke`,
        headers: { ...FORM, cookie: own.cookie },
        payload: new URLSearchParams({ _csrf: own.csrf }).toString(),
      });
      expect(revoke.statusCode).toBe(200);
      expect((await get('/console/keys', session.cookie)).statusCode).toBe(303);
    } finally {
      await other.app.close();
      await other.container.close();
    }
  });

  it('shows policy errors at their line and column, and saves a valid policy', async () => {
    const account = await t.newAccount();
    const { cookie, csrf } = await signIn(t, account.key);
    const bad = await post('/console/policies', cookie, {
      _csrf: csrf,
      text: 'permit(principal, action, resource);\nforbid(principal, action, resource) when { nonsense +++ };',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toMatch(/Line 2, column \d+: /);
    expect(bad.body).toContain('aria-invalid="true"');
    const current = (
      await t.app.inject({ method: 'GET', url: '/v2/policies', headers: bearer(account.key) })
    ).json();
    const good = await post('/console/policies', cookie, { _csrf: csrf, text: current.policies });
    expect(good.statusCode).toBe(200);
    expect(good.body).toContain(`Saved as version ${current.version + 1}`);
  });

  it('verifies the memory and audit chains from their pages', async () => {
    const account = await t.newAccount();
    await t.app.inject({
      method: 'POST',
      url: '/v2/vault/store',
      headers: bearer(account.key),
      payload: { claim: 'The depot closes at six', source: 'ops', confidence: 0.8 },
    });
    const { cookie, csrf } = await signIn(t, account.key);
    const memory = await post('/console/memory/verify', cookie, { _csrf: csrf });
    expect(memory.body).toContain('The chain holds: 1 entries verified');
    const audit = await post('/console/audit/verify', cookie, { _csrf: csrf });
    expect(audit.body).toMatch(/The chain holds: \d+ entries verified/);
    const unknown = await get('/console/memory?q=submarine+quantum+zebra', cookie);
    expect(unknown.body).toContain('<strong>unknown</strong>');
  });

  it('moves an expired escalation to the history, and sends a poll of an ended session to sign-in', async () => {
    const account = await t.newAccount();
    const asked = await t.app.inject({
      method: 'POST',
      url: '/v2/actions/evaluate',
      headers: bearer(account.key),
      payload: {
        action_type: 'http.request',
        actor: 'late-actor',
        actor_role: 'assistant',
        impact_scope: 'external',
        payload: { url: 'https://api.github.com/repos/acme/app/issues', method: 'POST' },
      },
    });
    const id = asked.json().evaluation_id as string;
    const approver = await t.container.services.apiKeys.create(account.accountId, 'approver', {
      role: 'operator',
    });
    const { cookie, token } = await signIn(t, approver.key);
    const pending = await get('/console/escalations', cookie);
    expect(pending.body).toMatch(/Pending \(1\)/);
    const since = /since=([A-Za-z0-9_-]+)/.exec(pending.body)![1]!;
    // Nothing changed: the poll answers 204 and the page keeps what it shows.
    const poll = await t.app.inject({
      method: 'GET',
      url: `/console/escalations/pending?since=${since}`,
      headers: { cookie, 'hx-request': 'true' },
    });
    expect(poll.statusCode).toBe(204);

    await t.container.db.kysely
      .updateTable('judgment_evaluations')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('id', '=', id)
      .execute();
    const changed = await get(`/console/escalations/pending?since=${since}`, cookie);
    expect(changed.statusCode).toBe(200);
    expect(changed.body).toMatch(/Pending \(0\)/);
    const page = await get('/console/escalations', cookie);
    expect(page.body).toMatch(/<span class="badge expired">expired<\/span>/);
    expect(page.body).toContain('late-actor');

    await t.container.db.kysely
      .deleteFrom('console_sessions')
      .where('token_hash', '=', createHash('sha256').update(token).digest('hex'))
      .execute();
    const ended = await t.app.inject({
      method: 'GET',
      url: `/console/escalations/pending?since=${since}`,
      headers: { cookie, 'hx-request': 'true' },
    });
    expect(ended.statusCode).toBe(401);
    expect(ended.headers['hx-redirect']).toBe('/console');
  });

  it('shows claims by status with their versions, and the conflicts kept and superseded', async () => {
    const account = await t.newAccount();
    const store = async (body: object) =>
      (
        await t.app.inject({
          method: 'POST',
          url: '/v2/vault/store',
          headers: bearer(account.key),
          payload: body,
        })
      ).json();
    const open = await store({
      claim: 'The Berlin office is open on Sundays.',
      source: 'wiki',
      confidence: 0.8,
    });
    const kept = await store({
      claim: 'The Berlin office is not open on Sundays.',
      source: 'manager',
      confidence: 0.9,
    });
    expect(kept.conflicts).toHaveLength(1);
    const superseding = await store({
      claim: 'The Berlin office is closed on Sundays.',
      source: 'hr',
      confidence: 0.95,
      on_conflict: 'supersede',
    });
    expect(superseding.superseded).toContain(open.id);
    await store({ claim: 'The Berlin office is closed on Sundays', source: 'hr', confidence: 0.99 });
    const { cookie } = await signIn(t, account.key);

    const memory = await get('/console/memory', cookie);
    const conflicts = memory.body.slice(memory.body.indexOf('id="conflicts-title"'));
    expect(conflicts).toMatch(
      /Resolved by supersession[\s\S]*The Berlin office is open on Sundays\.<\/a><\/td>\s*<td><a [^>]+>The Berlin office is closed on Sundays<\/a>/,
    );
    expect(conflicts).toMatch(
      /despite a conflict[\s\S]*The Berlin office is not open on Sundays\.[\s\S]*1 stored claim/,
    );
    const superseded = (await get('/console/memory?status=superseded', cookie)).body;
    const listed = superseded.slice(
      superseded.indexOf('id="claims-title"'),
      superseded.indexOf('id="conflicts-title"'),
    );
    expect(listed).toContain('The Berlin office is open on Sundays.');
    expect(listed).not.toContain('The Berlin office is not open on Sundays.');
    // A second version of the same normalised claim (the replacement shows its current text): both versions are on its page.
    const claim = await get(`/console/memory/claims/${superseding.id}`, cookie);
    expect(claim.statusCode).toBe(200);
    expect(claim.body).toMatch(/<td class="num">2<\/td><td>The Berlin office is closed on Sundays<\/td>/);
    expect(claim.body).toMatch(/<td class="num">1<\/td><td>The Berlin office is closed on Sundays\.<\/td>/);
    const foreign = await signIn(t, (await t.newAccount()).key);
    expect((await get(`/console/memory/claims/${superseding.id}`, foreign.cookie)).statusCode).toBe(404);
  });

  it('draws calls per day and verdicts per code, with the quota left of the plan', async () => {
    const created = await t.container.services.accounts.create({
      email: `usage-${Date.now()}@example.com`,
      name: 'Usage',
      plan: 'free',
    });
    const key = created.key.key;
    const verdict = (payload: object) =>
      t.app.inject({
        method: 'POST',
        url: '/v1/evaluate',
        headers: bearer(key),
        payload: { action: 'shell.exec', payload },
      });
    await verdict({ command: 'rm -rf /' });
    await verdict({ command: 'rm -rf /' });
    await verdict({ command: 'ls' });
    await t.container.audit.flush();
    const { cookie } = await signIn(t, key);
    await expect
      .poll(async () => (await get('/console/usage', cookie)).body, { timeout: 5000 })
      .toMatch(/<title>[A-Z_]+: 2<\/title>/);
    const page = (await get('/console/usage', cookie)).body;
    expect(page).toMatch(/<title>OK: 1<\/title>/);
    expect(page).toMatch(
      /<title id="chart-title">API calls per day this month, at most 3 on one day<\/title>/,
    );
    expect(page).toMatch(/<dd id="quota-left">997<\/dd>/);
    expect(page).toContain('<td><code>POST /v1/evaluate</code></td><td class="num">3</td>');
  });
});
