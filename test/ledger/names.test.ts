import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, type TestApp } from '../helpers/app.ts';
import { databaseContents } from '../helpers/database-contents.ts';
import { DIALECTS } from '../helpers/databases.ts';

/** Every file under the data folder, as text (SQLite's files, the secret key, anything else). */
function dataFolder(dir: string): string {
  let out = '';
  for (const entry of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) out += fs.readFileSync(path.join(entry.parentPath, entry.name)).toString('latin1');
  }
  return out;
}

describe.each(DIALECTS)('names readable by their owner, and a person forgettable, on %s', (dialect) => {
  let t: TestApp;
  let key: string;
  const call = (method: 'GET' | 'POST', url: string, payload?: object, as = key) =>
    t.app.inject({ method, url, headers: bearer(as), ...(payload ? { payload } : {}) });
  const claims = [
    'Lisa Wirtz answers the London desk on Mondays.',
    'Maria Lopez is on call this week.',
    'Lisa Wirtz reviews every refund over $500.',
  ];

  beforeAll(async () => {
    t = await createTestApp(dialect);
    key = (await t.newAccount()).key;
    for (const claim of claims) {
      const res = await call('POST', '/v2/vault/store', {
        claim,
        source: 'rota by Maria Lopez',
        confidence: 1,
      });
      expect(res.statusCode).toBe(201);
      // What was stored, and what the store answers, holds pseudonyms only.
      expect(res.json().claim).not.toMatch(/Lisa|Wirtz|Maria|Lopez/);
    }
  });
  afterAll(() => t.close());

  it('reads names back exactly, for their owner: search, browse, a claim and the export', async () => {
    const found = (await call('POST', '/v2/vault/search', { query: 'Which desk does Lisa answer?' })).json();
    expect(found.results[0].claim).toBe(claims[0]);
    expect(found.results[0].source).toBe('rota by Maria Lopez');
    const listed = (await call('GET', '/v2/vault/claims')).json();
    expect(listed.claims.map((c: { claim: string }) => c.claim)).toEqual(claims);
    const one = (await call('GET', `/v2/vault/claims/${listed.claims[1].id}`)).json();
    expect(one.claim).toBe(claims[1]);
    expect(one.fact).toMatchObject({ subject: 'Maria Lopez' });
    expect(one.versions[0].claim).toBe(claims[1]);
    const exported = (await call('GET', '/gdpr/export')).json();
    expect(exported.ledger.claims.map((c: { claim: string }) => c.claim)).toEqual(claims);
    // Another account never sees them, and its pseudonyms for the same name are others.
    const other = (await t.newAccount()).key;
    const elsewhere = (
      await call('POST', '/v2/vault/store', { claim: claims[0], source: 'x', confidence: 1 }, other)
    ).json();
    expect(elsewhere.claim.slice(0, 16)).not.toBe(found.results[0].id);
    expect((await call('GET', '/v2/vault/claims', undefined, other)).json().claims[0].claim).toBe(claims[0]);
  });

  it('keeps no stored name in plain text in the data folder, the database or the logs', async () => {
    const stored = `${dataFolder(t.db.dir)}${await databaseContents(t)}`;
    for (const word of ['Wirtz', 'Lopez']) {
      expect(stored).not.toContain(word);
      expect(t.logs()).not.toContain(word);
    }
  });

  it('forgets a person: the mapping goes, the claims and the chain stay, the audit names no one', async () => {
    const res = await call('POST', '/v2/vault/subjects/forget', { name: 'Lisa Wirtz' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ claims: 2, words: 2 });
    const listed = (await call('GET', '/v2/vault/claims')).json();
    expect(listed.claims).toHaveLength(3);
    expect(listed.claims[0].claim).toMatch(
      /^<PERSON[0-9a-f]{8}> <PERSON[0-9a-f]{8}> answers the London desk/,
    );
    expect(listed.claims[1].claim).toBe(claims[1]);
    expect(JSON.stringify((await call('GET', '/gdpr/export')).json())).not.toMatch(/Lisa|Wirtz/);
    expect((await call('GET', '/v2/vault/verify')).json().valid).toBe(true);
    const audit = JSON.stringify((await call('GET', '/audit-log')).json());
    expect(audit).toContain('subject.forgotten');
    expect(audit).not.toMatch(/Lisa|Wirtz/);
    expect(`${dataFolder(t.db.dir)}${await databaseContents(t)}${t.logs()}`).not.toMatch(/Lisa|Wirtz/);
    // Forgetting again touches nothing more.
    expect((await call('POST', '/v2/vault/subjects/forget', { name: 'Lisa Wirtz' })).json()).toEqual({
      claims: 2,
      words: 0,
    });
  });
});
