import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GENESIS_HASH } from '../../src/db/chain.ts';
import { DEFAULT_PLANS } from '../../src/domains/plans/catalog.ts';
import { bearer, createTestApp, type TestApp } from '../helpers/app.ts';
import { DIALECTS } from '../helpers/databases.ts';

const FREE_ALLOWANCE = 3;

function plansFile(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'arbiter-plans-'));
  const file = path.join(dir, 'plans.json');
  const free = DEFAULT_PLANS.find((p) => p.id === 'free')!;
  fs.writeFileSync(file, JSON.stringify([{ ...free, monthly_call_allowance: FREE_ALLOWANCE }]));
  return file;
}

interface StoreResult {
  id: string;
  short_id: string;
  version: number;
  claim: string;
  conflicts: Array<{ id: string; kind: string; claim: string }>;
  superseded: string[];
  state_hash: string;
  scrubbed: Record<string, number>;
}

const claim = (text: string, extra: Record<string, unknown> = {}) => ({
  claim: text,
  source: 'batch test',
  confidence: 0.8,
  ...extra,
});

describe.each(DIALECTS)('POST /v2/vault/store_batch on %s', (dialect) => {
  let t: TestApp;
  let key: string;
  let accountId: string;
  beforeAll(async () => {
    t = await createTestApp(dialect, {
      env: {
        ARBITER_LOG_LEVEL: 'silent',
        ARBITER_PLANS_FILE: plansFile(),
        ARBITER_WEBHOOK_ALLOW_LOOPBACK: 'true',
      },
    });
  });
  afterAll(() => t.close());

  const fresh = async () => {
    ({ key, accountId } = await t.newAccount());
  };
  const post = (url: string, payload: unknown, headers: Record<string, string> = {}) =>
    t.app.inject({
      method: 'POST',
      url,
      payload: payload as object,
      headers: { ...bearer(key), ...headers },
    });
  const batch = (claims: unknown[], headers: Record<string, string> = {}, extra: object = {}) =>
    post('/v2/vault/store_batch', { claims, ...extra }, headers);
  const get = (url: string) => t.app.inject({ method: 'GET', url, headers: bearer(key) });
  const state = async () => (await get('/v2/vault/state')).json() as { state_hash: string; entries: number };
  const claimRows = async () =>
    t.container.db.kysely.selectFrom('claims').select('id').where('account_id', '=', accountId).execute();

  it('stores every claim in order and answers per claim as the single store does', async () => {
    await fresh();
    const res = await batch([
      claim('The build server runs Ubuntu 24.04.'),
      claim('Escalations go to oncall@acme.example or +1 415 555 0100.', {
        source: 'mail from jane@acme.example',
      }),
      claim('Deploys are frozen on Fridays.'),
    ]);
    expect(res.statusCode).toBe(201);
    const body = res.json() as { results: StoreResult[]; state_hash: string };
    expect(body.results).toHaveLength(3);
    expect(body.results.map((r) => r.version)).toEqual([1, 1, 1]);
    expect(body.results.map((r) => r.scrubbed)).toEqual([{}, { EMAIL: 2, PHONE: 1 }, {}]);
    expect(body.results[1]!.claim).toBe('Escalations go to <EMAIL> or <PHONE>.');
    expect(new Set(body.results.map((r) => r.id)).size).toBe(3);
    for (const r of body.results) {
      expect(r).toMatchObject({ conflicts: [], superseded: [] });
      expect(r.id).toMatch(/^[0-9a-f-]{36}$/);
      expect(r.short_id).toMatch(/^c[0-9A-Za-z]{11}$/);
    }
    // Each claim's state is the chain after it; the batch's is the last.
    expect(new Set(body.results.map((r) => r.state_hash)).size).toBe(3);
    expect(body.state_hash).toBe(body.results[2]!.state_hash);
    expect(await state()).toEqual({ state_hash: body.state_hash, entries: 3 });
    expect((await get('/v2/vault/verify')).json()).toMatchObject({ valid: true, entries: 3 });
    const detail = (await get(`/v2/vault/claims/${body.results[1]!.id}`)).json();
    expect(detail).toMatchObject({ source: 'mail from <EMAIL>', version: 1, status: 'active' });
    expect(JSON.stringify(detail)).not.toContain('acme.example');
    const audit = (await get('/audit-log')).json().entries as Array<{ action: string; target: string }>;
    expect(audit.filter((e) => e.action === 'claim.stored').map((e) => e.target)).toEqual(
      body.results.map((r) => r.id),
    );
  });

  it('makes new versions of claims stored before and of claims earlier in the batch', async () => {
    await fresh();
    const stored = (
      await post('/v2/vault/store', claim('The API rate limit is 100 requests per minute.'))
    ).json();
    const res = await batch([
      claim('the API rate limit is 100 requests per minute', { confidence: 0.95 }),
      claim('Support answers within four hours.'),
      claim('support answers within four hours!'),
    ]);
    expect(res.statusCode).toBe(201);
    const [again, first, second] = res.json().results as StoreResult[];
    expect(again).toMatchObject({ id: stored.id, version: 2, conflicts: [] });
    expect(second).toMatchObject({ id: first!.id, version: 2, conflicts: [] });
    expect(first!.version).toBe(1);
    expect((await get(`/v2/vault/claims/${stored.id}`)).json()).toMatchObject({
      version: 2,
      confidence: 0.95,
    });
  });

  it('reports conflicts with stored claims and within the batch, with their audit entries and webhook events', async () => {
    await fresh();
    const hook = await post('/webhooks', {
      url: 'http://127.0.0.1:9/hook',
      event_types: ['claim.conflict_detected'],
    });
    expect(hook.statusCode).toBe(201);
    const open = (await post('/v2/vault/store', claim('The Berlin office is open on Sundays.'))).json();
    const res = await batch([
      claim('The Berlin office is not open on Sundays.'),
      claim('The Lisbon office has a rooftop terrace.'),
      claim('The Lisbon office does not have a rooftop terrace.'),
    ]);
    expect(res.statusCode).toBe(201);
    const [closed, terrace, noTerrace] = res.json().results as StoreResult[];
    expect(closed!.conflicts).toEqual([
      expect.objectContaining({
        id: open.id,
        kind: 'negation',
        claim: 'The Berlin office is open on Sundays.',
      }),
    ]);
    expect(terrace!.conflicts).toEqual([]);
    expect(noTerrace!.conflicts).toEqual([expect.objectContaining({ id: terrace!.id, kind: 'negation' })]);

    const audit = (await get('/audit-log')).json().entries as Array<{
      action: string;
      target: string;
      details: { conflicts?: number };
    }>;
    const stored = audit.filter((e) => e.action === 'claim.stored');
    expect(stored.map((e) => [e.target, e.details.conflicts])).toEqual([
      [open.id, 0],
      [closed!.id, 1],
      [terrace!.id, 0],
      [noTerrace!.id, 1],
    ]);
    const events = await t.container.db.kysely
      .selectFrom('webhook_events')
      .select(['type', 'payload'])
      .where('account_id', '=', accountId)
      .orderBy('created_at')
      .execute();
    expect(events.map((e) => e.type)).toEqual(['claim.conflict_detected', 'claim.conflict_detected']);
    const data = events.map((e) => JSON.parse(e.payload).data);
    expect(data.map((d) => [d.claim_id, d.conflicts[0].id]).sort()).toEqual(
      [
        [closed!.id, open.id],
        [noTerrace!.id, terrace!.id],
      ].sort(),
    );
  });

  it('supersedes on request, stored claims and claims earlier in the batch alike', async () => {
    await fresh();
    const open = (await post('/v2/vault/store', claim('The Berlin office is open on Sundays.'))).json();
    const res = await batch([
      claim('The Lisbon office has a rooftop terrace.'),
      claim('The Berlin office is closed on Sundays.', { on_conflict: 'supersede' }),
      claim('The Lisbon office does not have a rooftop terrace.', { on_conflict: 'supersede' }),
    ]);
    expect(res.statusCode).toBe(201);
    const [terrace, closed, noTerrace] = res.json().results as StoreResult[];
    expect(closed!.superseded).toEqual([open.id]);
    expect(noTerrace!.superseded).toEqual([terrace!.id]);
    expect((await get(`/v2/vault/claims/${open.id}`)).json().status).toBe('superseded');
    expect((await get(`/v2/vault/claims/${terrace!.id}`)).json().status).toBe('superseded');
    expect((await get('/v2/vault/verify')).json()).toMatchObject({ valid: true, entries: 6 });
  });

  it('stores nothing when one claim is refused by on_conflict: reject, and names it', async () => {
    await fresh();
    await post('/v2/vault/store', claim('The Berlin office is open on Sundays.'));
    const before = await state();
    const res = await batch([
      claim('Deploys are frozen on Fridays.'),
      claim('The Lisbon office has a rooftop terrace.'),
      claim('The Berlin office is not open on Sundays.', { on_conflict: 'reject' }),
    ]);
    expect(res.statusCode).toBe(409);
    expect(res.json().error).toMatchObject({ code: 'CONFLICT_DETECTED', details: { item: 2 } });
    expect(res.json().error.message).toContain('claims[2]');
    expect(await state()).toEqual(before);
    expect(await claimRows()).toHaveLength(1);
  });

  it('refuses an empty list, more than 1,000 claims and any bad claim with 400 naming it, storing nothing', async () => {
    await fresh();
    const many = Array.from({ length: 1001 }, (_, i) => claim(`Batch claim number ${i} holds.`));
    const cases: Array<[unknown, string]> = [
      [{ claims: [] }, 'body/claims'],
      [{ claims: many }, 'body/claims'],
      [{}, "'claims'"],
      [{ claims: claim('not a list') }, 'body/claims'],
      [
        { claims: [claim('ok'), claim('ok too'), claim('ok three'), claim('bad', { confidence: 1.5 })] },
        'body/claims/3/confidence',
      ],
      [
        { claims: [claim('ok'), { claim: 'x', source: 's' }] },
        "body/claims/1 is missing the field 'confidence'",
      ],
      [{ claims: [claim('ok'), claim('x', { confidence: '0.9' })] }, 'body/claims/1/confidence'],
      [
        { claims: [claim('x', { expected_state_hash: GENESIS_HASH })] },
        "body/claims/0 has an unknown field 'expected_state_hash'",
      ],
      [{ claims: [claim('x', { on_conflict: 'overwrite' })] }, 'body/claims/0/on_conflict'],
      [{ claims: [claim('')] }, 'body/claims/0/claim'],
      [{ claims: [claim('ok')], expected_state_hash: 'nope' }, 'body/expected_state_hash'],
    ];
    for (const [payload, named] of cases) {
      const res = await post('/v2/vault/store_batch', payload);
      expect(res.statusCode, named).toBe(400);
      expect(res.json().error.code).toBe('VALIDATION_ERROR');
      expect(res.json().error.message).toContain(named);
    }
    // Valid JSON but empty once scrubbing and trimming are done: named by index, nothing stored.
    const blank = await batch([claim('A fine claim.'), claim('   ')]);
    expect(blank.statusCode).toBe(400);
    expect(blank.json().error).toMatchObject({
      code: 'VALIDATION_ERROR',
      message: 'claims[1].claim is empty',
    });
    expect(await state()).toEqual({ state_hash: GENESIS_HASH, entries: 0 });
    expect(await claimRows()).toHaveLength(0);

    // The server's body limit (1 MiB by default) holds for a batch too.
    const long = Array.from({ length: 120 }, (_, i) => claim(`Long claim ${i}: ${'word '.repeat(1800)}`));
    const tooLarge = await batch(long);
    expect(tooLarge.statusCode).toBe(413);
    expect(tooLarge.json().error.code).toBe('PAYLOAD_TOO_LARGE');
    expect(await claimRows()).toHaveLength(0);

    const thousand = await batch(many.slice(0, 1000));
    expect(thousand.statusCode).toBe(201);
    expect(thousand.json().results).toHaveLength(1000);
    expect((await state()).entries).toBe(1000);
  });

  it('holds to expected_state_hash or If-Match as the single store does', async () => {
    await fresh();
    const first = (await post('/v2/vault/store', claim('One fact.'))).json();
    await post('/v2/vault/store', claim('Two facts exist.'));
    const before = await state();
    const stale = await batch(
      [claim('Three facts are here.')],
      {},
      { expected_state_hash: first.state_hash },
    );
    expect(stale.statusCode).toBe(412);
    expect(stale.json().error).toMatchObject({
      code: 'STATE_DRIFT',
      details: { expected_state_hash: first.state_hash, state_hash: before.state_hash },
    });
    const staleHeader = await batch([claim('Three facts are here.')], {
      'if-match': `"${first.state_hash}"`,
    });
    expect(staleHeader.statusCode).toBe(412);
    expect(await state()).toEqual(before);
    const disagreeing = await batch(
      [claim('Three facts are here.')],
      { 'if-match': before.state_hash },
      { expected_state_hash: first.state_hash },
    );
    expect(disagreeing.statusCode).toBe(400);
    expect(disagreeing.json().error.message).toContain('If-Match');
    const current = await batch([claim('Three facts are here.')], { 'if-match': `W/"${before.state_hash}"` });
    expect(current.statusCode).toBe(201);
    expect((await state()).entries).toBe(3);
  });

  it('never stores a retried batch twice (Idempotency-Key)', async () => {
    await fresh();
    const claims = [claim('Retries must not duplicate claims.'), claim('Nor versions of them.')];
    const a = await batch(claims, { 'idempotency-key': 'batch-1' });
    expect(a.statusCode).toBe(201);
    expect(a.headers['idempotent-replayed']).toBeUndefined();
    const after = await state();
    const b = await batch(claims, { 'idempotency-key': 'batch-1' });
    expect(b.statusCode).toBe(201);
    expect(b.headers['idempotent-replayed']).toBe('true');
    expect(b.json()).toEqual(a.json());
    expect(await state()).toEqual(after);
    expect(await claimRows()).toHaveLength(2);

    const differing = await batch([claims[0]], { 'idempotency-key': 'batch-1' });
    expect(differing.statusCode).toBe(409);
    expect(differing.json().error.code).toBe('CONFLICT');
    // A key is one request: the single store route cannot reuse it either.
    expect((await post('/v2/vault/store', claims[0], { 'idempotency-key': 'batch-1' })).statusCode).toBe(409);
    expect(await state()).toEqual(after);

    const concurrent = await Promise.all(
      [1, 2, 3].map(() => batch([claim('Concurrent retries too.')], { 'idempotency-key': 'batch-2' })),
    );
    expect(concurrent.map((r) => r.statusCode)).toEqual([201, 201, 201]);
    expect(new Set(concurrent.map((r) => r.json().results[0].id)).size).toBe(1);
    expect((await state()).entries).toBe(3);
  });

  it('counts a batch as one call against the plan allowance, and refuses it with 429 once that is used up', async () => {
    const created = await t.container.services.accounts.create({
      email: `batch-free-${Date.now()}@example.com`,
      name: 'Free',
      plan: 'free',
    });
    key = created.key.key;
    accountId = created.account.id;
    const five = [1, 2, 3, 4, 5].map((i) => claim(`Free plan fact number ${i}.`));
    const first = await batch(five);
    expect(first.statusCode).toBe(201);
    expect(first.headers['ratelimit-remaining']).toBe(String(FREE_ALLOWANCE - 1));
    for (let i = 2; i <= FREE_ALLOWANCE; i++) expect((await get('/v2/vault/state')).statusCode).toBe(200);
    const refused = await batch([claim('One fact too many.')]);
    expect(refused.statusCode).toBe(429);
    expect(refused.json().error.code).toBe('QUOTA_EXCEEDED');
    expect(await claimRows()).toHaveLength(5);
  });
});
