import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, freshDatabase, type TestDatabase } from '../../../../test/helpers/databases.ts';
import { type Db, migrateToLatest, openDatabase } from '../../../db/database.ts';
import { createAuditRepo } from '../../audit/repo.ts';
import { HashEmbedder } from '../embeddings/hash.ts';
import { createLedgerRepo } from '../repo.ts';
import { createLedgerService, type LedgerService } from '../service.ts';
import { createFullTextIndex, MAX_TERM_CLAIMS, selectiveTerms } from './full-text.ts';
import { queriesOffThread, type ThreadedVectorIndex } from './knn-thread.ts';
import { AccountPostings, sparseScanIndex } from './sparse-scan.ts';
import { createVectorIndex, type VectorIndex } from './vector-index.ts';
import { bytesToVector, dot } from './vectors.ts';

const SUBJECTS = [
  'The billing API',
  'The Berlin office',
  'Nightly backups',
  'The staging cluster',
  'The VPN',
];
const PREDICATES = ['runs on Kubernetes', 'is closed on Sundays', 'has 12 nodes', 'needs a hardware token'];
const QUERIES = [
  'backups on Kubernetes',
  'office closed Sunday',
  'staging cluster nodes',
  'hardware token VPN',
];

describe.each(DIALECTS)('sparse posting-list index and bulk store on %s', (dialect) => {
  let tdb: TestDatabase;
  let db: Db;
  const embedder = new HashEmbedder(256);
  /**
   * Three instances over one database: `other` only ever reads, so it learns writes from the
   * ledger; `threaded` is another, scanning on the k-NN thread with its own connection.
   */
  let vectors: VectorIndex;
  let other: VectorIndex;
  let threaded: ThreadedVectorIndex;
  let ledger: LedgerService;

  beforeAll(async () => {
    tdb = await freshDatabase(dialect);
    db = openDatabase(tdb.database);
    await migrateToLatest(db);
    vectors = await createVectorIndex(db, embedder);
    other = sparseScanIndex(db);
    threaded = queriesOffThread(sparseScanIndex(db), tdb.database, console) as ThreadedVectorIndex;
    await threaded.whenReady();
    ledger = createLedgerService({
      repo: createLedgerRepo(db.kysely),
      vectors,
      fullText: createFullTextIndex(db),
      embedder: async () => embedder,
      audit: createAuditRepo(db.kysely, db.dialect),
    });
  }, 60_000);
  afterAll(async () => {
    await threaded?.close();
    await db.close();
    await tdb.drop();
  });

  async function expectBruteForce(index: VectorIndex, account: string): Promise<void> {
    const rows = await db.kysely
      .selectFrom('claim_vectors')
      .select(['rowkey', 'embedding'])
      .where('account_id', '=', account)
      .execute();
    for (const query of QUERIES) {
      const [q] = await embedder.embed([query]);
      const brute = rows
        .map((r) => ({ rowkey: Number(r.rowkey), cosine: dot(q!, bytesToVector(r.embedding)) }))
        .sort((a, b) => b.cosine - a.cosine || a.rowkey - b.rowkey)
        .slice(0, 7);
      // Same additions in the same order as `dot`: identical numbers, not just close ones.
      expect(await index.nearest(account, q!, 7)).toEqual(brute);
    }
  }

  it('is chosen for sparse embedders', () => {
    expect(vectors.kind).toBe('sparse-scan');
  });

  it('stores a batch in order, chained, with the batch checked against itself', async () => {
    await other.nearest('acct-a', (await embedder.embed(['warm the cache empty']))[0]!, 3);
    const claims = SUBJECTS.flatMap((s) => PREDICATES.map((p) => `${s} ${p} (acct-a).`));
    const results = await ledger.storeMany('acct-a', 'k', [
      ...claims.map((claim) => ({ claim, source: 'test', confidence: 0.8 })),
      { claim: 'The staging cluster has 14 nodes (acct-a).', source: 'test', confidence: 0.9 },
      { claim: 'the billing api runs on kubernetes (acct-a)', source: 'mail bob@example.com', confidence: 1 },
    ]);
    expect(results).toHaveLength(claims.length + 2);
    expect(results.map((r) => r.claim).slice(0, claims.length)).toEqual(claims);
    const nodes = results[claims.indexOf('The staging cluster has 12 nodes (acct-a).')]!;
    expect(results[claims.length]!.conflicts.map((c) => c.id)).toEqual([nodes.id]);
    // A repeated claim in the same batch is a new version of the first, scrubbed like `store` does.
    expect(results[claims.length + 1]).toMatchObject({
      id: results[0]!.id,
      version: 2,
      scrubbed: { EMAIL: 1 },
    });
    expect(await ledger.verify('acct-a')).toMatchObject({ valid: true, entries: claims.length + 2 });
    await expectBruteForce(vectors, 'acct-a');
    await expectBruteForce(other, 'acct-a');
    await expectBruteForce(threaded, 'acct-a');
  });

  it('stores nothing of a batch when one claim is refused', async () => {
    const before = await ledger.state('acct-a');
    await expect(
      ledger.storeMany('acct-a', 'k', [
        { claim: 'The VPN is down for maintenance (acct-a).', source: 'test', confidence: 1 },
        {
          claim: 'The Berlin office is open on Sundays (acct-a).',
          source: 'test',
          confidence: 1,
          on_conflict: 'reject',
        },
      ]),
    ).rejects.toMatchObject({ code: 'CONFLICT_DETECTED', details: { item: 1 } });
    expect(await ledger.state('acct-a')).toEqual(before);
  });

  it('follows stores, supersessions and deletions made through any instance', async () => {
    for (const s of SUBJECTS.slice(0, 3)) {
      await ledger.store('acct-b', 'k', {
        claim: `${s} runs on Kubernetes (acct-b).`,
        source: 't',
        confidence: 1,
      });
    }
    await expectBruteForce(other, 'acct-b');
    await expectBruteForce(threaded, 'acct-b');
    const [first] = await ledger.search('acct-a', 'Which office is closed on Sundays?', 1);
    await ledger.store('acct-a', 'k', {
      claim: 'The Berlin office is open on Sundays (acct-a).',
      source: 't',
      confidence: 1,
      on_conflict: 'supersede',
    });
    const [vpn] = await ledger.search('acct-a', 'The VPN needs a hardware token', 1);
    await ledger.remove('acct-a', 'k', vpn!.id);
    await expectBruteForce(other, 'acct-a');
    await expectBruteForce(vectors, 'acct-a');
    await expectBruteForce(threaded, 'acct-a');
    const gone = await db.kysely
      .selectFrom('claims')
      .select('rowkey')
      .where('id', 'in', [first!.id, vpn!.id])
      .execute();
    const [q] = await embedder.embed(['Berlin office Sundays VPN hardware token']);
    for (const index of [other, threaded]) {
      const near = (await index.nearest('acct-a', q!, 50)).map((h) => h.rowkey);
      for (const r of gone) expect(near).not.toContain(Number(r.rowkey));
    }
    await expectBruteForce(other, 'acct-b');
  });

  it('stays exact with room for one account only, and says what it holds', async () => {
    // Each account alone is over the budget: every switch of account evicts and reloads.
    const tight = sparseScanIndex(db, { maxCachedBytes: 1 });
    for (let round = 0; round < 2; round++) {
      await expectBruteForce(tight, 'acct-a');
      await expectBruteForce(tight, 'acct-b');
    }
    const one = tight.heldBytes!();
    const roomy = sparseScanIndex(db);
    await expectBruteForce(roomy, 'acct-a');
    await expectBruteForce(roomy, 'acct-b');
    expect(one).toBeGreaterThan(0);
    expect(roomy.heldBytes!()).toBeGreaterThan(one);
    // The thread's figure crosses over after it answers (its lists grew by replay, so their
    // spare room differs from a fresh load's).
    await expectBruteForce(threaded, 'acct-a');
    await expectBruteForce(threaded, 'acct-b');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(threaded.heldBytes!()).toBeGreaterThan(one);
  });

  it('answers concurrent queries exactly while writes land', async () => {
    const [q] = await embedder.embed(['Kubernetes nodes']);
    const writes = SUBJECTS.map((s, i) =>
      ledger.store('acct-c', 'k', { claim: `${s} has ${i + 2} nodes (acct-c).`, source: 't', confidence: 1 }),
    );
    const reads = Array.from({ length: 8 }, (_, i) => (i % 2 ? threaded : other).nearest('acct-c', q!, 3));
    await Promise.all([...writes, ...reads]);
    const settled = await Promise.all(
      Array.from({ length: 4 }, (_, i) => (i % 2 ? threaded : other).nearest('acct-c', q!, 10)),
    );
    for (const hits of settled) expect(hits).toHaveLength(SUBJECTS.length);
    await expectBruteForce(other, 'acct-c');
    await expectBruteForce(threaded, 'acct-c');
    // What the thread answered came from the thread, not from a fallback here.
    expect(threaded.thread()).toBeDefined();
  });
});

