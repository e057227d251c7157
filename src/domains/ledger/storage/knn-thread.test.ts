import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, freshDatabase, type TestDatabase } from '../../../../test/helpers/databases.ts';
import { type Db, migrateToLatest, openDatabase } from '../../../db/database.ts';
import { createAuditRepo } from '../../audit/repo.ts';
import { conflictCandidateFloor } from '../conflicts.ts';
import { type Embedder, l2Normalize } from '../embeddings/embedder.ts';
import { HashEmbedder } from '../embeddings/hash.ts';
import { createLedgerRepo } from '../repo.ts';
import { CONFLICT_CANDIDATES, createLedgerService, type LedgerService } from '../service.ts';
import { createFullTextIndex } from './full-text.ts';
import { queriesOffThread, type ThreadedVectorIndex } from './knn-thread.ts';
import { sparseScanIndex } from './sparse-scan.ts';
import { exactScanIndex, type NearestHit, sqliteVecIndex, type VectorIndex } from './vector-index.ts';
import { bytesToVector, dot } from './vectors.ts';

/** The hash embedder's vectors with every component moved off zero: dense, like the local model's. */
class DenseEmbedder implements Embedder {
  readonly id = 'dense-test-64';
  readonly dimension = 64;
  private readonly hash = new HashEmbedder(64);

  async embed(texts: string[]): Promise<Float32Array[]> {
    return (await this.hash.embed(texts)).map((v) =>
      l2Normalize(v.map((x, i) => x + 0.05 * Math.sin(i + 1))),
    );
  }
}

const WORDS = (
  'checkout payments search billing inventory shipping auth latency error rate throughput memory ' +
  'queue depth cache hit ratio uptime cost replica disk usage eu west us east ap south ms percent ' +
  'seconds dollars since deploy during peak hours week migration dashboard night quarter incident plan'
).split(' ');

/** Deterministic pseudo-random sentences over a small vocabulary, so many are alike. */
function sentences(n: number, seed: number): string[] {
  let a = seed;
  const rand = () => {
    a = (Math.imul(a, 1664525) + 1013904223) >>> 0;
    return a / 2 ** 32;
  };
  return Array.from({ length: n }, () => {
    const words = Array.from(
      { length: 4 + Math.floor(rand() * 6) },
      () => WORDS[Math.floor(rand() * WORDS.length)],
    );
    return `${words.join(' ')} ${Math.floor(rand() * 10_000) / 10}`;
  });
}

/** The indexes whose queries run on the thread, per dialect and embedder (pgvector scans in PostgreSQL). */
const CASES = DIALECTS.flatMap((dialect) => [
  { dialect, embedder: new HashEmbedder(256) as Embedder, make: (db: Db) => sparseScanIndex(db) },
  {
    dialect,
    embedder: new DenseEmbedder() as Embedder,
    make: (db: Db): VectorIndex => (dialect === 'sqlite' ? sqliteVecIndex(db) : exactScanIndex(db)),
  },
]);

