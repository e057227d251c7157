import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, type TestApp } from '../helpers/app.ts';
import { DIALECTS } from '../helpers/databases.ts';
import { seedFromEnv } from '../support/fast-check-seed.ts';
import {
  AUTHENTICATED_ROUTES,
  type AuthenticatedRoute,
  type SecurityContext,
} from './authenticated-routes.ts';

/**
 * Text in, text out, exactly: every string of every route is stored byte for byte or refused.
 * Lone surrogates and NUL are refused with a 400 naming the field; bidi controls, emoji,
 * combining marks and over-long text never make a 5xx, and where the route keeps them they
 * read back identical.
 */

const seed = seedFromEnv(process.env.FC_SEED);
const ADMIN_TOKEN = 'text-boundary-operator-token';
/** Random cases per route, on top of one example of every kind. */
const RUNS_PER_ROUTE = 6;

/** What is put into a string: refused kinds name the problem the 400 must report. */
const KINDS = {
  'lone high surrogate': { refused: /unpaired UTF-16 surrogate/, texts: ['\ud800', '\udbff', '\ud83d'] },
  'lone low surrogate': { refused: /unpaired UTF-16 surrogate/, texts: ['\udc00', '\udfff', '\ude00'] },
  NUL: { refused: /NUL character/, texts: ['\u0000'] },
  'bidi control': { refused: undefined, texts: ['\u202e', '\u2066', '\u2067', '\u2068', '\u2069'] },
  emoji: { refused: undefined, texts: ['😀', '🚀', '👩🏽‍💻', '🇫🇷', '𝔘'] },
  'combining mark': { refused: undefined, texts: ['e\u0301', 'a\u0308\u0323', '\u0915\u094d\u0937'] },
  'over-long text': { refused: undefined, texts: ['ab🚀 '.repeat(20_000), 'é'.repeat(100_000)] },
} as const;
type Kind = keyof typeof KINDS;
const KIND_NAMES = Object.keys(KINDS) as Kind[];

/** Letters only around the special text: no scrubber or trimmer has a reason to touch it. */
const word = fc.stringMatching(/^[a-z]{1,6}$/);
const mutation = fc.record({
  leaf: fc.nat(),
  kind: fc.constantFrom(...KIND_NAMES),
  pick: fc.nat(),
  append: fc.boolean(),
  around: fc.tuple(word, word),
});
type Mutation = typeof mutation extends fc.Arbitrary<infer M> ? M : never;

function specialText(m: Mutation): string {
  const texts = KINDS[m.kind].texts;
  return `${m.around[0]}${texts[m.pick % texts.length]}${m.around[1]}`;
}

/** One example of every kind in the given leaf, so each route meets them all whatever the seed. */
const everyKind = (leaf: number): [Mutation][] =>
  KIND_NAMES.map((kind) => [{ leaf, kind, pick: 0, append: true, around: ['ab', 'cd'] }]);

type Path = Array<string | number>;

function stringLeaves(value: unknown, path: Path = []): Path[] {
  if (typeof value === 'string') return [path];
  if (Array.isArray(value)) return value.flatMap((v, i) => stringLeaves(v, [...path, i]));
  if (typeof value === 'object' && value !== null) {
    return Object.entries(value).flatMap(([k, v]) => stringLeaves(v, [...path, k]));
  }
  return [];
}

/** The field as the service names it: `body.claims[0].claim`, `body.payload["a b"]`. */
function fieldName(path: Path): string {
  return path
    .map((p) =>
      typeof p === 'number' ? `[${p}]` : /^[A-Za-z_$][\w$]*$/.test(p) ? `.${p}` : `[${JSON.stringify(p)}]`,
    )
    .reduce((name, part) => name + part, 'body');
}

function withLeaf(body: unknown, path: Path, text: (old: string) => string): unknown {
  const copy = structuredClone(body) as Record<string | number, unknown>;
  let at = copy;
  for (const p of path.slice(0, -1)) at = at[p] as Record<string | number, unknown>;
  const last = path[path.length - 1]!;
  at[last] = text(at[last] as string);
  return copy;
}

/** Whether some string in `value` is exactly `text`. */
function holds(value: unknown, text: string): boolean {
  if (typeof value === 'string') return value === text;
  if (typeof value !== 'object' || value === null) return false;
  return Object.values(value).some((v) => holds(v, text));
}

