/**
 * The sparse-scan index alone, without a database: conflict-candidate k-NN (k = 10, gate 0.3)
 * over the bench:vault corpus embedded with `hash`.
 *   npx tsx bench/sparse-knn.ts [--n 100000] [--queries 500] [--rounds 3]
 *
 * Fills one AccountPostings with N claims, then times `nearest` for the next `--queries` claims
 * (what `storeMany` asks for each new claim) against a full scan of every posting list, and checks
 * that both return the same hits, bit for bit.
 */

import { HashEmbedder } from '../src/domains/ledger/embeddings/hash.ts';
import { AccountPostings } from '../src/domains/ledger/storage/sparse-scan.ts';
import { syntheticClaims } from './lib/synthetic-claims.ts';

const arg = (name: string, fallback: string): string => {
  const at = process.argv.indexOf(name);
  return at >= 0 && process.argv[at + 1] ? process.argv[at + 1]! : fallback;
};
const n = Number(arg('--n', '100000'));
const queryCount = Number(arg('--queries', '500'));
const rounds = Number(arg('--rounds', '3'));
const K = 10;
const GATE = 0.3;

const embedder = new HashEmbedder(512);
const vectors = syntheticClaims(n + queryCount, 42).map((claim) => embedder.embedOne(claim));
const index = new AccountPostings();
let started = performance.now();
for (let i = 0; i < n; i++) index.put(i + 1, vectors[i]!);
console.log(`n=${n}: filled in ${(performance.now() - started).toFixed(0)} ms`);
const queries = vectors.slice(n);

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
for (let round = 0; round < rounds; round++) {
  started = performance.now();
  const nearest = queries.map((q) => index.nearest(q, K, GATE));
  const nearestUs = ((performance.now() - started) * 1000) / queries.length;
  started = performance.now();
  const full = queries.map((q) => index.scanAll(q, K, GATE));
  const fullUs = ((performance.now() - started) * 1000) / queries.length;
  const identical = nearest.filter((hits, i) => same(hits, full[i])).length;
  const bar = nearest.reduce((sum, hits) => sum + (hits[K - 1]?.cosine ?? 0), 0) / queries.length;
  console.log(
    `n=${n}: nearest ${nearestUs.toFixed(0)} µs/query, full scan ${fullUs.toFixed(0)} µs/query (${(fullUs / nearestUs).toFixed(2)}×); identical ${identical}/${queries.length}; mean ${K}th cosine ${bar.toFixed(3)}`,
  );
}
