import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { metricsAccess } from '../../src/http/ops-routes.ts';
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

  it('points the root to the console and the API reference instead of a 404', async () => {
    const res = await t.app.inject('/');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ console: '/console', docs: '/docs', openapi: '/openapi.json' });
    for (const link of ['/console', '/docs', '/openapi.json']) {
      expect((await t.app.inject(link)).statusCode, link).toBeLessThan(400);
    }
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
    await t.app.inject({ method: 'GET', url: '/no/such/path/zq-unmatched-probe' });
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
    // The path itself never becomes a label (a number would be found among metric values by chance).
    expect(res.body).not.toContain('zq-unmatched-probe');
  });

  it('reports the live heap after a full garbage collection', async () => {
    const live = async () =>
      Number(/^arbiter_heap_after_full_gc_bytes (\d+)$/m.exec((await t.app.inject('/metrics')).body)?.[1]);
    expect(await live()).toBeGreaterThanOrEqual(0);
    // A full collection, forced the way V8 allows without --expose-gc: a heap snapshot.
    const { getHeapSnapshot } = await import('node:v8');
    getHeapSnapshot().resume();
    let after = 0;
    for (let polls = 0; polls < 50 && after === 0; polls++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      after = await live();
    }
    expect(after).toBeGreaterThan(1024 * 1024);
  });

  it('says how many bytes of claim vectors the k-NN scans hold, and what the k-NN thread uses', async () => {
    const held = async () => {
      const body = (await t.app.inject('/metrics')).body;
      return Number(/^arbiter_vector_cache_bytes (\d+)$/m.exec(body)?.[1]);
    };
    const before = await held();
    expect(before).toBeGreaterThanOrEqual(0);
    for (let i = 0; i < 20; i++)
      await t.app.inject({
        method: 'POST',
        url: '/v2/vault/store',
        headers: bearer(t.ownerKey),
        payload: {
          claim: `Warehouse ${i} holds ${i * 40} pallets of tiles.`,
          source: 'ops',
          confidence: 0.8,
        },
      });
    await t.app.inject({
      method: 'POST',
      url: '/v2/vault/search',
      headers: bearer(t.ownerKey),
      payload: { query: 'How many pallets does warehouse 3 hold?' },
    });
    // The k-NN thread reports what it holds after it answers; the report crosses threads.
    let after = before;
    for (let polls = 0; polls < 50 && after <= before; polls++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      after = await held();
    }
    expect(after).toBeGreaterThan(before);
    // The thread's own heap comes with its report once it answered (until it is ready, the
    // main thread answers): a few MB at least, far below a GB.
    const thread = async () =>
      Number(/^arbiter_knn_thread_memory_bytes (\d+)$/m.exec((await t.app.inject('/metrics')).body)?.[1]);
    await t.container.ledger.warmUp();
    await t.app.inject({
      method: 'POST',
      url: '/v2/vault/search',
      headers: bearer(t.ownerKey),
      payload: { query: 'Which warehouse holds the most pallets?' },
    });
    let used = 0;
    for (let polls = 0; polls < 50 && used === 0; polls++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      used = await thread();
    }
    expect(used).toBeGreaterThan(2 ** 20);
    expect(used).toBeLessThan(2 ** 30);
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

describe('who may read /metrics', () => {
  it('anyone on a loopback address, no one beyond it without a token', () => {
    expect(metricsAccess('127.0.0.1', undefined)(undefined)).toBeUndefined();
    expect(metricsAccess('::1', undefined)(undefined)).toBeUndefined();
    const open = metricsAccess('0.0.0.0', undefined)(undefined);
    expect(open?.code).toBe('FORBIDDEN');
    expect(open?.message).toContain('ARBITER_METRICS_TOKEN');
    expect(metricsAccess('10.0.0.5', undefined)('Bearer anything')?.code).toBe('FORBIDDEN');
  });

  it('with a token, only a request that carries it', () => {
    const token = 'metrics-token-0123456789';
    for (const host of ['127.0.0.1', '0.0.0.0']) {
      const refusal = metricsAccess(host, token);
      expect(refusal(`Bearer ${token}`)).toBeUndefined();
      expect(refusal(undefined)?.code).toBe('UNAUTHENTICATED');
      expect(refusal(`Bearer ${token}x`)?.code).toBe('UNAUTHENTICATED');
      expect(refusal(token)?.code).toBe('UNAUTHENTICATED');
    }
  });

  it('is enforced on the route', async () => {
    const token = 'metrics-token-0123456789';
    const guarded = await createTestApp('sqlite', { env: { HOST: '0.0.0.0', ARBITER_METRICS_TOKEN: token } });
    try {
      expect((await guarded.app.inject('/metrics')).statusCode).toBe(401);
      const res = await guarded.app.inject({
        url: '/metrics',
        headers: { authorization: `Bearer ${token}` },
      });
      expect(res.statusCode).toBe(200);
      expect(res.body).toContain('arbiter_http_requests_total');
    } finally {
      await guarded.close();
    }
    const open = await createTestApp('sqlite', { env: { HOST: '0.0.0.0' } });
    try {
      const res = await open.app.inject('/metrics');
      expect(res.statusCode).toBe(403);
      expect(res.json().error.code).toBe('FORBIDDEN');
    } finally {
      await open.close();
    }
  });
});
