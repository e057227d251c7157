import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers/app.ts';
import { AUTHENTICATED_ROUTES } from './security/authenticated-routes.ts';

const PUBLIC_PATHS = ['/healthz', '/readyz', '/metrics', '/openapi.json', '/docs/', '/admin/accounts'];

describe('property: random requests never produce a 5xx', () => {
  let t: TestApp;
  let paths: string[];
  beforeAll(async () => {
    t = await createTestApp('sqlite', {
      env: { ARBITER_ADMIN_TOKEN: 'operator-token-0123456789', ARBITER_LOG_LEVEL: 'silent' },
    });
    const other = await t.newAccount();
    paths = [...PUBLIC_PATHS, ...AUTHENTICATED_ROUTES.map((r) => r.url({ foreignKeyId: other.keyId }))];
  });
  afterAll(() => t.close());

  it('answers every request with a non-5xx status and, on error, the DESIGN error body', async () => {
    const json = fc.jsonValue({ maxDepth: 4 });
    const body = fc.oneof(
      json.map((v) => JSON.stringify(v)),
      // Verdict requests, some bound to a ledger state the account does not have (412).
      fc
        .record(
          {
            action: fc.constantFrom(
              'db.query',
              'shell.exec',
              'fs.read',
              'http.request',
              'agent.respond',
              'x',
            ),
            payload: fc.dictionary(fc.constantFrom('sql', 'command', 'path', 'url', 'text'), fc.string()),
            expected_state_hash: fc.constantFrom('0'.repeat(64), 'f'.repeat(64)),
          },
          { requiredKeys: ['action', 'payload'] },
        )
        .map((v) => JSON.stringify(v)),
      fc.string({ maxLength: 200 }),
      fc.constantFrom(
        '{',
        '[1,',
        '{"name":',
        '\u0000',
        '{"__proto__":{}}',
        '{"name":"a","constructor":{"prototype":{}}}',
      ),
      fc
        .record({ name: fc.oneof(fc.string(), fc.integer(), fc.constant(null)) }, { requiredKeys: [] })
        .map((v) => JSON.stringify(v)),
    );
    const path = fc.oneof(
      fc.constantFrom(...paths),
      fc.tuple(fc.constantFrom(...paths), fc.webSegment()).map(([p, s]) => `${p}/${s}`),
      // An HTTP request line always carries a path starting with '/'.
      fc.webPath().map((p) => (p.startsWith('/') ? p : `/${p}`)),
      fc.string({ maxLength: 40 }).map((s) => `/${encodeURIComponent(s)}`),
    );
    const authorization = fc.oneof(
      fc.constant(undefined),
      fc.constant(`Bearer ${t.ownerKey}`),
      fc.string({ maxLength: 80 }),
      fc.string({ maxLength: 40 }).map((s) => `Bearer arbiter_sk_${s}`),
      fc.constant('Bearer operator-token-0123456789'),
    );
    const contentType = fc.constantFrom(
      undefined,
      'application/json',
      'text/plain',
      'application/x-www-form-urlencoded',
      'application/json; charset=latin1',
      'multipart/form-data',
      '',
    );

    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE'),
        path,
        body,
        authorization,
        contentType,
        async (method, url, payload, auth, type) => {
          const headers: Record<string, string> = {};
          if (auth !== undefined) headers.authorization = auth;
          if (type !== undefined) headers['content-type'] = type;
          const res = await t.app.inject({
            method: method as 'GET',
            url,
            headers,
            ...(method === 'GET' ? {} : { payload }),
          });
          expect(res.statusCode, `${method} ${url} ${payload}`).toBeLessThan(500);
          // A verdict is a result, not an error: 409 CONFLICT_DETECTED and 412 STATE_DRIFT carry it.
          const verdictRoute = method === 'POST' && url.split('?')[0] === '/v1/evaluate';
          const mcpProtocol =
            url.split('?')[0] === '/mcp' &&
            String(res.headers['content-type']).startsWith('application/json') &&
            res.json()?.jsonrpc === '2.0';
          if (verdictRoute && [200, 409, 412].includes(res.statusCode)) {
            const verdict = res.json();
            expect(verdict).toMatchObject({
              is_safe: expect.any(Boolean),
              hash: expect.stringMatching(/^[0-9a-f]{64}$/),
              state_hash: expect.any(String),
            });
            if (res.statusCode !== 200) expect(verdict.is_safe).toBe(false);
          } else if (mcpProtocol && res.statusCode >= 400) {
            // Past authentication, /mcp speaks MCP: its errors are JSON-RPC errors, as clients expect.
            expect(res.json()).toMatchObject({
              jsonrpc: '2.0',
              error: { code: expect.any(Number), message: expect.any(String) },
            });
          } else if (res.statusCode >= 400) {
            const parsed = res.json();
            expect(parsed).toMatchObject({
              success: false,
              error: { code: expect.any(String), message: expect.any(String) },
              request_id: expect.any(String),
            });
          }
        },
      ),
      { numRuns: 400 },
    );
  });
});