describe('selectiveTerms', () => {
  const counts: Record<string, number> = {
    rare: 3,
    half: MAX_TERM_CLAIMS / 2,
    common: MAX_TERM_CLAIMS + 1,
    rarer: 1,
    absent: 0,
  };
  const count = async (t: string) => counts[t]!;

  it('keeps the rarest terms while the claims they match fit the budget', async () => {
    expect(await selectiveTerms(['common', 'rare', 'absent', 'rarer'], count)).toEqual(['rarer', 'rare']);
    expect(await selectiveTerms(['half', 'rare', 'half'], count)).toEqual(['rare', 'half']);
  });

  it('keeps no term when even the rarest is over the budget', async () => {
    expect(await selectiveTerms(['common', 'absent'], count)).toEqual([]);
    expect(await selectiveTerms(['absent'], count)).toEqual([]);
    expect(await selectiveTerms(['common', 'half'], count)).toEqual(['half']);
  });
});

describe('pruned posting-list scan', () => {
  const embedder = new HashEmbedder(512);
  const WORDS = (
    'checkout payments search billing inventory shipping auth latency error rate throughput memory ' +
    'queue depth cache hit ratio uptime cost replica disk usage eu west us east ap south ms percent ' +
    'seconds dollars since deploy during peak hours week migration dashboard night quarter incident plan'
  ).split(' ');
  /** Deterministic pseudo-random sentences sharing a small vocabulary, so many are similar. */
  function sentences(n: number, seed: number): string[] {
    let a = seed;
    const rand = () => {
      a = (Math.imul(a, 1664525) + 1013904223) >>> 0;
      return a / 2 ** 32;
    };
    return Array.from({ length: n }, () => {
      const words = Array.from(
        { length: 5 + Math.floor(rand() * 6) },
        () => WORDS[Math.floor(rand() * WORDS.length)],
      );
      return `${words.join(' ')} ${Math.floor(rand() * 10_000) / 10}`;
    });
  }

  it('returns what scoring every claim returns, bit for bit, with and without a floor', async () => {
    const account = new AccountPostings(0, '', 0);
    const stored = await embedder.embed(sentences(5000, 1));
    for (const [i, v] of stored.entries()) account.put(i + 1, v);
    // Replaced and removed claims leave dead slots behind.
    for (let r = 1; r <= 5000; r += 7) account.put(r, stored[(r * 13) % 5000]!);
    for (let r = 3; r <= 5000; r += 11) account.kill(r);
    const queries = await embedder.embed([...sentences(60, 2), 'nothing stored looks like this']);
    for (const q of queries) {
      for (const [k, atLeast] of [
        [10, 0.3],
        [50, 0.1],
        [3, 0.9],
      ] as const) {
        expect(account.nearest(q, k, atLeast)).toEqual(account.scanAll(q, k, atLeast));
      }
    }
  });

  it('scores each claim from its own components across chunks, as a brute-force dot product does', async () => {
    const account = new AccountPostings(0, '', 0);
    // ~400k components: several chunks of 65,536, with claims placed on each side of a boundary.
    const stored = await embedder.embed(sentences(6000, 3));
    for (const [i, v] of stored.entries()) account.put(i + 1, v);
    const live = new Map(stored.map((v, i) => [i + 1, v]));
    for (let r = 2; r <= 6000; r += 5) {
      account.kill(r);
      live.delete(r);
    }
    expect(account.heldBytes()).toBeGreaterThan(3 * 65_536 * 6);
    // Stored claims from every chunk as queries: their neighbours score high enough to prune on.
    const queries = [...(await embedder.embed(sentences(10, 4))), ...stored.filter((_, i) => i % 300 === 0)];
    for (const q of queries) {
      const brute = [...live]
        .map(([rowkey, v]) => ({ rowkey, cosine: dot(q, v) }))
        .sort((a, b) => b.cosine - a.cosine || a.rowkey - b.rowkey);
      expect(account.scanAll(q, 10)).toEqual(brute.slice(0, 10));
      // `nearest` prunes where it can (it was told to from 0 slots): it then scores candidates
      // one by one from their own components.
      for (const [k, floor] of [
        [10, 0.3],
        [3, 0.6],
      ] as const)
        expect(account.nearest(q, k, floor)).toEqual(brute.slice(0, k).filter((h) => h.cosine >= floor));
    }
  });
});