interface Probe {
  route: AuthenticatedRoute;
  /** A valid body with more string fields than the shared list's, where the route takes them. */
  body?: unknown;
  /** Runs before each request (a fresh escalation to decide). */
  url?: () => Promise<string>;
  /** Where the route's stored strings read back, and which leaves (by field name) they hold. */
  readBack?: { url: (created: unknown, sentUrl: string) => string; fields: RegExp };
  /** The route takes an `Idempotency-Key`. */
  idempotent?: boolean;
}

describe.each(DIALECTS)(`text in, text out, on %s (seed ${seed})`, (dialect) => {
  let t: TestApp;
  let ctx: SecurityContext;
  let askerKeyId: string;

  beforeAll(async () => {
    t = await createTestApp(dialect, {
      env: { ARBITER_LOG_LEVEL: 'silent', ARBITER_ADMIN_TOKEN: ADMIN_TOKEN },
    });
    const other = await t.newAccount();
    ctx = { foreignKeyId: other.keyId };
    // Escalations are decided by a key other than the one that asked.
    askerKeyId = (await t.container.services.apiKeys.create(t.ownerId, 'asker')).id;
  });
  afterAll(() => t?.close());

  let evaluations = 0;
  // Each asks about another file: the same request again and again would read as a loop and be blocked.
  const pendingEvaluation = async () =>
    (
      await t.container.judgment.evaluate(
        { accountId: t.ownerId, keyId: askerKeyId },
        {
          action_type: 'fs.delete',
          actor: 'text-boundary',
          actor_role: 'assistant',
          impact_scope: 'internal',
          payload: { path: `build/output-${++evaluations}.txt` },
        },
      )
    ).evaluation_id;

  const PROBES: Record<string, Omit<Probe, 'route'>> = {
    'POST /api-keys': { readBack: { url: () => '/api-keys', fields: /^body\.name$/ } },
    'POST /v2/vault/store': {
      idempotent: true,
      readBack: {
        url: (created) => `/v2/vault/claims/${(created as { id: string }).id}`,
        fields: /^body\.(claim|source)$/,
      },
    },
    'POST /v2/vault/store_batch': {
      idempotent: true,
      readBack: {
        url: (created) => `/v2/vault/claims/${(created as { results: [{ id: string }] }).results[0].id}`,
        fields: /^body\.claims\[0\]\.(claim|source)$/,
      },
    },
    'POST /ledger/propose_state': {
      readBack: {
        url: (created) => `/v2/vault/claims/${(created as { uuid: string }).uuid}`,
        fields: /^body\.claim$/,
      },
    },
    'PUT /v1/actions/:action': {
      body: {
        type: 'object',
        description: 'Probe action',
        properties: { path: { type: 'string', description: 'A path' } },
      },
      readBack: { url: (_created, sent) => sent, fields: /description$/ },
    },
    'PUT /v1/settings/protected': {
      readBack: { url: () => '/v1/settings/protected', fields: /^body\.branches\[0\]$/ },
    },
    'POST /webhooks': {
      body: { url: 'https://hooks.example.com/arbiter', description: 'Deploys' },
      readBack: {
        url: (created) => `/webhooks/${(created as { id: string }).id}`,
        fields: /^body\.description$/,
      },
    },
    'POST /v2/actions/evaluations/:id/approve': {
      body: { comment: 'Looks fine' },
      url: async () => `/v2/actions/evaluations/${await pendingEvaluation()}/approve`,
      readBack: { url: (_created, sent) => sent.replace(/\/approve$/, ''), fields: /^body\.comment$/ },
    },
    'POST /v2/actions/evaluations/:id/deny': {
      body: { comment: 'Not today' },
      url: async () => `/v2/actions/evaluations/${await pendingEvaluation()}/deny`,
      readBack: { url: (_created, sent) => sent.replace(/\/deny$/, ''), fields: /^body\.comment$/ },
    },
    'PUT /v2/policies': {
      // The text is appended inside a comment, so the policy still parses and is kept.
      body: { policies: 'permit (principal, action, resource); // note ' },
      readBack: { url: () => '/v2/policies', fields: /^body\.policies$/ },
    },
  };

  // Routes whose body holds no string and that take no Idempotency-Key have nothing to probe here.
  const probes: Probe[] = AUTHENTICATED_ROUTES.map((route) => ({
    route,
    ...PROBES[`${route.method} ${route.route}`],
  })).filter((p) => stringLeaves(p.body ?? p.route.body).length > 0 || p.idempotent);

  const send = (method: AuthenticatedRoute['method'], url: string, body?: unknown, headers = {}) =>
    t.app.inject({
      method,
      url,
      headers: { ...bearer(t.ownerKey), ...headers },
      ...(body === undefined ? {} : { payload: body as object }),
    });

  function expectRefused(
    res: { statusCode: number; body: string; json: () => unknown },
    field: string,
    problem: RegExp,
  ) {
    expect(res.statusCode, res.body).toBe(400);
    const error = (res.json() as { error: { code: string; message: string; details?: { field?: string } } })
      .error;
    expect(error.code).toBe('VALIDATION_ERROR');
    expect(error.message.startsWith(field) || error.message.includes(` ${field} `), error.message).toBe(true);
    expect(error.message).toMatch(problem);
    expect(error.details?.field).toBe(field);
  }

  function expectNoServerError(res: { statusCode: number; body: string }) {
    expect(res.statusCode, res.body.slice(0, 300)).toBeLessThan(500);
    expect(res.body).not.toContain('\ufffd');
  }

  it('refuses NUL in the query and in each path parameter of every documented route', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json() as {
      paths: Record<string, Record<string, { security?: Array<Record<string, unknown>> }>>;
    };
    const operations = Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.entries(ops).map(([method, op]) => ({ path, method: method.toUpperCase(), op })),
    );
    expect(operations.length).toBeGreaterThan(AUTHENTICATED_ROUTES.length);
    for (const { path, method, op } of operations) {
      const key = op.security?.some((scheme) => 'adminToken' in scheme) ? ADMIN_TOKEN : t.ownerKey;
      const call = (url: string) =>
        t.app.inject({ method: method as AuthenticatedRoute['method'], url, headers: bearer(key) });
      const params = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
      const url = (nulIn?: string) =>
        path.replace(/\{(\w+)\}/g, (_, name) => (name === nulIn ? 'a%00b' : 'x'));
      expectRefused(await call(`${url()}?note=a%00b`), 'query.note', KINDS.NUL.refused);
      for (const param of params) expectRefused(await call(url(param)), `params.${param}`, KINDS.NUL.refused);
    }
  });

  describe.each(probes)('$route.method $route.route', (probe) => {
    const { route } = probe;
    const body = probe.body ?? route.body;
    const leaves = stringLeaves(body);
    const urlOf = async () => (probe.url ? probe.url() : route.url(ctx));

    it.runIf(leaves.length > 0)('keeps or refuses every string of the body', async () => {
      const echoed = leaves.findIndex((path) => probe.readBack?.fields.test(fieldName(path)));
      let readBack = 0;
      await fc.assert(
        fc.asyncProperty(mutation, async (m) => {
          const path = leaves[m.leaf % leaves.length]!;
          const field = fieldName(path);
          const special = specialText(m);
          const sent = withLeaf(body, path, (old) => (m.append ? old + special : special));
          const url = await urlOf();
          const res = await send(route.method, url, sent);
          const refused = KINDS[m.kind].refused;
          if (refused) return expectRefused(res, field, refused);
          expectNoServerError(res);
          if (res.statusCode >= 300 || !probe.readBack?.fields.test(field)) return;
          const text = path.reduce<unknown>((at, p) => (at as Record<string | number, unknown>)[p], sent);
          const read = await send('GET', probe.readBack.url(res.json(), url));
          expect(read.statusCode).toBe(200);
          expect(holds(read.json(), text as string), `${field} reads back as sent`).toBe(true);
          readBack++;
        }),
        { numRuns: RUNS_PER_ROUTE + KIND_NAMES.length, seed, examples: everyKind(Math.max(echoed, 0)) },
      );
      // The examples put bidi controls, emoji and combining marks where the route keeps them.
      if (probe.readBack) expect(readBack).toBeGreaterThanOrEqual(3);
    });

    it.runIf(probe.idempotent === true)('keeps or refuses the Idempotency-Key header', async () => {
      await fc.assert(
        fc.asyncProperty(mutation, async (m) => {
          const res = await send(route.method, await urlOf(), body, {
            'idempotency-key': `retry-${specialText(m)}`,
          });
          const refused = KINDS[m.kind].refused;
          if (refused) return expectRefused(res, 'header idempotency-key', refused);
          expectNoServerError(res);
        }),
        { numRuns: RUNS_PER_ROUTE + KIND_NAMES.length, seed, examples: everyKind(0) },
      );
    });
  });
});