describe.each(CASES)('k-NN thread on $dialect', ({ dialect, embedder, make }) => {
  let tdb: TestDatabase;
  let db: Db;
  /** The index as the main thread runs it, and the same index with its queries on the thread. */
  let here: VectorIndex;
  let threaded: ThreadedVectorIndex;
  let ledger: LedgerService;
  const logged: string[] = [];
  const log = { error: (_: object, message: string) => void logged.push(message) };

  beforeAll(async () => {
    tdb = await freshDatabase(dialect);
    db = openDatabase(tdb.database);
    await migrateToLatest(db);
    here = make(db);
    threaded = queriesOffThread(make(db), tdb.database, log, { restartAfterMs: 200 }) as ThreadedVectorIndex;
    await threaded.init(embedder.dimension);
    // Queries go to the thread once it is up (before, they are answered here).
    await threaded.whenReady();
    ledger = createLedgerService({
      repo: createLedgerRepo(db.kysely),
      vectors: threaded,
      fullText: createFullTextIndex(db),
      embedder: async () => embedder,
      audit: createAuditRepo(db.kysely, db.dialect),
    });
  }, 60_000);
  afterAll(async () => {
    await threaded?.close();
    await db?.close();
    await tdb?.drop();
  });

  async function bruteForce(account: string, query: Float32Array, k: number, atLeast: number) {
    const rows = await db.kysely
      .selectFrom('claim_vectors')
      .select(['rowkey', 'embedding'])
      .where('account_id', '=', account)
      .execute();
    return rows
      .map((r) => ({ rowkey: Number(r.rowkey), cosine: dot(query, bytesToVector(r.embedding)) }))
      .sort((a, b) => b.cosine - a.cosine || a.rowkey - b.rowkey)
      .slice(0, k)
      .filter((h) => h.cosine >= atLeast);
  }

  /** sqlite-vec sums in single precision: the same claims, cosines within its rounding. */
  function expectSameAsBruteForce(got: NearestHit[], brute: NearestHit[]): void {
    if (here.kind !== 'sqlite-vec') {
      expect(got).toEqual(brute);
      return;
    }
    expect(got.map((h) => h.rowkey).sort()).toEqual(brute.map((h) => h.rowkey).sort());
    for (const [i, h] of got.entries()) expect(h.cosine).toBeCloseTo(brute[i]!.cosine, 6);
  }

  it('answers on the thread what the index answers here, bit for bit, as brute force does', async () => {
    await ledger.storeMany(
      'acct-p',
      'k',
      sentences(400, 1).map((claim) => ({ claim, source: 'test', confidence: 0.8 })),
    );
    const queries = await embedder.embed([...sentences(30, 2), 'nothing stored looks like this']);
    const floor = conflictCandidateFloor(embedder.id);
    for (const [k, atLeast] of [
      [CONFLICT_CANDIDATES, floor],
      [20, Number.NEGATIVE_INFINITY],
      [3, 0.9],
    ] as const) {
      const off = await threaded.nearestMany('acct-p', queries, k, atLeast);
      const on: NearestHit[][] = [];
      for (const q of queries) on.push(await here.nearest('acct-p', q, k, atLeast));
      expect(off).toEqual(on);
      for (const [i, q] of queries.entries())
        expectSameAsBruteForce(off[i]!, await bruteForce('acct-p', q, k, atLeast));
    }
    expect(threaded.thread()).toBeDefined();
    expect(logged).toEqual([]);
  });

  it('sees a claim as soon as its store has returned', async () => {
    for (const claim of sentences(12, 3)) {
      const stored = await ledger.store('acct-r', 'k', {
        claim: `${claim} (fresh)`,
        source: 'test',
        confidence: 1,
      });
      const [vector] = await embedder.embed([`${claim} (fresh)`]);
      const [best] = await threaded.nearest('acct-r', vector!, 1);
      const row = await db.kysely
        .selectFrom('claims')
        .select('id')
        .where('rowkey', '=', best!.rowkey)
        .executeTakeFirst();
      expect(row?.id).toBe(stored.id);
    }
  });

  it('answers here when the thread dies, says so, and starts a new thread later', async () => {
    const [q] = await embedder.embed(['checkout latency during peak hours']);
    const expected = await here.nearest('acct-p', q!, 5);
    const dying = threaded.thread()!;
    const exited = new Promise((resolve) => dying.once('exit', resolve));
    const pending = threaded.nearest('acct-p', q!, 5);
    await dying.terminate();
    await exited;
    expect(await pending).toEqual(expected);
    expect(logged.some((m) => m.startsWith('k-NN thread stopped'))).toBe(true);
    expect(threaded.thread()).toBeUndefined();
    expect(await threaded.nearest('acct-p', q!, 5)).toEqual(expected);
    await new Promise((resolve) => setTimeout(resolve, 250));
    await threaded.whenReady();
    expect(await threaded.nearest('acct-p', q!, 5)).toEqual(expected);
    expect(threaded.thread()).toBeDefined();
  });

  it('ends the thread on close', async () => {
    const running = threaded.thread()!;
    const exited = new Promise((resolve) => running.once('exit', resolve));
    await threaded.close();
    await exited;
    expect(threaded.thread()).toBeUndefined();
  });
});
