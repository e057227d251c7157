import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, type TestApp } from '../helpers/app.ts';
import { DIALECTS } from '../helpers/databases.ts';

function expectRefused(res: { statusCode: number; json: () => unknown }, field: string, problem: RegExp) {
  expect(res.statusCode).toBe(400);
  const body = res.json() as { error: { code: string; message: string; details?: { field?: string } } };
  expect(body.error.code).toBe('VALIDATION_ERROR');
  expect(body.error.message).toContain(field);
  expect(body.error.message).toMatch(problem);
  expect(body.error.details?.field).toBe(field);
}

const SURROGATE = /unpaired UTF-16 surrogate/;
const NUL = /NUL character/;

describe.each(DIALECTS)('text at the boundary, on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect, { env: { ARBITER_LOG_LEVEL: 'silent' } });
  });
  afterAll(() => t?.close());

  const call = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown, headers = {}) =>
    t.app.inject({
      method,
      url,
      headers: { ...bearer(t.ownerKey), ...headers },
      ...(payload === undefined ? {} : { payload: payload as object }),
    });

  it('refuses a protected branch with a lone surrogate, and the account keeps getting verdicts', async () => {
    // JSON.stringify writes the lone surrogate as the escape `\ud800`, as a client would send it.
    const res = await call('PUT', '/v1/settings/protected', { branches: ['x\ud800'] });
    expectRefused(res, 'body.branches[0]', SURROGATE);

    const settings = await call('GET', '/v1/settings/protected');
    expect(settings.statusCode).toBe(200);
    expect(JSON.stringify(settings.json())).not.toContain('x\ud800');
    const verdict = await call('POST', '/v1/evaluate', {
      action: 'shell.exec',
      payload: { command: 'git push origin main' },
    });
    expect(verdict.statusCode).toBe(200);
    expect(verdict.json()).toMatchObject({ is_safe: expect.any(Boolean) });
    const judged = await call('POST', '/v2/actions/evaluate', {
      action_type: 'fs.read',
      actor: 'text-boundary',
      actor_role: 'assistant',
      impact_scope: 'internal',
      payload: { path: 'README.md' },
    });
    expect(judged.statusCode).toBeLessThan(300);
  });

  it('refuses a lone surrogate or NUL wherever it sits in a body, names included', async () => {
    expectRefused(
      await call('POST', '/v1/evaluate', { action: 'fs.read', payload: { path: 'a\udc00' } }),
      'body.payload.path',
      SURROGATE,
    );
    expectRefused(
      await call('POST', '/v1/evaluate', { action: 'fs.read', payload: { 'odd key\ud800': 'x' } }),
      'body.payload["odd key\\ud800"]',
      SURROGATE,
    );
    expectRefused(
      await call('POST', '/v2/vault/store', { claim: 'The sky\u0000 is blue', source: 's', confidence: 0.5 }),
      'body.claim',
      NUL,
    );
    expectRefused(
      await call('PUT', '/v2/policies', { policies: 'permit (principal, action, resource); // \ud83d' }),
      'body.policies',
      SURROGATE,
    );
  });

  it('refuses them in path parameters, the query and the Idempotency-Key header', async () => {
    expectRefused(await call('GET', '/v2/vault/claims/abc%00def'), 'params.id', NUL);
    expectRefused(await call('GET', '/v2/vault/claims?cursor=a%00'), 'query.cursor', NUL);
    expectRefused(
      await call(
        'POST',
        '/v2/vault/store',
        { claim: 'Paris is in France', source: 's', confidence: 0.5 },
        { 'idempotency-key': 'retry-\ud800' },
      ),
      'header idempotency-key',
      SURROGATE,
    );
  });

  it('checks the key before the text: an unauthenticated request is a 401', async () => {
    const res = await t.app.inject({
      method: 'PUT',
      url: '/v1/settings/protected',
      payload: { branches: ['x\ud800'] },
    });
    expect(res.statusCode).toBe(401);
  });

  it('keeps a webhook description in any script byte for byte', async () => {
    const description = 'Déploiement → 本番 🚀 \u202eltr\u202c e\u0301';
    const created = await call('POST', '/webhooks', {
      url: 'https://hooks.example.com/arbiter',
      description,
    });
    expect(created.statusCode).toBe(201);
    expect(created.json().description).toBe(description);
    const read = await call('GET', `/webhooks/${created.json().id}`);
    expect(read.json().webhook.description).toBe(description);
    expect(read.payload).not.toContain('\ufffd');
  });

  it('reads surrogate pairs sent as escapes, as clients writing ASCII-only JSON do, as the characters', async () => {
    const created = await t.app.inject({
      method: 'POST',
      url: '/webhooks',
      headers: { ...bearer(t.ownerKey), 'content-type': 'application/json' },
      payload: String.raw`{"url":"https://hooks.example.com/ascii","description":"\uD83D\uDE80 d\u00e9ploiement"}`,
    });
    expect(created.statusCode).toBe(201);
    expect(created.json().description).toBe('🚀 déploiement');
  });

  it('refuses NUL in a console form like any other text', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/console/sign-in',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'api_key=abc%00def',
    });
    expect(res.statusCode).toBe(400);
    expect(res.payload).toContain('body.api_key');
  });

  it('refuses a console form field whose escapes are not UTF-8, instead of storing U+FFFD', async () => {
    for (const payload of ['api_key=%FF', 'name=d%C3', '%FE=x']) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/console/sign-in',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload,
      });
      expect(res.statusCode, payload).toBe(400);
      expect(res.payload).not.toContain('\ufffd');
    }
  });
});
