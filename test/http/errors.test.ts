import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jsonDepth, MAX_JSON_DEPTH } from '../../src/http/json-parser.ts';
import { bearer, createTestApp, type TestApp } from '../helpers/app.ts';

describe('error handling', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp('sqlite', { env: { ARBITER_BODY_LIMIT: '4096' } });
  });
  afterAll(() => t.close());

  const post = (payload: string, headers: Record<string, string> = {}) =>
    t.app.inject({
      method: 'POST',
      url: '/api-keys',
      payload,
      headers: { ...bearer(t.ownerKey), 'content-type': 'application/json', ...headers },
    });

  function expectError(res: Awaited<ReturnType<typeof post>>, status: number, code: string) {
    expect(res.statusCode).toBe(status);
    const body = res.json();
    expect(body).toEqual({
      success: false,
      error: {
        code,
        message: expect.any(String),
        ...(body.error.details ? { details: expect.anything() } : {}),
      },
      request_id: res.headers['x-request-id'],
    });
    expect(res.headers['content-type']).toMatch(/^application\/json/);
  }

  it('refuses malformed JSON', async () => {
    expectError(await post('{"name": '), 400, 'INVALID_JSON');
    expectError(await post(''), 400, 'INVALID_JSON');
  });
  it('refuses a wrong content type', async () => {
    expectError(
      await post('name=x', { 'content-type': 'application/x-www-form-urlencoded' }),
      415,
      'UNSUPPORTED_MEDIA_TYPE',
    );
    expectError(await post('name', { 'content-type': 'text/plain' }), 415, 'UNSUPPORTED_MEDIA_TYPE');
  });
  it('accepts JSON with a charset parameter', async () => {
    const res = await post('{"name":"charset"}', { 'content-type': 'application/json; charset=utf-8' });
    expect(res.statusCode).toBe(201);
  });
  it('refuses bodies over the limit with 413', async () => {
    expectError(await post(JSON.stringify({ name: 'x'.repeat(5000) })), 413, 'PAYLOAD_TOO_LARGE');
  });
  it('refuses deep nesting before parsing', async () => {
    const deep = `{"name":${'['.repeat(MAX_JSON_DEPTH + 1)}${']'.repeat(MAX_JSON_DEPTH + 1)}}`;
    expectError(await post(deep), 400, 'VALIDATION_ERROR');
  });
  it('refuses prototype poisoning', async () => {
    expectError(await post('{"name":"x","__proto__":{"admin":true}}'), 400, 'INVALID_JSON');
  });
  it('answers unknown routes with NOT_FOUND, and another method on a known one with METHOD_NOT_ALLOWED', async () => {
    expectError(await t.app.inject({ method: 'GET', url: '/nope?x=1' }), 404, 'NOT_FOUND');
    const patch = await t.app.inject({ method: 'PATCH', url: '/api-keys' });
    expectError(patch, 405, 'METHOD_NOT_ALLOWED');
    expect(patch.headers.allow).toBe('GET, POST');
  });
  it('answers a missing body on a POST with VALIDATION_ERROR', async () => {
    expectError(
      await t.app.inject({ method: 'POST', url: '/api-keys', headers: bearer(t.ownerKey) }),
      400,
      'VALIDATION_ERROR',
    );
  });
  it('counts depth without being fooled by brackets inside strings', () => {
    expect(jsonDepth('{"a":"[[[[{{{{"}')).toBe(1);
    expect(jsonDepth('{"a":"\\"[[["}')).toBe(1);
    expect(jsonDepth('[[[1]],[2]]')).toBe(3);
  });
});

describe('a known path asked with another method', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp('sqlite');
  });
  afterAll(() => t.close());

  it('answers 405 with Allow naming the methods it takes', async () => {
    const cases: Array<[string, string, string]> = [
      ['GET', '/v1/evaluate', 'POST'],
      ['DELETE', '/v2/vault/store', 'POST'],
      ['PUT', '/api-keys/8f14e45f-ceea-467f-a0e6-1f6a1b2c3d4e', 'DELETE'],
    ];
    for (const [method, url, allowed] of cases) {
      const res = await t.app.inject({ method: method as 'GET', url, headers: bearer(t.ownerKey) });
      expect(res.statusCode, `${method} ${url}`).toBe(405);
      expect(res.headers.allow).toContain(allowed);
      expect(res.json().error.code).toBe('METHOD_NOT_ALLOWED');
    }
    const get = await t.app.inject({
      method: 'POST',
      url: '/api-keys?x=1',
      headers: bearer(t.ownerKey),
      payload: { name: 'k' },
    });
    expect(get.statusCode).toBe(201);
  });

  it('answers router errors with the error body: a path segment too long, a malformed URL', async () => {
    const long = await t.app.inject({
      method: 'GET',
      url: `/checkout/${'x'.repeat(300)}`,
      headers: bearer(t.ownerKey),
    });
    expect(long.statusCode).toBe(400);
    expect(long.json().error.code).toBe('VALIDATION_ERROR');
    expect(long.json().error.message).toContain('longer than 200');
    const bad = await t.app.inject({
      method: 'GET',
      url: '/v1/actions/%E0%A4%A',
      headers: bearer(t.ownerKey),
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ success: false, error: { code: 'VALIDATION_ERROR' } });
  });

  it('names the field, and the values it takes, in a validation message', async () => {
    const message = async (method: 'POST', url: string, payload: object) =>
      (await t.app.inject({ method, url, headers: bearer(t.ownerKey), payload })).json().error.message;
    expect(await message('POST', '/api-keys', { name: 'ok', scope: 'admin' })).toBe(
      "body has an unknown field 'scope'",
    );
    expect(await message('POST', '/v2/vault/store', { source: 's', confidence: 1 })).toBe(
      "body is missing the field 'claim'",
    );
    const role = await message('POST', '/v2/actions/evaluate', {
      action_type: 'x',
      actor: 'a',
      actor_role: 'king',
      impact_scope: 'internal',
      payload: {},
    });
    expect(role).toMatch(/^body\/actor_role must be one of "user", "admin", "assistant"/);
  });

  it('still answers 404 for a path no route has', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/v1/nothing-here', headers: bearer(t.ownerKey) });
    expect(res.statusCode).toBe(404);
    expect(res.headers.allow).toBeUndefined();
  });
});
