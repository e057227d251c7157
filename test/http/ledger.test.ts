import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GENESIS_HASH } from '../../src/db/chain.ts';
import { bearer, createTestApp, type TestApp } from '../helpers/app.ts';
import { DIALECTS } from '../helpers/databases.ts';

describe.each(DIALECTS)('claim ledger over HTTP on %s', (dialect) => {
  let t: TestApp;
  let key: string;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(() => t.close());

  const post = (url: string, payload: object, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'POST', url, payload, headers: { ...bearer(key), ...headers } });
  const get = (url: string) => t.app.inject({ method: 'GET', url, headers: bearer(key) });
  const fresh = async () => {
    key = (await t.newAccount()).key;
  };

  it('stores a claim scrubbed of personal data and chains it', async () => {
    await fresh();
    expect((await get('/v2/vault/state')).json()).toEqual({ state_hash: GENESIS_HASH, entries: 0 });
    const res = await post('/v2/vault/store', {
      claim: 'Invoices go to billing@acme.example and the hotline is +1 415 555 0100.',
      source: 'onboarding call with jane@acme.example',
      confidence: 0.9,
    });
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body).toMatchObject({
      version: 1,
      conflicts: [],
      superseded: [],
      scrubbed: { EMAIL: 2, PHONE: 1 },
    });
    expect(body.claim).toBe('Invoices go to <EMAIL> and the hotline is <PHONE>.');
    expect(body.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(body.state_hash).toMatch(/^[0-9a-f]{64}$/);
    expect((await get('/v2/vault/state')).json()).toEqual({ state_hash: body.state_hash, entries: 1 });
    // A verdict right after the write reports the state it produced.
    const verdict = await post('/v1/evaluate', { action: 'fs.read', payload: { path: 'README.md' } });
    expect(verdict.json().state_hash).toBe(body.state_hash);
    const detail = (await get(`/v2/vault/claims/${body.short_id}`)).json();
    expect(detail).toMatchObject({ id: body.id, source: 'onboarding call with <EMAIL>', status: 'active' });
    expect(JSON.stringify(detail)).not.toContain('acme.example');
  });

  it('makes a new version when the same normalised claim is stored again', async () => {
    await fresh();
    const first = (
      await post('/v2/vault/store', {
        claim: 'The API rate limit is 100 requests per minute.',
        source: 'docs v1',
        confidence: 0.7,
      })
    ).json();
    const second = (
      await post('/v2/vault/store', {
        claim: 'the API rate limit is 100 requests per minute',
        source: 'docs v2',
        confidence: 0.95,
      })
    ).json();
    expect(second.id).toBe(first.id);
    expect(second.version).toBe(2);
    expect(second.conflicts).toEqual([]);
    const detail = (await get(`/v2/vault/claims/${first.id}`)).json();
    expect(detail).toMatchObject({ version: 2, source: 'docs v2', confidence: 0.95 });
    expect(detail.versions.map((v: { version: number; source: string }) => [v.version, v.source])).toEqual([
      [1, 'docs v1'],
      [2, 'docs v2'],
    ]);
    const results = (await post('/v2/vault/search', { query: 'what is the API rate limit', top_k: 5 })).json()
      .results;
    expect(results).toHaveLength(1);
  });

  it('reports conflicts, rejects on request, and supersedes on request', async () => {
    await fresh();
    const open = (
      await post('/v2/vault/store', {
        claim: 'The Berlin office is open on Sundays.',
        source: 'wiki',
        confidence: 0.8,
      })
    ).json();
    const kept = (
      await post('/v2/vault/store', {
        claim: 'The Berlin office is not open on Sundays.',
        source: 'manager',
        confidence: 0.9,
      })
    ).json();
    expect(kept.conflicts).toHaveLength(1);
    expect(kept.conflicts[0]).toMatchObject({
      id: open.id,
      claim: 'The Berlin office is open on Sundays.',
      kind: 'negation',
      confidence: 0.8,
    });
    expect(kept.conflicts[0].similarity).toBeGreaterThan(0);

    const state = (await get('/v2/vault/state')).json();
    const rejected = await post('/v2/vault/store', {
      claim: 'The Berlin office is closed on Sundays.',
      source: 'x',
      confidence: 0.5,
      on_conflict: 'reject',
    });
    expect(rejected.statusCode).toBe(409);
    expect(rejected.json().error.code).toBe('CONFLICT_DETECTED');
    expect(rejected.json().error.details.conflicts.length).toBeGreaterThan(0);
    expect((await get('/v2/vault/state')).json()).toEqual(state);

    const superseding = (
      await post('/v2/vault/store', {
        claim: 'The Berlin office is closed on Sundays.',
        source: 'hr',
        confidence: 0.95,
        on_conflict: 'supersede',
      })
    ).json();
    expect(superseding.superseded).toContain(open.id);
    expect((await get(`/v2/vault/claims/${open.id}`)).json().status).toBe('superseded');
    const found = (
      await post('/v2/vault/search', { query: 'Is the Berlin office open on Sundays?', top_k: 10 })
    ).json().results;
    expect(found.map((r: { id: string }) => r.id)).not.toContain(open.id);
    expect(found.map((r: { id: string }) => r.id)).toContain(superseding.id);
  });

  it('ranks by relevance × confidence and returns nothing for unrelated queries', async () => {
    await fresh();
    const claims = [
      ['The deployment pipeline runs on GitHub Actions.', 0.9],
      ['Production database backups run every night at 02:00 UTC.', 0.95],
      ['The staging database is restored from backups every Monday.', 0.4],
      ['Our support team answers tickets within four hours.', 0.8],
    ] as const;
    for (const [claim, confidence] of claims)
      await post('/v2/vault/store', { claim, source: 'runbook', confidence });
    const results = (
      await post('/v2/vault/search', { query: 'When do database backups run?', top_k: 3 })
    ).json().results;
    expect(results[0].claim).toBe('Production database backups run every night at 02:00 UTC.');
    for (let i = 1; i < results.length; i++)
      expect(results[i - 1].score).toBeGreaterThanOrEqual(results[i].score);
    expect(
      (await post('/v2/vault/search', { query: 'favourite recipes for chocolate cake', top_k: 3 })).json()
        .results,
    ).toEqual([]);
    const facts = (
      await post('/ledger/semantic_search', { query: 'support ticket response time', top_k: 2 })
    ).json().facts;
    expect(facts[0]).toEqual({
      id: expect.stringMatching(/^c[0-9A-Za-z]{11}$/),
      claim: 'Our support team answers tickets within four hours.',
      confidence: 0.8,
      timestamp: expect.any(String),
    });
  });

  it('commits through the short-form ledger endpoint', async () => {
    await fresh();
    const res = await post('/ledger/propose_state', {
      claim: 'Refunds take 5 business days.',
      confidence: 0.85,
    });
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body).toMatchObject({ status: 'committed', vector_stored: true, version: 1, conflicts: [] });
    expect(body.id).toMatch(/^c[0-9A-Za-z]{11}$/);
    const detail = (await get(`/v2/vault/claims/${body.id}`)).json();
    expect(detail).toMatchObject({ id: body.uuid, source: 'agent' });
  });

  it('refuses a write against a stale state with 412 STATE_DRIFT', async () => {
    await fresh();
    const first = (await post('/v2/vault/store', { claim: 'A', source: 's', confidence: 0.5 })).json();
    await post('/v2/vault/store', { claim: 'B is true', source: 's', confidence: 0.5 });
    const stale = await post('/v2/vault/store', {
      claim: 'C holds',
      source: 's',
      confidence: 0.5,
      expected_state_hash: first.state_hash,
    });
    expect(stale.statusCode).toBe(412);
    expect(stale.json().error).toMatchObject({
      code: 'STATE_DRIFT',
      details: { expected_state_hash: first.state_hash },
    });
    const current = (await get('/v2/vault/state')).json().state_hash;
    const viaHeader = await post(
      '/v2/vault/store',
      { claim: 'C holds', source: 's', confidence: 0.5 },
      { 'if-match': `"${current}"` },
    );
    expect(viaHeader.statusCode).toBe(201);
    const staleHeader = await post(
      '/v2/vault/store',
      { claim: 'D holds', source: 's', confidence: 0.5 },
      { 'if-match': current },
    );
    expect(staleHeader.statusCode).toBe(412);
  });

  it('never stores a retried write twice (Idempotency-Key)', async () => {
    await fresh();
    const payload = { claim: 'Retries must not duplicate claims.', source: 's', confidence: 0.6 };
    const a = await post('/v2/vault/store', payload, { 'idempotency-key': 'store-1' });
    const b = await post('/v2/vault/store', payload, { 'idempotency-key': 'store-1' });
    expect(b.statusCode).toBe(201);
    expect(b.headers['idempotent-replayed']).toBe('true');
    expect(b.json()).toEqual(a.json());
    expect((await get('/v2/vault/state')).json().entries).toBe(1);
    const other = await post(
      '/v2/vault/store',
      { ...payload, confidence: 0.7 },
      { 'idempotency-key': 'store-1' },
    );
    expect(other.statusCode).toBe(409);
    const concurrent = await Promise.all(
      [1, 2, 3, 4].map(() =>
        post(
          '/v2/vault/store',
          { claim: 'Concurrent retries too.', source: 's', confidence: 0.6 },
          { 'idempotency-key': 'store-2' },
        ),
      ),
    );
    expect(new Set(concurrent.map((r) => r.json().id)).size).toBe(1);
    expect((await get('/v2/vault/state')).json().entries).toBe(2);
  });

  it('deletes a claim out of search while the chain records it', async () => {
    await fresh();
    const stored = (
      await post('/v2/vault/store', {
        claim: 'The VPN endpoint is vpn.corp.example.',
        source: 's',
        confidence: 0.9,
      })
    ).json();
    const del = await t.app.inject({
      method: 'DELETE',
      url: `/v2/vault/claims/${stored.id}`,
      headers: bearer(key),
    });
    expect(del.statusCode).toBe(200);
    expect(del.json().state_hash).not.toBe(stored.state_hash);
    expect((await get(`/v2/vault/claims/${stored.id}`)).statusCode).toBe(404);
    expect((await post('/v2/vault/search', { query: 'VPN endpoint', top_k: 5 })).json().results).toEqual([]);
    expect((await get('/v2/vault/verify')).json()).toMatchObject({ valid: true, entries: 2 });
  });

  it('names the first entry edited behind the service', async () => {
    await fresh();
    const accountId = (await get('/v1/whoami')).json().account_id;
    for (const claim of ['One fact.', 'Two facts exist.', 'Three facts are here.'])
      await post('/v2/vault/store', { claim, source: 's', confidence: 0.5 });
    expect((await get('/v2/vault/verify')).json()).toMatchObject({ valid: true, entries: 3 });
    await t.container.db.kysely
      .updateTable('claim_versions')
      .set({ claim: 'Two facts were forged.' })
      .where('account_id', '=', accountId)
      .where('ledger_seq', '=', 2)
      .execute();
    expect((await get('/v2/vault/verify')).json()).toMatchObject({ valid: false, first_bad_seq: 2 });
    await t.container.db.kysely
      .updateTable('claim_versions')
      .set({ claim: 'Two facts exist.' })
      .where('account_id', '=', accountId)
      .where('ledger_seq', '=', 2)
      .execute();
    const entry = await t.container.db.kysely
      .selectFrom('ledger_entries')
      .select('entry')
      .where('account_id', '=', accountId)
      .where('seq', '=', 3)
      .executeTakeFirstOrThrow();
    await t.container.db.kysely
      .updateTable('ledger_entries')
      .set({ entry: entry.entry.replace('0.5', '0.99') })
      .where('account_id', '=', accountId)
      .where('seq', '=', 3)
      .execute();
    expect((await get('/v2/vault/verify')).json()).toMatchObject({ valid: false, first_bad_seq: 3 });
  });

  it('refuses malformed claims with 400', async () => {
    await fresh();
    for (const payload of [
      { claim: 'x', source: 's', confidence: 1.5 },
      { claim: 'x', source: 's', confidence: '0.9' },
      { claim: '', source: 's', confidence: 0.5 },
      { claim: 'x', source: 's' },
      { claim: 'x', source: 's', confidence: 0.5, extra: true },
      { claim: 'x', source: 's', confidence: 0.5, on_conflict: 'overwrite' },
    ]) {
      const res = await post('/v2/vault/store', payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().error.code).toBe('VALIDATION_ERROR');
    }
    expect((await post('/v2/vault/search', { query: 'x', top_k: 0 })).statusCode).toBe(400);
  });

  it("never shows one account another account's claims: search, read, delete, export (property)", async () => {
    const a = await t.newAccount();
    const b = await t.newAccount();
    const words = fc.constantFrom(
      'server',
      'backup',
      'invoice',
      'office',
      'Berlin',
      'policy',
      'runs',
      'daily',
      'closed',
      'open',
      'rate',
      'limit',
    );
    const sentence = fc.array(words, { minLength: 2, maxLength: 6 }).map((w) => `${w.join(' ')}.`);
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(fc.boolean(), sentence), { minLength: 1, maxLength: 6 }),
        sentence,
        async (writes, query) => {
          const mine = { a: new Set<string>(), b: new Set<string>() };
          for (const [toA, claim] of writes) {
            const owner = toA ? a : b;
            const res = await t.app.inject({
              method: 'POST',
              url: '/v2/vault/store',
              headers: bearer(owner.key),
              payload: { claim, source: 'p', confidence: 0.7 },
            });
            (toA ? mine.a : mine.b).add(res.json().id);
          }
          for (const [me, own, theirs] of [
            [a, mine.a, mine.b],
            [b, mine.b, mine.a],
          ] as const) {
            const found = (
              await t.app.inject({
                method: 'POST',
                url: '/v2/vault/search',
                headers: bearer(me.key),
                payload: { query, top_k: 100 },
              })
            ).json().results;
            for (const r of found) expect(theirs.has(r.id)).toBe(false);
            const exported = (
              await t.app.inject({ method: 'GET', url: '/gdpr/export', headers: bearer(me.key) })
            ).body;
            for (const id of theirs) expect(exported).not.toContain(id);
            for (const id of own) expect(exported).toContain(id);
            for (const id of theirs) {
              expect(
                (
                  await t.app.inject({
                    method: 'GET',
                    url: `/v2/vault/claims/${id}`,
                    headers: bearer(me.key),
                  })
                ).statusCode,
              ).toBe(404);
              expect(
                (
                  await t.app.inject({
                    method: 'DELETE',
                    url: `/v2/vault/claims/${id}`,
                    headers: bearer(me.key),
                  })
                ).statusCode,
              ).toBe(404);
            }
          }
        },
      ),
      { numRuns: 15 },
    );
  });
});
