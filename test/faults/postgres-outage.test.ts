import net from 'node:net';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTcpProxy, type TcpProxy } from '../../scripts/lib/tcp-proxy.ts';
import { isDatabaseUnavailable } from '../../src/db/database.ts';
import { freshDatabase, TEST_DATABASE_URL, type TestDatabase } from '../helpers/databases.ts';
import { type Started, serve } from '../helpers/process.ts';

/**
 * PostgreSQL going away under load, on a real `arbiter serve` process: a TCP proxy between the
 * server and the real PostgreSQL is cut (every connection reset, no new one accepted) while
 * requests run, then restored. The process must stay up, answer 503 with Retry-After and the
 * error body meanwhile (never 500, never a dropped connection), and serve again within 5 s of
 * PostgreSQL coming back, by itself.
 */

const KEY = `arbiter_sk_${'f'.repeat(40)}`;
const HEADERS = { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' };

interface Outcome {
  route: string;
  status: number | 'no answer';
  retryAfter: string | null;
  body: unknown;
}

/** The mixed load: a verdict (its audit entry goes through the writer thread), a read, a write. */
const CALLS: Array<{ route: string; init: (i: number) => RequestInit; path: string }> = [
  {
    route: 'evaluate',
    path: '/v1/evaluate',
    init: (i) => ({
      method: 'POST',
      headers: HEADERS,
      body: JSON.stringify({ action: 'fs.read', payload: { path: `/srv/app/file-${i}.txt` } }),
    }),
  },
  { route: 'api-keys', path: '/api-keys', init: () => ({ headers: HEADERS }) },
  {
    route: 'store',
    path: '/v2/vault/store',
    init: (i) => ({
      method: 'POST',
      headers: HEADERS,
      body: JSON.stringify({ claim: `Invoice ${i} was paid.`, source: 'outage test', confidence: 0.8 }),
    }),
  },
];

async function call(url: string, n: number): Promise<Outcome> {
  const c = CALLS[n % CALLS.length]!;
  try {
    const res = await fetch(`${url}${c.path}`, { ...c.init(n), signal: AbortSignal.timeout(15_000) });
    const text = await res.text();
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {}
    return { route: c.route, status: res.status, retryAfter: res.headers.get('retry-after'), body };
  } catch {
    // The connection was dropped or refused: the server crashed or hung.
    return { route: c.route, status: 'no answer', retryAfter: null, body: undefined };
  }
}

/** Clients that send the mixed load back to back, recording every outcome, until stopped. */
function load(url: string, clients: number) {
  const outcomes: Outcome[] = [];
  let running = true;
  let n = 0;
  const loops = Array.from({ length: clients }, async () => {
    while (running) outcomes.push(await call(url, n++));
  });
  return {
    outcomes,
    /** Outcomes recorded from now on. */
    mark: () => outcomes.length,
    async stop() {
      running = false;
      await Promise.all(loops);
    },
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const count = (outcomes: Outcome[], f: (o: Outcome) => boolean) => outcomes.filter(f).length;

describe.runIf(TEST_DATABASE_URL)('PostgreSQL going away under load', () => {
  let database: TestDatabase;
  let proxy: TcpProxy;
  let server: Started;

  beforeAll(async () => {
    database = await freshDatabase('postgres');
    const direct = new URL((database.database as { url: string }).url);
    proxy = await startTcpProxy({ host: direct.hostname, port: Number(direct.port || 5432) });
    const proxied = new URL(direct);
    proxied.port = String(proxy.port);
    server = await serve({
      DATABASE_URL: proxied.toString(),
      ARBITER_DATA_DIR: database.dir,
      ARBITER_BOOTSTRAP_KEY: KEY,
      ARBITER_EMBEDDER: 'hash',
      ARBITER_LOG_LEVEL: 'info',
    });
  });
  afterAll(async () => {
    if (server?.child.exitCode === null) server.child.kill('SIGKILL');
    await proxy?.close();
    await database?.drop();
  });

  it('stays up, answers 503 with Retry-After while it is gone, and recovers within 5 s', async () => {
    // Warm: every kind of call succeeds through the proxy.
    for (let i = 0; i < CALLS.length; i++) {
      const o = await call(server.url, i);
      expect(o.status, `${o.route} before the outage: ${JSON.stringify(o.body)}`).toBeLessThan(300);
    }

    const traffic = load(server.url, 12);
    await sleep(1500);
    expect(proxy.open).toBeGreaterThan(0);

    // PostgreSQL goes away mid-load: every connection reset, no new connection accepted.
    await proxy.cut();
    const cutAt = traffic.mark();
    await sleep(2500);
    const duringEnd = traffic.mark();

    // The audit saw the process die within a second; it is still here, and answering.
    expect(server.child.exitCode).toBeNull();
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    const ready = await fetch(`${server.url}/readyz`);
    expect(ready.status).toBe(503);
    expect(ready.headers.get('retry-after')).toMatch(/^\d+$/);

    // A request that needs the database: 503, Retry-After, and the error body of every endpoint.
    const listed = await call(server.url, 1);
    expect(listed.status).toBe(503);
    expect(listed.retryAfter).toMatch(/^[1-9]\d*$/);
    expect(listed.body).toEqual({
      success: false,
      error: { code: 'UNAVAILABLE', message: expect.any(String) },
      request_id: expect.stringMatching(/^req_/),
    });
    expect(JSON.stringify(listed.body)).not.toMatch(/ECONN|terminated|pg|stack/i);

    // Everything answered during the outage (after the requests already in flight when it
    // began) is a success or a 503 with Retry-After: no 500, no dropped connection.
    const during = traffic.outcomes.slice(cutAt, duringEnd);
    expect(during.length).toBeGreaterThan(20);
    const bad = during.filter(
      (o) => o.status === 'no answer' || (o.status !== 503 && (o.status as number) >= 300),
    );
    expect(bad, JSON.stringify(bad.slice(0, 3))).toEqual([]);
    expect(count(during, (o) => o.status === 503)).toBeGreaterThan(10);
    expect(count(during, (o) => o.status === 503 && o.retryAfter === null)).toBe(0);
    for (const route of CALLS.map((c) => c.route)) {
      expect(
        count(during, (o) => o.route === route && o.status === 503),
        route,
      ).toBeGreaterThan(0);
    }
    // Before the cut, the same load was served without a failure.
    const before = traffic.outcomes.slice(0, cutAt);
    expect(before.length).toBeGreaterThan(10);
    expect(before.filter((o) => o.status === 'no answer' || o.status >= 300)).toEqual([]);

    // PostgreSQL is back: the service recovers by itself, within 5 s.
    await proxy.restore();
    const restoredAt = performance.now();
    let recoveredMs = Number.POSITIVE_INFINITY;
    while (performance.now() - restoredAt < 5000) {
      if ((await call(server.url, 1)).status === 200) {
        recoveredMs = performance.now() - restoredAt;
        break;
      }
      await sleep(50);
    }
    expect(recoveredMs).toBeLessThan(5000);
    console.info(`recovered ${Math.round(recoveredMs)} ms after PostgreSQL came back`);

    // Once recovered, every kind of call succeeds again under the same load.
    await sleep(1500);
    const settled = traffic.mark();
    await sleep(1500);
    await traffic.stop();
    const after = traffic.outcomes.slice(settled);
    expect(after.length).toBeGreaterThan(10);
    expect(
      after.filter((o) => o.status === 'no answer' || o.status >= 300),
      JSON.stringify(after.filter((o) => o.status === 'no answer' || o.status >= 300).slice(0, 3)),
    ).toEqual([]);
    expect((await fetch(`${server.url}/readyz`)).status).toBe(200);

    // No crash trace, and the lost connections were reported through the structured log.
    expect(server.stderr()).not.toMatch(/Unhandled 'error' event|Connection terminated unexpectedly/);
    expect(server.stdout()).toContain('a PostgreSQL connection was lost');
    expect(server.stdout()).not.toContain('"msg":"unhandled error"');
    // The writer thread's own connection was cut too: it survived it, rather than handing its
    // work to the main thread for good.
    expect(server.stdout()).not.toContain('writer thread stopped');

    // And it still stops cleanly, writing what it buffered during the outage.
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
  }, 90_000);
});

describe('which database errors answer 503', () => {
  it('a connection PostgreSQL never accepted', async () => {
    // A port with nothing listening: the refusal node-postgres really reports.
    const probe = net.createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const port = (probe.address() as net.AddressInfo).port;
    await new Promise((resolve) => probe.close(resolve));
    const client = new pg.Client({ connectionString: `postgres://postgres@127.0.0.1:${port}/postgres` });
    const refused = await client.connect().then(
      () => undefined,
      (err: unknown) => err,
    );
    expect(refused).toBeInstanceOf(Error);
    expect(isDatabaseUnavailable(refused)).toBe(true);
  });

  it('connection-level failures, not a query PostgreSQL refused', () => {
    expect(isDatabaseUnavailable(new Error('Connection terminated unexpectedly'))).toBe(true);
    expect(
      isDatabaseUnavailable(
        new Error('Connection terminated due to connection timeout', { cause: new Error('timeout expired') }),
      ),
    ).toBe(true);
    expect(isDatabaseUnavailable(Object.assign(new Error('terminating connection'), { code: '57P01' }))).toBe(
      true,
    );
    expect(isDatabaseUnavailable(Object.assign(new Error('syntax error'), { code: '42601' }))).toBe(false);
    expect(isDatabaseUnavailable(Object.assign(new Error('duplicate key'), { code: '23505' }))).toBe(false);
    expect(isDatabaseUnavailable(new Error('something else'))).toBe(false);
    expect(isDatabaseUnavailable('Connection terminated')).toBe(false);
  });
});

describe.runIf(TEST_DATABASE_URL)('which database errors answer 503, on PostgreSQL', () => {
  it('a statement PostgreSQL refuses is not an outage', async () => {
    const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
    await client.connect();
    try {
      const refused = await client.query('selec 1').then(
        () => undefined,
        (err: unknown) => err,
      );
      expect(refused).toBeInstanceOf(Error);
      expect(isDatabaseUnavailable(refused)).toBe(false);
    } finally {
      await client.end();
    }
  });
});
