import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, type TestApp } from '../helpers/app.ts';
import { HAS_CHROMIUM, launchBrowser } from '../helpers/browser.ts';
import { DIALECTS } from '../helpers/databases.ts';
import { startReceiver } from '../helpers/receiver.ts';

async function freeAccount(t: TestApp) {
  const created = await t.container.services.accounts.create({
    email: `free-${Math.random().toString(36).slice(2)}@example.com`,
    name: 'Free account',
    plan: 'free',
  });
  return { accountId: created.account.id, key: created.key.key };
}

describe.each(DIALECTS)('local checkout on %s', (dialect) => {
  let t: TestApp;
  let appUrl: string;
  let shop: Awaited<ReturnType<typeof startReceiver>>;

  beforeAll(async () => {
    t = await createTestApp(dialect, { env: { ARBITER_LOG_LEVEL: 'silent' } });
    appUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
    // The caller's own site, where the page sends the person back.
    shop = await startReceiver((req) => ({
      status: 200,
      type: 'text/html',
      body: `<!doctype html><title>${req.path.startsWith('/thanks') ? 'Thanks' : 'Cancelled'}</title><h1 id="where">${req.path}</h1>`,
    }));
  });
  afterAll(async () => {
    await shop.close();
    await t.close();
  });

  const checkout = (key: string, payload: Record<string, unknown>) =>
    // As a client reaching the listening server would: the page link is built from its Host.
    t.app.inject({
      method: 'POST',
      url: '/subscription/checkout',
      headers: { ...bearer(key), host: new URL(appUrl).host },
      payload,
    });

  it('refuses relative, non-http and malformed return URLs, and plans that cannot be bought', async () => {
    const { key } = await freeAccount(t);
    const good = {
      plan_id: 'developer',
      success_url: `${shop.url}/thanks`,
      cancel_url: `${shop.url}/cancelled`,
    };
    for (const bad of [
      '/thanks',
      'ftp://example.com/x',
      'javascript:alert(1)',
      'example.com/thanks',
      'http//x',
    ]) {
      for (const field of ['success_url', 'cancel_url']) {
        const res = await checkout(key, { ...good, [field]: bad });
        expect(res.statusCode, `${field}=${bad}`).toBe(400);
        expect(res.json().error).toMatchObject({
          code: 'VALIDATION_ERROR',
          message: expect.stringContaining(field),
        });
      }
    }
    for (const plan_id of ['free', 'owner', 'nope']) {
      const res = await checkout(key, { ...good, plan_id });
      expect(res.statusCode).toBe(400);
      expect(res.json().error.code).toBe('VALIDATION_ERROR');
    }
    expect((await checkout(key, { ...good, extra: 1 })).statusCode).toBe(400);
    expect((await checkout(t.ownerKey, good)).statusCode).toBe(403);
  });

  it('serves a self-contained page, activates on confirm, redirects, and works only once', async () => {
    const { key, accountId } = await freeAccount(t);
    const res = await checkout(key, {
      plan_id: 'developer',
      success_url: `${shop.url}/thanks?session={CHECKOUT_SESSION_ID}`,
      cancel_url: `${shop.url}/cancelled`,
    });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ success: true, provider: 'local' });
    const url = new URL(body.checkout_url);
    expect(url.origin).toBe(appUrl);

    const page = await t.app.inject({ method: 'GET', url: url.pathname, headers: { accept: 'text/html' } });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.headers['content-security-policy']).toContain("default-src 'none'");
    expect(page.headers['referrer-policy']).toBe('no-referrer');
    expect(page.body).toContain('99.00 USD');
    expect(page.body).not.toMatch(/<script|src=|href=/);

    const confirmed = await t.app.inject({
      method: 'POST',
      url: `${url.pathname}/confirm`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'decision=confirm',
    });
    expect(confirmed.statusCode).toBe(303);
    expect(confirmed.headers.location).toBe(`${shop.url}/thanks?session=${body.session_id}`);

    const status = await t.app.inject({ method: 'GET', url: '/subscription/status', headers: bearer(key) });
    expect(status.json()).toMatchObject({ plan: 'developer', status: 'active', provider: 'local' });
    expect((await t.container.services.accounts.findById(accountId))?.plan).toBe('developer');

    for (const again of [
      t.app.inject({ method: 'GET', url: url.pathname }),
      t.app.inject({ method: 'POST', url: `${url.pathname}/confirm` }),
      t.app.inject({ method: 'POST', url: `${url.pathname}/cancel` }),
    ]) {
      const r = await again;
      expect(r.statusCode).toBe(404);
      expect(r.json().error.code).toBe('NOT_FOUND');
    }
    const unknown = await t.app.inject({
      method: 'GET',
      url: '/checkout/not-a-token',
      headers: { accept: 'text/html' },
    });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.body).toContain('invalid, used or expired');
  });

  it('expires: a page older than its lifetime is refused', async () => {
    const { key } = await freeAccount(t);
    const body = (
      await checkout(key, {
        plan_id: 'developer',
        success_url: `${shop.url}/thanks`,
        cancel_url: `${shop.url}/c`,
      })
    ).json();
    await t.container.db.kysely
      .updateTable('checkout_sessions')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('id', '=', body.session_id)
      .execute();
    const path = new URL(body.checkout_url).pathname;
    expect((await t.app.inject({ method: 'GET', url: path })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'POST', url: `${path}/confirm` })).statusCode).toBe(404);
  });

  it.runIf(HAS_CHROMIUM)(
    'whole flow in headless Chromium: cancel, then confirm',
    async () => {
      const { key } = await freeAccount(t);
      const browser = await launchBrowser();
      try {
        const tab = await browser.context.newPage();
        const start = async () =>
          (
            await checkout(key, {
              plan_id: 'developer',
              success_url: `${shop.url}/thanks`,
              cancel_url: `${shop.url}/cancelled`,
            })
          ).json().checkout_url as string;

        await tab.goto(await start());
        await tab.getByRole('button', { name: 'Cancel' }).click();
        await tab.waitForURL(`${shop.url}/cancelled`);
        expect(
          (await t.app.inject({ method: 'GET', url: '/subscription/status', headers: bearer(key) })).json(),
        ).toMatchObject({ plan: 'free', provider: 'none' });

        const checkoutUrl = await start();
        await tab.goto(checkoutUrl);
        expect(await tab.title()).toContain('Developer');
        expect(await tab.getByTestId('price').innerText()).toContain('99.00 USD');
        await tab.getByRole('button', { name: 'Confirm subscription' }).click();
        await tab.waitForURL(`${shop.url}/thanks`);
        expect(await tab.locator('#where').innerText()).toBe('/thanks');
        expect(
          (await t.app.inject({ method: 'GET', url: '/subscription/status', headers: bearer(key) })).json(),
        ).toMatchObject({ plan: 'developer', status: 'active', provider: 'local' });

        // Back to the used link: a page saying so, not a second activation.
        const again = await tab.goto(checkoutUrl);
        expect(again?.status()).toBe(404);
        expect(await tab.content()).toContain('invalid, used or expired');
      } finally {
        await browser.close();
      }
    },
    60_000,
  );
});
