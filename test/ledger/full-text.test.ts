import { PGlite } from '@electric-sql/pglite';
import { Kysely } from 'kysely';
import { PGliteDialect } from 'kysely-pglite-dialect';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Db, migrateToLatest } from '../../src/db/database.ts';
import type { Database } from '../../src/db/schema.ts';
import { createAuditRepo } from '../../src/domains/audit/repo.ts';
import { HashEmbedder } from '../../src/domains/ledger/embeddings/hash.ts';
import { createLedgerRepo } from '../../src/domains/ledger/repo.ts';
import { createLedgerService, type LedgerService } from '../../src/domains/ledger/service.ts';
import { type FullTextIndex, TermCounts, tsvectorIndex } from '../../src/domains/ledger/storage/full-text.ts';
import { createVectorIndex } from '../../src/domains/ledger/storage/vector-index.ts';
import { openFreshDatabase, TEST_DATABASE_URL } from '../helpers/databases.ts';

/** The local PostgreSQL where CI provides one, PGlite otherwise: the same SQL either way. */
async function postgres(): Promise<{ db: Db; drop: () => Promise<void> }> {
  if (TEST_DATABASE_URL) return openFreshDatabase('postgres');
  const kysely = new Kysely<Database>({ dialect: new PGliteDialect(await PGlite.create()) });
  const db: Db = { kysely, dialect: 'postgres', close: () => kysely.destroy() };
  return { db, drop: () => db.close() };
}

/** Few enough that a handful of claims makes a term too common to search. */
const BUDGET = 4;

describe(`tsvector full text on ${TEST_DATABASE_URL ? 'PostgreSQL' : 'PGlite'}`, () => {
  let db: Db;
  let drop: () => Promise<void>;
  let ledger: LedgerService;
  let fullText: FullTextIndex;

  async function claimsFound(account: string, query: string): Promise<string[]> {
    const hits = await fullText.search(account, query, 10);
    if (hits.length === 0) return [];
    const rows = await db.kysely
      .selectFrom('claims')
      .select(['rowkey', 'claim'])
      .where(
        'rowkey',
        'in',
        hits.map((h) => h.rowkey),
      )
      .execute();
    return rows.map((r) => r.claim).sort();
  }

  beforeAll(async () => {
    ({ db, drop } = await postgres());
    await migrateToLatest(db);
    const embedder = new HashEmbedder(256);
    fullText = tsvectorIndex(db, { maxTermClaims: BUDGET });
    ledger = createLedgerService({
      repo: createLedgerRepo(db.kysely),
      vectors: await createVectorIndex(db, embedder),
      fullText,
      embedder: async () => embedder,
      audit: createAuditRepo(db.kysely, db.dialect),
    });
    const store = (account: string, claim: string) =>
      ledger.store(account, 'k', { claim, source: 'test', confidence: 1 });
    await store('acct-a', 'The zebra enclosure opens at nine.');
    await store('acct-a', 'The cafeteria serves lunch at noon.');
    // Another tenant (acct-b) and an account of the same shape (acct-c) that talk about zebras a lot.
    for (const account of ['acct-b', 'acct-c']) {
      for (let i = 1; i <= BUDGET + 2; i++) await store(account, `Zebra ${i} grazes in paddock ${i * 7}.`);
    }
    await store('acct-c', 'The cafeteria serves lunch at noon.');
  }, 60_000);
  afterAll(() => drop());

  it("counts a term's claims within the account, whatever other accounts store", async () => {
    // Counted over the whole table, "zebra" (13 claims) would exceed the budget and be dropped:
    // acct-a's own zebra claim would not be found.
    expect(await claimsFound('acct-a', 'zebra lunch')).toEqual([
      'The cafeteria serves lunch at noon.',
      'The zebra enclosure opens at nine.',
    ]);
  });

  it("still leaves out a term common in the account's own claims", async () => {
    expect(await claimsFound('acct-c', 'zebra lunch')).toEqual(['The cafeteria serves lunch at noon.']);
  });
});

describe('TermCounts', () => {
  let clock = 0;
  const counts = new TermCounts(30_000, () => clock);

  it('remembers a large count for its lifetime, per account', () => {
    counts.set('acct-a', 'order', 1800);
    clock += 29_999;
    expect(counts.get('acct-a', 'order')).toBe(1800);
    expect(counts.get('acct-b', 'order')).toBeUndefined();
    clock += 1;
    expect(counts.get('acct-a', 'order')).toBeUndefined();
  });

  it('never remembers a small count: a term just stored is counted afresh', () => {
    counts.set('acct-a', 'zebra', 0);
    counts.set('acct-a', 'lunch', 3);
    expect(counts.get('acct-a', 'zebra')).toBeUndefined();
    expect(counts.get('acct-a', 'lunch')).toBeUndefined();
  });

  it('forgets the oldest counts beyond its bound', () => {
    const bounded = new TermCounts(30_000, () => clock);
    for (let i = 0; i <= 20_000; i++) bounded.set('acct-a', `term${i}`, 500);
    expect(bounded.get('acct-a', 'term0')).toBeUndefined();
    expect(bounded.get('acct-a', 'term1')).toBe(500);
    expect(bounded.get('acct-a', 'term20000')).toBe(500);
  });
});
