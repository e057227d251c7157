import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, type TestApp } from '../helpers/app.ts';
import { DIALECTS } from '../helpers/databases.ts';

/**
 * Every route that takes a state precondition reads it with one meaning (src/lib/state-precondition.ts).
 * Each route answers in its own form: a verdict, a judgment decision or the error body. This suite
 * sends the same variants to each and compares what they come to.
 */

type Outcome = 'ok' | 'drift' | `invalid ${string}`;

interface Variant {
  name: string;
  /** `expected_state_hash` in the body, built from the current and a stale state hash. */
  body?: (current: string, stale: string) => unknown;
  ifMatch?: (current: string, stale: string) => string;
  expect: Outcome;
}

const STALE = 'ab'.repeat(32);

const VARIANTS: Variant[] = [
  { name: 'no precondition', expect: 'ok' },
  { name: 'body: current', body: (s) => s, expect: 'ok' },
  { name: 'body: current, upper case', body: (s) => s.toUpperCase(), expect: 'ok' },
  { name: 'body: stale', body: (_, x) => x, expect: 'drift' },
  { name: 'If-Match: "current"', ifMatch: (s) => `"${s}"`, expect: 'ok' },
  { name: 'If-Match: W/"current"', ifMatch: (s) => `W/"${s}"`, expect: 'ok' },
  { name: 'If-Match: current, unquoted', ifMatch: (s) => s, expect: 'ok' },
  { name: 'If-Match: "CURRENT"', ifMatch: (s) => `"${s.toUpperCase()}"`, expect: 'ok' },
  { name: 'If-Match: "stale"', ifMatch: (_, x) => `"${x}"`, expect: 'drift' },
  { name: 'If-Match: W/"stale"', ifMatch: (_, x) => `W/"${x}"`, expect: 'drift' },
  { name: 'If-Match: *', ifMatch: () => '*', expect: 'ok' },
  { name: 'If-Match: * with body: stale', ifMatch: () => '*', body: (_, x) => x, expect: 'drift' },
  { name: 'If-Match: * with body: current', ifMatch: () => '*', body: (s) => s, expect: 'ok' },
  { name: 'both: current', ifMatch: (s) => `"${s}"`, body: (s) => s, expect: 'ok' },
  { name: 'both: stale', ifMatch: (_, x) => `"${x}"`, body: (_, x) => x, expect: 'drift' },
  {
    name: 'both, disagreeing',
    ifMatch: (_, x) => `"${x}"`,
    body: (s) => s,
    expect: 'invalid If-Match',
  },
  { name: 'body: not a hash', body: () => 'abc', expect: 'invalid expected_state_hash' },
  { name: 'body: a number', body: () => 12, expect: 'invalid expected_state_hash' },
  { name: 'If-Match: not a hash', ifMatch: () => '"abc"', expect: 'invalid If-Match' },
  { name: 'If-Match: a list', ifMatch: (s, x) => `"${s}", "${x}"`, expect: 'invalid If-Match' },
  { name: 'If-Match: empty', ifMatch: () => '', expect: 'invalid If-Match' },
  { name: 'If-Match: unbalanced quote', ifMatch: (s) => `"${s}`, expect: 'invalid If-Match' },
];

interface Route {
  name: string;
  /** Only If-Match: the route has no body. */
  headerOnly?: boolean;
  /** A ledger write: one that is refused leaves the state as it was. */
  writes?: boolean;
  /** What the request needs before the state is read (the claim a delete removes). */
  prepare?(t: TestApp, key: string, n: number): Promise<string>;
  /** Sends one request; `n` keeps repeated refusals from being read as a loop. */
  send(
    t: TestApp,
    key: string,
    n: number,
    extra: object,
    headers: Record<string, string>,
    prepared: string,
  ): Promise<LightMyRequestResponse>;
  outcome(res: LightMyRequestResponse): Outcome | undefined;
}

/** What the error body says: a drift, or a malformed field named in its message. */
function errorOutcome(res: LightMyRequestResponse, ok: number): Outcome | undefined {
  if (res.statusCode === ok) return 'ok';
  const { code, message } = res.json().error as { code: string; message: string };
  if (res.statusCode === 412 && code === 'STATE_DRIFT') return 'drift';
  if (res.statusCode === 400 && code === 'VALIDATION_ERROR') return invalid(message);
  return undefined;
}

/** `If-Match` is named before `expected_state_hash`: a message about both is about the header. */
function invalid(message: string): Outcome {
  return `invalid ${message.includes('If-Match') ? 'If-Match' : message.includes('expected_state_hash') ? 'expected_state_hash' : message}`;
}

const post = (t: TestApp, key: string, url: string, payload: object, headers: Record<string, string>) =>
  t.app.inject({ method: 'POST', url, payload, headers: { ...bearer(key), ...headers } });

const claim = (n: number) => ({ claim: `Precondition fact number ${n}.`, source: 'test', confidence: 0.7 });

