import { PGlite } from '@electric-sql/pglite';
import { vector } from '@electric-sql/pglite/vector';
import { Kysely } from 'kysely';
import { PGliteDialect } from 'kysely-pglite-dialect';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Db, migrateToLatest } from '../../src/db/database.ts';
import type { Database } from '../../src/db/schema.ts';
import { createAuditRepo } from '../../src/domains/audit/repo.ts';
import { HashEmbedder } from '../../src/domains/ledger/embeddings/hash.ts';
import { createLedgerRepo } from '../../src/domains/ledger/repo.ts';
import { createLedgerService, type LedgerService } from '../../src/domains/ledger/service.ts';
import { createFullTextIndex } from '../../src/domains/ledger/storage/full-text.ts';
import { createVectorIndex, type VectorIndex } from '../../src/domains/ledger/storage/vector-index.ts';
import { bytesToVector, dot } from '../../src/domains/ledger/storage/vectors.ts';
import { DIALECTS, openFreshDatabase } from '../helpers/databases.ts';

/** PGlite ships pgvector, so the pgvector adapter is tested there (the local PostgreSQL has none). */
async function pgliteDb(): Promise<Db> {
  const pglite = await PGlite.create({ extensions: { vector } });
  const kysely = new Kysely<Database>({ dialect: new PGliteDialect(pglite) });
  return { kysely, dialect: 'postgres', close: () => kysely.destroy() };
}

const SUBJECTS = [
  'The billing API',
  'The Berlin office',
  'Nightly backups',
  'The staging cluster',
  'Support tickets',
  'The VPN',
];
const PREDICATES = [
  'runs on Kubernetes',
  'is closed on Sundays',
  'finish before 03:00 UTC',
  'has 12 nodes',
  'are answered within four hours',
  'needs a hardware token',
];

interface Harness {
  name: string;
  expectKind: VectorIndex['kind'];
  open: () => Promise<{ db: Db; drop: () => Promise<void> }>;
}

const harnesses: Harness[] = [
  ...DIALECTS.map(
    (dialect): Harness => ({
      name: dialect,
      expectKind: dialect === 'sqlite' ? 'sqlite-vec' : 'exact-scan',
      open: () => openFreshDatabase(dialect),
    }),
  ),
  {
    name: 'pglite (pgvector)',
    expectKind: 'pgvector',
    open: async () => {
      const db = await pgliteDb();
      return { db, drop: () => db.close() };
    },
  },
];

describe.each(harnesses)('vector index on $name', (harness) => {
  let db: Db;
  let drop: () => Promise<void>;
  let vectors: VectorIndex;
  let ledger: LedgerService;
  const embedder = new HashEmbedder(256);

  beforeAll(async () => {
    ({ db, drop } = await harness.open());
    await migrateToLatest(db);
    vectors = await createVectorIndex(db);
    await vectors.init(embedder.dimension);
    ledger = createLedgerService({
      repo: createLedgerRepo(db.kysely),
      vectors,
      fullText: createFullTextIndex(db),
      embedder: async () => embedder,
      audit: createAuditRepo(db.kysely, db.dialect),
    });
    for (const account of ['acct-a', 'acct-b']) {
      for (const subject of SUBJECTS) {
        for (const predicate of PREDICATES) {
          await ledger.store(account, 'k', {
            claim: `${subject} ${predicate} (${account}).`,
            source: 'test',
            confidence: 0.8,
          });
        }
      }
    }
  }, 120_000);
  afterAll(() => drop());

  it('uses the adapter the database offers', () => {
    expect(vectors.kind).toBe(harness.expectKind);
  });

  it('returns exactly what a brute-force scan of the account returns', async () => {
    const rows = await db.kysely
      .selectFrom('claim_vectors')
      .select(['rowkey', 'account_id', 'embedding'])
      .execute();
    for (const query of [
      'backups before three',
      'office closed Sunday',
      'Kubernetes nodes in staging',
      'hardware token VPN',
    ]) {
      const [q] = await embedder.embed([query]);
      for (const account of ['acct-a', 'acct-b']) {
        const brute = rows
          .filter((r) => r.account_id === account)
          .map((r) => ({ rowkey: Number(r.rowkey), cosine: dot(q!, bytesToVector(r.embedding)) }))
          .sort((a, b) => b.cosine - a.cosine || a.rowkey - b.rowkey)
          .slice(0, 5);
        const got = await vectors.nearest(account, q!, 5);
        expect(got.map((h) => h.rowkey)).toEqual(brute.map((h) => h.rowkey));
        for (const [i, h] of got.entries()) expect(h.cosine).toBeCloseTo(brute[i]!.cosine, 5);
      }
    }
  });

  it('searches only the account it is asked for', async () => {
    const hits = await ledger.search('acct-a', 'Which office is closed on Sundays?', 10);
    expect(hits.length).toBeGreaterThan(0);
    expect(hits[0]!.claim).toBe('The Berlin office is closed on Sundays (acct-a).');
    for (const h of hits) expect(h.claim).toContain('(acct-a)');
  });

  it('drops removed claims from the index', async () => {
    const [hit] = await ledger.search('acct-b', 'The VPN needs a hardware token', 1);
    await ledger.remove('acct-b', 'k', hit!.id);
    const [q] = await embedder.embed([hit!.claim]);
    const near = await vectors.nearest('acct-b', q!, 3);
    const rowkeys = (
      await db.kysely.selectFrom('claims').select('rowkey').where('id', '=', hit!.id).execute()
    ).map((r) => Number(r.rowkey));
    expect(near.map((n) => n.rowkey)).not.toContain(rowkeys[0]);
    expect(
      (await ledger.search('acct-b', 'The VPN needs a hardware token', 5)).map((h) => h.id),
    ).not.toContain(hit!.id);
  });
});
