import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, type TestApp } from '../helpers/app.ts';

describe('operational endpoints', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp('sqlite');
  });
  afterAll(() => t.close());

  it('answers health and readiness without a key', async () => {
    expect((await t.app.inject('/healthz')).json()).toEqual({ status: 'ok' });
    expect((await t.app.inject('/readyz')).json()).toEqual({ status: 'ready' });
  });

  it('reports readiness as 503 once the database is gone', async () => {
    const other = await createTestApp('sqlite');
    await other.container.db.close();
    const res = await other.app.inject('/readyz');
    expect(res.statusCode).toBe(503);
    expect(res.json().error.code).toBe('UNAVAILABLE');
    await other.app.close();
    await other.db.drop();
  });

  it('exposes per-route request counts and latency histograms', async () => {
    await t.app.inject({ method: 'GET', url: '/api-keys', headers: bearer(t.ownerKey) });
    await t.app.inject({ method: 'GET', url: '/no/such/path/12345' });
    const res = await t.app.inject('/metrics');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
    expect(res.body).toMatch(
      /arbiter_http_requests_total\{method="GET",route="\/api-keys",status_code="200"\} 1/,
    );
    expect(res.body).toMatch(
      /arbiter_http_request_duration_seconds_bucket\{le="0.005",method="GET",route="\/api-keys",status_code="200"\}/,
    );
    expect(res.body).toContain('route="unmatched"');
    expect(res.body).not.toContain('12345');
  });

  it('serves an OpenAPI 3.1 document generated from the route schemas', async () => {
    const doc = (await t.app.inject('/openapi.json')).json();
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.paths['/api-keys'].post.requestBody.content['application/json'].schema.required).toEqual([
      'name',
    ]);
    expect(doc.paths['/healthz'].get.security).toEqual([]);
    expect(JSON.stringify(doc)).not.toContain('key_hash');
  });

  it('serves the docs UI', async () => {
    const res = await t.app.inject('/docs/');
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('swagger');
  });

  it('sets the version and request id headers', async () => {
    const res = await t.app.inject('/healthz');
    expect(res.headers['arbiter-version']).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(res.headers['x-request-id']).toMatch(/^req_[0-9a-f]{32}$/);
  });
});
