import fs from 'node:fs';
import path from 'node:path';
import axe from 'axe-core';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, type TestApp } from '../helpers/app.ts';
import { closePage, HAS_CHROMIUM, launchBrowser } from '../helpers/browser.ts';
import { DIALECTS } from '../helpers/databases.ts';
import { startReceiver } from '../helpers/receiver.ts';

/** Screenshots, kept as test artifacts (not committed), beside the other console pages'. */
const ARTIFACTS = process.env.ARBITER_ARTIFACTS_DIR ?? path.resolve('test-artifacts/console');

/** Right-to-left override and isolate controls, as an attacker would hide them in stored text. */
const RLO = '\u202E';
const RLI = '\u2067';
const PDI = '\u2069';

/**
 * What a newcomer to the console lives with: names rather than ids, verdicts a page at a time, an
 * audit table that fits its page, webhooks added and deleted here, contradicting claims marked,
 * bidirectional controls shown rather than obeyed, and a local checkout that ends on a
 * confirmation. Each is asserted in the browser's DOM, over a real server and database, with data
 * made through the API, and each leaves a screenshot.
 */
describe.skipIf(!HAS_CHROMIUM).each(DIALECTS)('the console a newcomer can live in, on %s', (dialect) => {
  let t: TestApp;
  let base: string;
  let browser: Awaited<ReturnType<typeof launchBrowser>>;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  /** Account A, named, with keys of each role, each named. */
  let a: {
    accountId: string;
    admin: string;
    adminId: string;
    operator: string;
    agent: string;
    agentId: string;
  };
  /** Account B: nothing of it may show in A's console. */
  let b: { accountId: string; keyId: string; markers: string[] };

  const api = (method: 'GET' | 'POST' | 'DELETE', url: string, key: string, payload?: object) =>
    t.app.inject({ method, url, headers: bearer(key), ...(payload ? { payload } : {}) });
  /** The whole page, and for a long one its first screen too, which is what a person reads first. */
  const shot = async (page: Page, name: string) => {
    await page.screenshot({ path: path.join(ARTIFACTS, `${dialect}-house-${name}.png`), fullPage: true });
    await page.screenshot({ path: path.join(ARTIFACTS, `${dialect}-house-${name}-screen.png`) });
  };

  async function signIn(context: BrowserContext, key: string): Promise<Page> {
    await context.clearCookies();
    const page = await context.newPage();
    page.setDefaultTimeout(5000);
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(`${base}/console`);
    await page.getByLabel('API key').fill(key);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`${base}/console/escalations`);
    return page;
  }

  /** The pages added here meet the bar the console's other pages are held to. */
  async function noSeriousAxeViolation(page: Page) {
    await page.evaluate(axe.source);
    const result = await page.evaluate<axe.AxeResults>("axe.run(document, { resultTypes: ['violations'] })");
    const bad = result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
    expect(bad.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
  }

  /** No text the page shows, nor any attribute, still holds a bidirectional control. */
  const bidiFree = (page: Page) =>
    page.evaluate<boolean>(
      '!/[\\u061C\\u200E\\u200F\\u202A-\\u202E\\u2066-\\u2069]/.test(document.documentElement.outerHTML)',
    );

  beforeAll(async () => {
    t = await createTestApp(dialect, {
      env: { ARBITER_LOG_LEVEL: 'silent', ARBITER_WEBHOOK_ALLOW_LOOPBACK: 'true' },
    });
    base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    receiver = await startReceiver(() => ({ status: 204 }));
    const accounts = t.container.services.accounts;
    const keys = t.container.services.apiKeys;

    const first = await accounts.create({
      email: `alpha-${Date.now()}@example.com`,
      name: 'Alpha Logistics',
      plan: 'developer',
    });
    const accountId = first.account.id;
    const operator = await keys.create(accountId, 'Olive (operator)', { role: 'operator' });
    const agent = await keys.create(accountId, `warehouse-agent ${RLO}evil.exe${PDI}`, { role: 'agent' });
    a = {
      accountId,
      admin: first.key.key,
      adminId: first.key.id,
      operator: operator.key,
      agent: agent.key,
      agentId: agent.id,
    };

    const second = await accounts.create({
      email: `bravo-${Date.now()}@example.com`,
      name: 'Bravo Hidden Corp',
      plan: 'developer',
    });
    const bravoKey = await keys.create(second.account.id, 'bravo-secret-key', { role: 'agent' });
    await api('POST', '/v1/evaluate', bravoKey.key, { action: 'bravo.secret.action', payload: {} });
    await api('POST', '/v2/vault/store', second.key.key, {
      claim: 'The bravo office is open on Sundays.',
      source: 'b',
      confidence: 0.9,
    });
    await api('POST', '/v2/vault/store', second.key.key, {
      claim: 'The bravo office is not open on Sundays.',
      source: 'b',
      confidence: 0.9,
    });
    b = {
      accountId: second.account.id,
      keyId: bravoKey.id,
      markers: [
        'Bravo Hidden Corp',
        'bravo-secret-key',
        'bravo.secret.action',
        'bravo office',
        second.account.id,
        bravoKey.id,
      ],
    };
    browser = await launchBrowser();
    fs.mkdirSync(ARTIFACTS, { recursive: true });
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await receiver?.close();
    await t?.close();
  });

  it('pages verdicts 50 at a time, newest first, with no row twice or missed', async () => {
    // 120 verdicts, each with its own action, in a known order.
    for (let i = 0; i < 120; i++) {
      const res = await api('POST', '/v1/evaluate', a.agent, {
        action: 'shell.exec',
        payload: { command: i % 3 === 0 ? 'rm -rf /' : `echo verdict-${i}` },
      });
      expect(res.statusCode).toBeLessThan(300);
    }
    const page = await signIn(browser.context, a.admin);
    const seqs = async () =>
      (await page.locator('#verdicts tbody tr td:first-child').allTextContents()).map(Number);

    await page.goto(`${base}/console/verdicts`);
    const first = await seqs();
    expect(first).toHaveLength(50);
    expect(first).toEqual([...first].sort((x, y) => y - x));
    await expect(page.getByRole('link', { name: 'Newer' }).count()).resolves.toBe(0);
    await shot(page, 'verdicts-page-1');

    await page.getByRole('link', { name: 'Older' }).first().click();
    const second = await seqs();
    expect(second).toHaveLength(50);
    expect(Math.max(...second)).toBeLessThan(Math.min(...first));
    await shot(page, 'verdicts-page-2');

    await page.getByRole('link', { name: 'Older' }).first().click();
    const third = await seqs();
    expect(third).toHaveLength(20);
    expect(Math.max(...third)).toBeLessThan(Math.min(...second));
    await expect(page.getByRole('link', { name: 'Older' }).count()).resolves.toBe(0);

    // Back again, the same pages: the order is stable.
    await page.getByRole('link', { name: 'Newer' }).first().click();
    expect(await seqs()).toEqual(second);
    await page.getByRole('link', { name: 'Newer' }).first().click();
    expect(await seqs()).toEqual(first);
    await expect(page.getByRole('link', { name: 'Newer' }).count()).resolves.toBe(0);

    // All 120, each once, as the audit log has them.
    const all = [...first, ...second, ...third];
    expect(new Set(all).size).toBe(120);

    // A filter pages too: the 40 rejected ones fit one page, and nothing else is on it.
    await page.goto(`${base}/console/verdicts?decision=rejected`);
    const rejected = await seqs();
    expect(rejected).toHaveLength(40);
    await expect(page.locator('#verdicts tbody tr', { hasText: 'allowed' }).count()).resolves.toBe(0);
    await closePage(page);
  });

  it("shows keys and the account by name, each id kept as the name's tooltip", async () => {
    const page = await signIn(browser.context, a.admin);
    const account = page.locator('header .account strong');
    await expect(account.textContent()).resolves.toBe('Alpha Logistics');
    await expect(account.getAttribute('title')).resolves.toBe(a.accountId);

    await page.goto(`${base}/console/verdicts`);
    const keyCell = page.locator('#verdicts tbody tr').first().locator('td').last();
    await expect(keyCell.locator('.key-name').textContent()).resolves.toContain('warehouse-agent');
    await expect(keyCell.locator('.key-name').getAttribute('title')).resolves.toBe(`Key ${a.agentId}`);
    // The id is in the tooltip, not in the text a person reads.
    expect(await page.locator('#verdicts').innerText()).not.toContain(a.agentId);
    await shot(page, 'names-verdicts');

    // An escalation decided in the console names the key that decided it, in the history and the details.
    const asked = await api('POST', '/v2/actions/evaluate', a.agent, {
      action_type: 'http.request',
      actor: 'named-actor',
      actor_role: 'assistant',
      impact_scope: 'external',
      payload: { url: 'https://api.github.com/repos/acme/app/issues', method: 'POST', body: {} },
    });
    const id = asked.json().evaluation_id as string;
    await page.goto(`${base}/console/escalations`);
    await page
      .locator('li.escalation', { hasText: 'named-actor' })
      .getByRole('button', { name: 'Approve' })
      .click();
    const decided = page.locator('table tbody tr', { hasText: 'named-actor' }).locator('.key-name');
    await expect(decided.textContent()).resolves.toBe('default');
    await expect(decided.getAttribute('title')).resolves.toBe(`Key ${a.adminId}`);
    await shot(page, 'names-escalations');
    await page.goto(`${base}/console/evaluations/${id}`);
    await expect(page.locator('.key-name').first().textContent()).resolves.toBe('default');

    await page.goto(`${base}/console/audit`);
    const approved = page.locator('table.audit tbody tr', { hasText: 'action.approved' }).first();
    await expect(approved.locator('td').nth(2).locator('.key-name').textContent()).resolves.toBe('default');
    expect(await page.locator('table.audit').innerText()).not.toContain(a.adminId);
    await closePage(page);
  });

  it('fits the audit table in a 1280 px window, long values wrapped or cut with the whole as a tooltip', async () => {
    // Long, unbroken values in the entries the audit log records.
    const longName = `integration-${'x'.repeat(85)}`;
    await t.container.services.apiKeys.create(a.accountId, longName, {
      actor: a.adminId,
      actorRole: 'admin',
      role: 'agent',
    });
    await api('POST', '/v1/evaluate', a.agent, { action: `a.${'verylongsegment'.repeat(6)}`, payload: {} });
    await api('POST', '/webhooks', a.operator, {
      url: `${receiver.url}/${'p'.repeat(300)}`,
      event_types: [
        'verdict.rejected',
        'action.blocked',
        'action.escalated',
        'action.approved',
        'action.denied',
        'action.expired',
        'claim.conflict_detected',
        'api_key.revoked',
        'subscription.updated',
      ],
    });

    // An escalation's entry carries its actor and reason: details past what a row shows.
    const asked = await api('POST', '/v2/actions/evaluate', a.agent, {
      action_type: 'http.request',
      actor: `batch-${'y'.repeat(120)}`,
      actor_role: 'assistant',
      impact_scope: 'external',
      payload: { url: 'https://api.github.com/repos/acme/app/issues', method: 'POST', body: {} },
    });
    expect(asked.statusCode).toBe(200);

    const page = await signIn(browser.context, a.admin);
    await page.goto(`${base}/console/audit`);
    // Run in the page (the tests compile without the DOM's types, so as text).
    const sizes = await page.evaluate<{ doc: number[]; main: number[]; table: number[] }>(`(() => {
      const table = document.querySelector('table.audit');
      const main = document.querySelector('main');
      return {
        doc: [document.documentElement.scrollWidth, document.documentElement.clientWidth],
        main: [main.scrollWidth, main.clientWidth],
        table: [table.scrollWidth, table.clientWidth, table.getBoundingClientRect().right],
      };
    })()`);
    expect(sizes.doc[0]).toBeLessThanOrEqual(sizes.doc[1]!);
    expect(sizes.main[0]).toBeLessThanOrEqual(sizes.main[1]!);
    expect(sizes.table[0]).toBeLessThanOrEqual(sizes.table[1]!);
    expect(sizes.table[2]).toBeLessThanOrEqual(1280);
    // No cell's content runs past its cell.
    const overflowing = await page.evaluate<number>(
      "[...document.querySelectorAll('table.audit td')].filter((td) => td.scrollWidth > td.clientWidth).length",
    );
    expect(overflowing).toBe(0);
    // A cut value keeps the whole (to a bound) as its tooltip.
    const cut = page.locator('table.audit td:last-child code[title]').first();
    await expect(cut.textContent()).resolves.toMatch(/…$/);
    expect((await cut.getAttribute('title'))!.length).toBeGreaterThan(200);
    await shot(page, 'audit-1280');
    await closePage(page);
  });

  it('adds and deletes a webhook endpoint from the console with an operator key; an agent key has no console', async () => {
    const page = await signIn(browser.context, a.operator);
    await page.goto(`${base}/console/webhooks`);
    const url = `${receiver.url}/from-console`;
    await page.getByLabel('URL').fill(url);
    await page.getByLabel('Description (optional)').fill('Made in the console');
    await page.getByRole('checkbox', { name: /verdict\.rejected/ }).check();
    await page.getByRole('checkbox', { name: /action\.escalated/ }).check();
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    await expect(page.locator('#new-secret').textContent()).resolves.toMatch(/^whsec_/);
    const listed = (await api('GET', '/webhooks', a.operator)).json().webhooks as Array<{
      id: string;
      url: string;
      description: string;
      event_types: string[];
    }>;
    const made = listed.find((w) => w.url === url)!;
    expect(made).toMatchObject({
      description: 'Made in the console',
      event_types: ['verdict.rejected', 'action.escalated'],
    });
    await noSeriousAxeViolation(page);
    await shot(page, 'webhook-created');

    // A URL the API refuses is refused here too, said on the page.
    await page.getByLabel('URL').fill('ftp://example.com/x');
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    await expect(page.getByRole('alert').textContent()).resolves.toMatch(/url/i);

    await page.getByRole('button', { name: `Delete for ${url}` }).click();
    await expect(page.getByRole('status').first().textContent()).resolves.toContain(`${url} is deleted`);
    expect((await api('GET', `/webhooks/${made.id}`, a.operator)).statusCode).toBe(404);
    await expect(page.locator('h2', { hasText: url }).count()).resolves.toBe(0);
    await shot(page, 'webhook-deleted');
    await closePage(page);

    // The API lets only operator and admin keys manage webhooks; the console opens to no other.
    expect((await api('POST', '/webhooks', a.agent, { url })).statusCode).toBe(403);
    await browser.context.clearCookies();
    const refused = await browser.context.newPage();
    await refused.goto(`${base}/console`);
    await refused.getByLabel('API key').fill(a.agent);
    await refused.getByRole('button', { name: 'Sign in' }).click();
    await expect(refused.getByRole('alert').textContent()).resolves.toMatch(/agent key/);
    const post = await refused.request.post(`${base}/console/webhooks`, { form: { url } });
    expect(post.status()).toBe(401);
    await closePage(refused);
  });

  it('marks a claim that contradicts another stored claim, naming it', async () => {
    const store = async (claim: string) =>
      (await api('POST', '/v2/vault/store', a.agent, { claim, source: 'ops', confidence: 0.9 })).json();
    const open = await store('The Berlin office is open on Sundays.');
    await store('The Lisbon office has a rooftop terrace.');
    const closed = await store('The Berlin office is not open on Sundays.');
    expect(closed.conflicts).toHaveLength(1);

    const page = await signIn(browser.context, a.admin);
    await page.goto(`${base}/console/memory`);
    // The row whose own claim (its first link) is this text, not a row whose mark names it.
    const row = (text: string) =>
      page
        .locator('tbody tr')
        .filter({ has: page.locator('td:first-child > a', { hasText: text }) })
        .first();
    const closedMark = row('The Berlin office is not open on Sundays.').locator('.contradiction');
    await expect(closedMark.textContent()).resolves.toContain('The Berlin office is open on Sundays.');
    await expect(closedMark.locator('a').getAttribute('href')).resolves.toBe(
      `/console/memory/claims/${open.id}`,
    );
    const openMark = row('The Berlin office is open on Sundays.').locator('.contradiction');
    await expect(openMark.textContent()).resolves.toContain('The Berlin office is not open on Sundays.');
    await expect(row('rooftop terrace').locator('.contradiction').count()).resolves.toBe(0);
    await shot(page, 'memory-contradictions');

    await page.goto(`${base}/console/memory/claims/${closed.id}`);
    await expect(page.locator('.contradiction').textContent()).resolves.toContain(open.short_id);
    await closePage(page);
  });

  it('shows bidirectional controls in stored text as ⟨U+…⟩ instead of obeying them', async () => {
    const claim = `Invoice 7 total is ${RLO}0001$ due${PDI} by ${RLI}Friday${PDI}.`;
    const stored = (
      await api('POST', '/v2/vault/store', a.agent, { claim, source: `mail ${RLO}moc.evil`, confidence: 0.8 })
    ).json();
    const page = await signIn(browser.context, a.admin);
    for (const url of [
      '/console/memory',
      `/console/memory/claims/${stored.id}`,
      '/console/memory?q=invoice+total',
      '/console/keys',
      '/console/verdicts',
    ]) {
      await page.goto(`${base}${url}`);
      expect(await bidiFree(page), url).toBe(true);
    }
    await page.goto(`${base}/console/memory`);
    const cell = page.locator('tbody tr', { hasText: 'Invoice 7' }).first();
    await expect(cell.locator('a').first().textContent()).resolves.toBe(
      'Invoice 7 total is ⟨U+202E⟩0001$ due⟨U+2069⟩ by ⟨U+2067⟩Friday⟨U+2069⟩.',
    );
    await expect(cell.textContent()).resolves.toContain('mail ⟨U+202E⟩moc.evil');
    await shot(page, 'bidi-memory');
    await page.goto(`${base}/console/keys`);
    await expect(page.locator('tbody').textContent()).resolves.toContain(
      'warehouse-agent ⟨U+202E⟩evil.exe⟨U+2069⟩',
    );
    await shot(page, 'bidi-keys');
    // The stored text is unchanged: only the console shows it neutralised.
    expect((await api('GET', `/v2/vault/claims/${stored.id}`, a.agent)).json().claim).toBe(claim);
    await closePage(page);
  });

  it('ends a local checkout started in the console on a confirmation', async () => {
    const free = await t.container.services.accounts.create({
      email: `free-${Date.now()}@example.com`,
      name: 'Free Trial Ltd',
      plan: 'free',
    });
    const page = await signIn(browser.context, free.key.key);
    await page.getByRole('link', { name: 'Billing' }).click();
    await expect(page.locator('#current-plan').textContent()).resolves.toBe('Free');
    await shot(page, 'billing-before');

    // Cancelled, it says so, and the plan stays.
    await page.getByRole('button', { name: 'Switch to the Developer plan' }).click();
    await page.waitForURL(/\/checkout\//);
    await page.getByRole('button', { name: 'Cancel' }).click();
    await page.waitForURL(/\/console\/billing\?checkout=cs_/);
    await expect(page.getByRole('alert').textContent()).resolves.toContain('was cancelled');
    await expect(page.locator('#current-plan').textContent()).resolves.toBe('Free');

    // Confirmed, it ends on a confirmation, and the plan has changed.
    await page.getByRole('button', { name: 'Switch to the Developer plan' }).click();
    await page.waitForURL(/\/checkout\//);
    await page.getByRole('button', { name: 'Confirm subscription' }).click();
    await page.waitForURL(/\/console\/billing\?checkout=cs_/);
    await expect(page.locator('#checkout-outcome').textContent()).resolves.toContain(
      'Subscription confirmed: this account is now on the Developer plan.',
    );
    await expect(page.locator('#current-plan').textContent()).resolves.toBe('Developer');
    await noSeriousAxeViolation(page);
    await shot(page, 'billing-confirmed');
    expect((await api('GET', '/subscription/status', free.key.key)).json()).toMatchObject({
      plan: 'developer',
      status: 'active',
      provider: 'local',
    });

    // Another account's checkout id says nothing of that checkout.
    const stranger = await t.container.services.accounts.create({
      email: `stranger-${Date.now()}@example.com`,
      name: 'Stranger',
      plan: 'free',
    });
    const other = (
      await api('POST', '/subscription/checkout', stranger.key.key, {
        plan_id: 'developer',
        success_url: `${base}/console/billing`,
        cancel_url: `${base}/console/billing`,
      })
    ).json();
    await page.goto(`${base}/console/billing?checkout=${other.session_id}`);
    await expect(page.getByRole('alert').textContent()).resolves.toContain('not one of this account');
    await closePage(page);
  });

  it("never shows another account's data on the pages added here", async () => {
    const page = await signIn(browser.context, a.admin);
    for (const url of [
      '/console/verdicts',
      '/console/verdicts?before=100000',
      '/console/verdicts?after=1',
      '/console/memory',
      '/console/audit',
      '/console/webhooks',
      '/console/billing',
    ]) {
      const res = await page.goto(`${base}${url}`);
      expect(res?.status(), url).toBe(200);
      const text = await page.content();
      for (const marker of b.markers) expect(text, `${marker} on ${url}`).not.toContain(marker);
    }
    await closePage(page);
  });
});
