import fs from 'node:fs';
import path from 'node:path';
import axe from 'axe-core';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, type TestApp } from '../helpers/app.ts';
import { closePage, HAS_CHROMIUM, launchBrowser } from '../helpers/browser.ts';
import { DIALECTS } from '../helpers/databases.ts';
import { startReceiver } from '../helpers/receiver.ts';

/** Screenshots of every page, kept as test artifacts (not committed). */
const ARTIFACTS = process.env.ARBITER_ARTIFACTS_DIR ?? path.resolve('test-artifacts/console');

const PAGES = [
  '/console/escalations',
  '/console/evaluations',
  '/console/verdicts',
  '/console/memory',
  '/console/audit',
  '/console/usage',
  '/console/keys',
  '/console/webhooks',
  '/console/policies',
] as const;

const escalating = (actor: string) => ({
  action_type: 'http.request',
  actor,
  actor_role: 'assistant',
  impact_scope: 'external',
  payload: { url: 'https://api.github.com/repos/acme/app/issues', method: 'POST', body: { title: actor } },
});

describe.skipIf(!HAS_CHROMIUM).each(DIALECTS)('operator console in Chromium on %s', (dialect) => {
  let t: TestApp;
  let base: string;
  let browser: Awaited<ReturnType<typeof launchBrowser>>;
  /** Account A: `asker` asks for actions, `approver` decides them in the console. */
  let a: { accountId: string; asker: string; approver: string; approverId: string };
  /** Account B: its data must never show in A's console. */
  let b: { accountId: string; key: string; keyId: string; evaluationId: string; markers: string[] };

  const api = (method: 'GET' | 'POST', url: string, key: string, payload?: object) =>
    t.app.inject({ method, url, headers: bearer(key), ...(payload ? { payload } : {}) });
  const escalate = async (key: string, actor: string) => {
    const res = await api('POST', '/v2/actions/evaluate', key, escalating(actor));
    expect(res.json()).toMatchObject({ decision: 'ESCALATE', status: 'pending' });
    return res.json().evaluation_id as string;
  };
  const statusOf = async (id: string, key: string) =>
    (await api('GET', `/v2/actions/evaluations/${id}`, key)).json().status as string;

  /** What the browser reported against the pages: CSP refusals, script errors. */
  const browserErrors: string[] = [];
  function watch(page: Page): Page {
    page.on('console', (m) => {
      if (m.type() === 'error') browserErrors.push(`${page.url()}: ${m.text()}`);
    });
    page.on('pageerror', (e) => browserErrors.push(`${page.url()}: ${e.message}`));
    return page;
  }

  async function signIn(context: BrowserContext, key: string): Promise<Page> {
    await context.clearCookies();
    const page = watch(await context.newPage());
    page.setDefaultTimeout(5000);
    await page.goto(`${base}/console`);
    await page.getByLabel('API key').fill(key);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`${base}/console/escalations`);
    return page;
  }

  beforeAll(async () => {
    t = await createTestApp(dialect, {
      env: {
        ARBITER_LOG_LEVEL: 'silent',
        ARBITER_WEBHOOK_ALLOW_LOOPBACK: 'true',
        ARBITER_WEBHOOK_POLL_MS: '20',
      },
    });
    base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const first = await t.newAccount();
    const approver = await t.container.services.apiKeys.create(first.accountId, 'approver', {
      role: 'admin',
    });
    a = { accountId: first.accountId, asker: first.key, approver: approver.key, approverId: approver.id };
    await api('POST', '/v1/evaluate', a.asker, { action: 'shell.exec', payload: { command: 'rm -rf /' } });
    await api('POST', '/v1/evaluate', a.asker, { action: 'shell.exec', payload: { command: 'ls -la' } });
    await api('POST', '/v2/vault/store', a.asker, {
      claim: 'The alpha warehouse opens at nine',
      source: 'ops',
      confidence: 0.9,
    });

    // Account B gets something on every page, each with a marker that must not leak.
    const second = await t.newAccount();
    const markers = [
      'bravo-secret-actor',
      'bravo secret lighthouse claim',
      'bravo-key-name',
      'bravo-hook.example',
    ];
    const evaluationId = await escalate(second.key, 'bravo-secret-actor');
    await api('POST', '/v2/vault/store', second.key, {
      claim: 'The bravo secret lighthouse claim',
      source: 'b',
      confidence: 0.9,
    });
    await t.container.services.apiKeys.create(second.accountId, 'bravo-key-name');
    await api('POST', '/webhooks', second.key, { url: 'https://bravo-hook.example/in' });
    await api('POST', '/v1/evaluate', second.key, { action: 'shell.exec', payload: { command: 'rm -rf /' } });
    b = {
      accountId: second.accountId,
      key: second.key,
      keyId: second.keyId,
      evaluationId,
      markers: [...markers, second.accountId, second.keyId, evaluationId],
    };
    browser = await launchBrowser();
    fs.mkdirSync(ARTIFACTS, { recursive: true });
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it('signs in with a key into an HttpOnly, SameSite=Strict session cookie', async () => {
    const page = watch(await browser.context.newPage());
    page.setDefaultTimeout(5000);
    const res = await page.goto(`${base}/console`);
    expect(res?.headers()['content-security-policy']).toMatch(/script-src 'self'/);
    await page.screenshot({ path: path.join(ARTIFACTS, `${dialect}-sign-in.png`), fullPage: true });
    await page.getByLabel('API key').fill('arbiter_sk_not_a_real_key_at_all_0000000000');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByRole('alert').textContent()).resolves.toMatch(/unknown or revoked/);
    await closePage(page);

    const signed = await signIn(browser.context, a.approver);
    const session = (await browser.context.cookies(`${base}/console`)).find(
      (c) => c.name === 'arbiter_console',
    );
    expect(session).toMatchObject({ httpOnly: true, sameSite: 'Strict', secure: false, path: '/console' });
    await expect(signed.getByRole('link', { name: /Escalations/ }).count()).resolves.toBe(1);
    await signed.close();
  });

  it('shows a new escalation without a reload, and approving it there approves it in the API', async () => {
    const page = await signIn(browser.context, a.approver);
    let reloads = 0;
    page.on('load', () => reloads++);
    const id = await escalate(a.asker, 'live-actor-1');
    const item = page.locator('li.escalation', { hasText: 'live-actor-1' });
    await item.waitFor({ state: 'visible', timeout: 2000 });
    expect(reloads).toBe(0);
    await expect(item.getByRole('button', { name: 'Approve' }).getAttribute('formaction')).resolves.toContain(
      id,
    );
    await expect(item.getByRole('button', { name: 'Deny' }).getAttribute('formaction')).resolves.toContain(
      id,
    );
    await item.getByLabel('Comment (optional)').fill('looks fine');
    await item.getByRole('button', { name: 'Approve' }).click();
    await expect.poll(() => statusOf(id, a.asker)).toBe('approved');
    const evaluation = (await api('GET', `/v2/actions/evaluations/${id}`, a.asker)).json();
    expect(evaluation).toMatchObject({ decided_by: a.approverId, comment: 'looks fine' });
    await expect(page.getByRole('status').first().textContent()).resolves.toContain('approved');

    const denied = await escalate(a.asker, 'live-actor-2');
    const second = page.locator('li.escalation', { hasText: 'live-actor-2' });
    await second.waitFor({ state: 'visible', timeout: 2000 });
    await second.getByRole('button', { name: 'Deny' }).click();
    await expect.poll(() => statusOf(denied, a.asker)).toBe('denied');
    await page.getByRole('status').first().waitFor();
    await expect(page.locator('table').first().textContent()).resolves.toContain('live-actor-2');
    await closePage(page);
  });

  it('does not let the key that asked decide, in the console either', async () => {
    const id = await escalate(a.asker, 'self-approver');
    const browser2 = await launchBrowser();
    try {
      const page = await signIn(browser2.context, a.asker);
      const item = page.locator('li.escalation', { hasText: 'self-approver' });
      await item.getByRole('button', { name: 'Approve' }).click();
      await expect(page.getByRole('alert').textContent()).resolves.toMatch(/key that asked/);
      expect(await statusOf(id, a.approver)).toBe('pending');
    } finally {
      await browser2.close();
    }
  });

  it('refuses a state-changing POST without its CSRF token, and changes nothing', async () => {
    const id = await escalate(a.asker, 'csrf-target');
    const page = await signIn(browser.context, a.approver);
    const url = `${base}/console/escalations/${id}/approve`;
    const missing = await page.request.post(url, { form: { comment: 'forged' } });
    expect(missing.status()).toBe(403);
    const wrong = await page.request.post(url, { form: { _csrf: 'f'.repeat(64) } });
    expect(wrong.status()).toBe(403);
    const keyForm = await page.request.post(`${base}/console/keys`, { form: { name: 'forged-key' } });
    expect(keyForm.status()).toBe(403);
    expect(await statusOf(id, a.asker)).toBe('pending');
    const keys = (await api('GET', '/api-keys', a.asker)).json();
    expect(JSON.stringify(keys)).not.toContain('forged-key');
    await closePage(page);
  });

  it("never shows another account's data, on any page, and cannot act on it", async () => {
    const page = await signIn(browser.context, a.approver);
    // What each page shows of account A's own data: the page did render that account's view.
    const own: Record<string, string> = {
      '/console/escalations': 'live-actor-1',
      '/console/evaluations': 'self-approver',
      '/console/memory': 'alpha warehouse',
      '/console/audit': 'action.approved',
      '/console/usage': 'POST /v2/actions/evaluate',
      '/console/keys': 'approver',
      '/console/policies': 'permit',
    };
    for (const url of [
      ...PAGES,
      '/console/memory?q=bravo+secret+lighthouse',
      '/console/memory?status=superseded',
    ]) {
      const res = await page.goto(`${base}${url}`);
      expect(res?.status(), url).toBe(200);
      const text = await page.content();
      if (own[url] !== undefined) expect(text, url).toContain(own[url]);
      for (const marker of b.markers) expect(text, `${marker} on ${url}`).not.toContain(marker);
    }
    const other = await page.goto(`${base}/console/evaluations/${b.evaluationId}`);
    expect(other?.status()).toBe(404);
    const csrf = await page.locator('input[name=_csrf]').first().inputValue();
    const decide = await page.request.post(`${base}/console/escalations/${b.evaluationId}/approve`, {
      form: { _csrf: csrf },
    });
    expect(decide.status()).toBe(404);
    expect(await statusOf(b.evaluationId, b.key)).toBe('pending');
    const revoke = await page.request.post(`${base}/console/keys/${b.keyId}/revoke`, {
      form: { _csrf: csrf },
    });
    expect(revoke.status()).toBe(404);
    await closePage(page);
  });

  it('is usable from the keyboard: sign in and approve without a mouse', async () => {
    // Each step names itself if it stalls, instead of the whole test timing out.
    const step = <T>(name: string, work: Promise<T>): Promise<T> =>
      Promise.race([
        work,
        new Promise<T>((_, reject) => setTimeout(() => reject(new Error(`stalled: ${name}`)), 8000).unref()),
      ]);
    const id = await escalate(a.asker, 'keyboard-actor');
    await browser.context.clearCookies();
    const page = watch(await browser.context.newPage());
    page.setDefaultTimeout(5000);
    await step('open the sign-in page', page.goto(`${base}/console`));
    await step('tab to the key field', page.keyboard.press('Tab')); // the skip link first
    await step('tab to the key field', page.keyboard.press('Tab'));
    await expect(step('read the focus', page.evaluate('document.activeElement.id'))).resolves.toBe('api-key');
    await step('type the key', page.keyboard.type(a.approver));
    await step(
      'submit the sign-in',
      Promise.all([page.waitForURL(`${base}/console/escalations`), page.keyboard.press('Enter')]),
    );
    const item = page.locator('li.escalation', { hasText: 'keyboard-actor' });
    await step('focus the comment', item.getByLabel('Comment (optional)').focus());
    await step('type the comment', page.keyboard.type('by keyboard'));
    await step('tab to Approve', page.keyboard.press('Tab'));
    await expect(step('read the focus', page.evaluate('document.activeElement.textContent'))).resolves.toBe(
      'Approve',
    );
    // The form posts and the page comes back with the outcome: wait for it, as the human would.
    await step(
      'press Approve',
      Promise.all([
        page.waitForURL(`${base}/console/escalations/${id}/approve`),
        page.keyboard.press('Enter'),
      ]),
    );
    await expect(step('read the outcome', page.getByRole('status').first().textContent())).resolves.toContain(
      `Escalation ${id} approved.`,
    );
    expect(await statusOf(id, a.asker)).toBe('approved');
    expect((await api('GET', `/v2/actions/evaluations/${id}`, a.asker)).json()).toMatchObject({
      status: 'approved',
      comment: 'by keyboard',
    });
    await closePage(page);
  });

  it("works each page's controls: keys, webhooks, memory, policy and filters", async () => {
    const receiver = await startReceiver(() => ({ status: 204 }));
    try {
      const hook = (await api('POST', '/webhooks', a.asker, { url: `${receiver.url}/hook` })).json();
      const page = await signIn(browser.context, a.approver);

      await page.goto(`${base}/console/webhooks`);
      await page.getByRole('button', { name: /^Send test event/ }).click();
      await expect(page.getByRole('status').first().textContent()).resolves.toContain('Test event queued');
      await expect.poll(() => receiver.received.length, { timeout: 5000 }).toBe(1);
      await page.getByRole('button', { name: /^Rotate secret/ }).click();
      const secret = await page.locator('#new-secret').textContent();
      expect(secret).toMatch(/^whsec_/);
      expect(secret).not.toBe(hook.secret);
      await t.container.db.kysely
        .updateTable('webhook_endpoints')
        .set({ status: 'disabled', disabled_reason: 'failing' })
        .where('id', '=', hook.id)
        .execute();
      await page.goto(`${base}/console/webhooks`);
      await page.getByRole('button', { name: /^Re-enable/ }).click();
      expect((await api('GET', `/webhooks/${hook.id}`, a.asker)).json().webhook.status).toBe('enabled');
      await page
        .getByRole('button', { name: /^Redeliver/ })
        .first()
        .click();
      await expect(page.getByRole('status').first().textContent()).resolves.toContain('Queued again');
      await expect.poll(() => receiver.received.length, { timeout: 5000 }).toBe(2);

      await page.goto(`${base}/console/keys`);
      await page.getByLabel('Key name').fill('made-in-browser');
      await page.getByLabel('Role').selectOption('admin');
      await page.getByRole('button', { name: 'Create key' }).click();
      const created = (await page.locator('#new-key').textContent())!;
      expect((await api('GET', '/api-keys', created)).statusCode).toBe(200);
      await page.getByRole('button', { name: /^Revoke key made-in-browser/ }).click();
      expect((await api('GET', '/api-keys', created)).statusCode).toBe(401);

      await page.goto(`${base}/console/memory`);
      await page.getByRole('button', { name: 'Verify' }).click();
      await expect(page.getByRole('status').first().textContent()).resolves.toMatch(
        /The chain holds: 1 entries/,
      );
      await page.getByLabel('Query').fill('When does the alpha warehouse open?');
      await page.getByRole('button', { name: 'Search' }).click();
      await expect(page.locator('#search-result').textContent()).resolves.toContain(
        'alpha warehouse opens at nine',
      );

      await page.goto(`${base}/console/evaluations`);
      await page.getByLabel('Status').selectOption('denied');
      await page.getByRole('button', { name: 'Filter' }).click();
      const rows = page.locator('tbody tr');
      await expect(rows.count()).resolves.toBe(1);
      await expect(rows.first().textContent()).resolves.toContain('live-actor-2');

      await page.goto(`${base}/console/policies`);
      await page.getByLabel('Cedar policy').fill('permit(principal, action, resource)\nwhen { oops };');
      await page.getByRole('button', { name: 'Save policy' }).click();
      await expect(page.getByRole('alert').textContent()).resolves.toMatch(/Line \d+, column \d+/);
      await closePage(page);
    } finally {
      await receiver.close();
    }
  });

  it('passes axe-core with no serious or critical violation on any page, and saves a screenshot of each', async () => {
    await escalate(a.asker, 'pending-for-screenshot');
    const check = async (page: Page, url: string, name: string) => {
      await page.evaluate(axe.source);
      const result = await page.evaluate<axe.AxeResults>(
        "axe.run(document, { resultTypes: ['violations'] })",
      );
      // axe ran its rules on this page (some passed), rather than on nothing.
      expect(result.passes.length, url).toBeGreaterThan(10);
      const bad = result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
      expect(
        bad.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
        url,
      ).toEqual([]);
      await page.screenshot({ path: path.join(ARTIFACTS, `${dialect}-${name}.png`), fullPage: true });
    };
    await browser.context.clearCookies();
    const signInPage = watch(await browser.context.newPage());
    await signInPage.goto(`${base}/console`);
    await check(signInPage, '/console', 'sign-in');
    await signInPage.close();

    const page = await signIn(browser.context, a.approver);
    for (const url of [...PAGES, '/console/memory?q=warehouse', '/console/memory?q=zebra+quantum+nothing']) {
      await page.goto(`${base}${url}`);
      await check(page, url, url.replace(/^\/console\//, '').replace(/[^a-z0-9]+/gi, '-'));
    }
    // One evaluation and one claim, each with its own page.
    for (const [list, name] of [
      ['/console/evaluations', 'evaluation'],
      ['/console/memory', 'claim'],
    ] as const) {
      await page.goto(`${base}${list}`);
      const href = (await page.locator('tbody a').first().getAttribute('href'))!;
      const res = await page.goto(`${base}${href}`);
      expect(res?.status(), href).toBe(200);
      await check(page, href, name);
    }
    await closePage(page);
  });

  it('ran every page, htmx included, without a CSP refusal or a script error', () => {
    // The refusals the tests provoke on purpose (an invalid policy, a wrong key, forgeries, another account's ids)
    // are logged as failed loads with their status; nothing else may be.
    const unexpected = browserErrors.filter((e) => !/status of 40[0134]/.test(e));
    expect(unexpected).toEqual([]);
    expect(browserErrors.some((e) => /Content Security Policy/i.test(e))).toBe(false);
  });
});