const ROUTES: Route[] = [
  {
    name: 'POST /v1/evaluate',
    send: (t, key, n, extra, headers) =>
      post(
        t,
        key,
        '/v1/evaluate',
        { action: 'agent.respond', payload: { text: `Done ${n}.` }, ...extra },
        headers,
      ),
    // A verdict: a malformed request is a SCHEMA_MISMATCH verdict, a drift a 412 verdict.
    outcome: (res) => {
      const verdict = res.json() as { is_safe: boolean; error?: { code: string; message: string } };
      if (res.statusCode === 200 && verdict.is_safe) return 'ok';
      if (res.statusCode === 412 && verdict.error?.code === 'STATE_DRIFT') return 'drift';
      if (res.statusCode === 200 && verdict.error?.code === 'SCHEMA_MISMATCH')
        return invalid(verdict.error.message);
      return undefined;
    },
  },
  {
    name: 'POST /v2/actions/evaluate',
    send: (t, key, n, extra, headers) =>
      post(
        t,
        key,
        '/v2/actions/evaluate',
        {
          action_type: 'http.request',
          actor: `agent-${n}`,
          actor_role: 'user',
          impact_scope: 'internal',
          payload: { url: 'https://api.github.com/' },
          ...extra,
        },
        headers,
      ),
    // A decision: a drift is BLOCKED by the consistency gate.
    outcome: (res) => {
      if (res.statusCode !== 200) return errorOutcome(res, 200);
      const body = res.json() as { decision: string; gates: { consistency: { code?: string } } };
      if (body.decision === 'ALLOWED') return 'ok';
      if (body.decision === 'BLOCKED' && body.gates.consistency.code === 'STATE_DRIFT') return 'drift';
      return undefined;
    },
  },
  {
    name: 'POST /v2/vault/store',
    writes: true,
    send: (t, key, n, extra, headers) => post(t, key, '/v2/vault/store', { ...claim(n), ...extra }, headers),
    outcome: (res) => errorOutcome(res, 201),
  },
  {
    name: 'POST /v2/vault/store_batch',
    writes: true,
    send: (t, key, n, extra, headers) =>
      post(t, key, '/v2/vault/store_batch', { claims: [claim(n)], ...extra }, headers),
    outcome: (res) => errorOutcome(res, 201),
  },
  {
    name: 'POST /ledger/propose_state',
    writes: true,
    send: (t, key, n, extra, headers) =>
      post(t, key, '/ledger/propose_state', { claim: claim(n).claim, confidence: 0.7, ...extra }, headers),
    outcome: (res) => errorOutcome(res, 201),
  },
  {
    name: 'DELETE /v2/vault/claims/:id',
    headerOnly: true,
    writes: true,
    prepare: async (t, key, n) =>
      ((await post(t, key, '/v2/vault/store', claim(n), {})).json() as { id: string }).id,
    send: (t, key, _n, _extra, headers, id) =>
      t.app.inject({
        method: 'DELETE',
        url: `/v2/vault/claims/${id}`,
        headers: { ...bearer(key), ...headers },
      }),
    outcome: (res) => errorOutcome(res, 200),
  },
];

describe.each(DIALECTS)('state preconditions on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect, { env: { ARBITER_LOG_LEVEL: 'silent', ARBITER_EMBEDDER: 'hash' } });
  });
  afterAll(() => t.close());

  it.each(ROUTES.map((route) => [route.name, route] as const))(
    '%s reads each variant with the one meaning',
    async (_name, route) => {
      const { key } = await t.newAccount();
      const state = async () =>
        (
          (await t.app.inject({ method: 'GET', url: '/v2/vault/state', headers: bearer(key) })).json() as {
            state_hash: string;
          }
        ).state_hash;
      // A state other than genesis, so that a hash written by another dialect or account cannot pass.
      await post(t, key, '/v2/vault/store', claim(-1), {});

      const variants = VARIANTS.filter((v) => !(route.headerOnly && v.body));
      const seen: Array<[string, Outcome | string]> = [];
      for (const [n, variant] of variants.entries()) {
        const prepared = route.prepare ? await route.prepare(t, key, n) : '';
        const current = await state();
        const extra = variant.body ? { expected_state_hash: variant.body(current, STALE) } : {};
        const headers: Record<string, string> = variant.ifMatch
          ? { 'if-match': variant.ifMatch(current, STALE) }
          : {};
        const res = await route.send(t, key, n, extra, headers, prepared);
        const outcome = route.outcome(res) ?? `${res.statusCode} ${res.body.slice(0, 200)}`;
        seen.push([variant.name, outcome]);
        if (route.writes && outcome !== 'ok') expect(await state(), variant.name).toBe(current);
      }
      expect(seen).toEqual(variants.map((v) => [v.name, v.expect]));
    },
  );
});

describe.each(DIALECTS)('the state a judged payload carries, on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect, { env: { ARBITER_LOG_LEVEL: 'silent', ARBITER_EMBEDDER: 'hash' } });
  });
  afterAll(() => t.close());

  it('is one more source of the same precondition: it must agree with the others', async () => {
    const { key } = await t.newAccount();
    const current = (
      (await t.app.inject({ method: 'GET', url: '/v2/vault/state', headers: bearer(key) })).json() as {
        state_hash: string;
      }
    ).state_hash;
    const judge = (n: number, carried: string, extra: object = {}, headers: Record<string, string> = {}) =>
      post(
        t,
        key,
        '/v2/actions/evaluate',
        {
          action_type: 'fs.read',
          actor: `agent-${n}`,
          actor_role: 'user',
          impact_scope: 'internal',
          payload: { path: 'notes.txt', expected_state_hash: carried },
          ...extra,
        },
        headers,
      );
    expect((await judge(1, current)).json().decision).toBe('ALLOWED');
    expect((await judge(2, STALE)).json().gates.consistency.code).toBe('STATE_DRIFT');
    expect((await judge(3, current, {}, { 'if-match': `"${current}"` })).json().decision).toBe('ALLOWED');
    const disagreeing = await judge(4, current, { expected_state_hash: STALE });
    expect(disagreeing.statusCode).toBe(400);
    expect(disagreeing.json().error.message).toContain('payload.expected_state_hash');
    const malformed = await judge(5, 'abc');
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().error.message).toContain('payload.expected_state_hash');
  });
});
