import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { ArbiterError, createArbiter, retryAfterMs } from '../src/index.ts';

interface Seen {
  method: string;
  url: string;
  idempotencyKey: string | undefined;
}

/** A local HTTP server answering from a script of responses, recording what it was sent. */
async function scripted(
  answers: Array<{ status: number; headers?: Record<string, string>; body?: unknown; delayMs?: number }>,
) {
  const seen: Seen[] = [];
  const server = http.createServer((req, res) => {
    seen.push({
      method: req.method!,
      url: req.url!,
      idempotencyKey: req.headers['idempotency-key'] as string | undefined,
    });
    const answer = answers[Math.min(seen.length - 1, answers.length - 1)]!;
    req.resume();
    setTimeout(() => {
      res.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers });
      res.end(JSON.stringify(answer.body ?? {}));
    }, answer.delayMs ?? 0);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  servers.push(server);
  return { url, seen };
}

const servers: http.Server[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) {
    s.closeAllConnections();
    await new Promise((resolve) => s.close(resolve));
  }
});

const busy = (retryAfter: string) => ({
  status: 429,
  headers: { 'retry-after': retryAfter },
  body: { success: false, error: { code: 'QUOTA_EXCEEDED', message: 'slow down' }, request_id: 'req_1' },
});
const stored = {
  status: 201,
  body: {
    id: 'x',
    short_id: 'x',
    version: 1,
    claim: 'c',
    conflicts: [],
    superseded: [],
    state_hash: 'h',
    scrubbed: {},
  },
};

describe('the transport', () => {
  it('waits as long as Retry-After asks, then retries a write with the same Idempotency-Key', async () => {
    const { url, seen } = await scripted([busy('1'), stored]);
    const arbiter = createArbiter({ baseUrl: url, apiKey: 'k' });
    const started = Date.now();
    const result = await arbiter.remember({ claim: 'c', source: 's', confidence: 0.5 });
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    expect(result.version).toBe(1);
    expect(seen).toHaveLength(2);
    expect(seen[0]!.idempotencyKey).toMatch(/^[0-9a-f-]{36}$/);
    expect(seen[1]!.idempotencyKey).toBe(seen[0]!.idempotencyKey);
  });

  it('does not wait for a Retry-After beyond its limit: the typed error comes back at once', async () => {
    const { url, seen } = await scripted([busy('3600')]);
    const arbiter = createArbiter({ baseUrl: url, apiKey: 'k', maxRetryDelayMs: 1000 });
    const error = await arbiter.remember({ claim: 'c', source: 's', confidence: 0.5 }).catch((e) => e);
    expect(error).toBeInstanceOf(ArbiterError);
    expect(error).toMatchObject({ code: 'QUOTA_EXCEEDED', status: 429, requestId: 'req_1' });
    expect(seen).toHaveLength(1);
  });

  it('gives reads no Idempotency-Key and retries a 503 a bounded number of times', async () => {
    const unavailable = {
      status: 503,
      body: { success: false, error: { code: 'UNAVAILABLE', message: 'down' }, request_id: 'r' },
    };
    const { url, seen } = await scripted([unavailable]);
    const arbiter = createArbiter({ baseUrl: url, apiKey: 'k', retries: 2 });
    const error = await arbiter.waitForDecision('e').catch((e) => e);
    expect(error).toMatchObject({ code: 'UNAVAILABLE', unreachable: true });
    expect(seen.map((s) => s.idempotencyKey)).toEqual([undefined, undefined, undefined]);
  });

  it('times out each attempt and says so', async () => {
    const { url, seen } = await scripted([{ status: 200, body: {}, delayMs: 2000 }]);
    const arbiter = createArbiter({ baseUrl: url, apiKey: 'k', timeoutMs: 100, retries: 1 });
    const error = await arbiter.evaluate('fs.read', { path: 'x' }).catch((e) => e);
    expect(error).toMatchObject({ code: 'TIMEOUT' });
    expect(seen).toHaveLength(2);
  });

  it('reports an address nobody listens on as UNREACHABLE', async () => {
    const arbiter = createArbiter({ baseUrl: 'http://127.0.0.1:9', apiKey: 'k', retries: 0 });
    await expect(arbiter.recall('anything')).rejects.toMatchObject({ code: 'UNREACHABLE' });
  });

  it('reads Retry-After as seconds or as an HTTP date', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(retryAfterMs('7', now)).toBe(7000);
    expect(retryAfterMs('Thu, 01 Jan 2026 00:00:03 GMT', now)).toBe(3000);
    expect(retryAfterMs('soon', now)).toBeUndefined();
    expect(retryAfterMs(null, now)).toBeUndefined();
  });
});
