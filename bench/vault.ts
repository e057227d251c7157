/**
 * Claim ledger at scale, through the real storage:
 *   npx tsx bench/vault.ts [--db sqlite|postgres] [--embedder hash|local] [--n 10000,100000]
 *     [--single 2000] [--queries 200] [--exact 50] [--batch 500] [--marginal 2] [--latency 0] [--keep]
 *
 * For each size N, one fresh database and one account: the first `--single` claims go through
 * `service.store` (one transaction each, with scrubbing, conflict detection and chaining), the rest
 * through `POST /v2/vault/store_batch` (`app.inject`, so with validation and the answer's
 * serialisation) in batches of `--batch` (at most 1,000); both throughputs are printed, the batch's
 * with its cost per claim and the event loop's longest stall. Then search
 * latency p50/p95 over `--queries` searches (service calls), then over HTTP with one client and
 * queries new to the query cache, beside the embedder's time for a new query alone; and for `--exact` queries whether `vectors.nearest`
 * returns exactly what a brute-force cosine over `claim_vectors` returns. Peak memory is the RSS
 * high-water mark of the whole process. Last, the cost of one more claim at size N: `--marginal`
 * further batches through `storeMany`, each timed whole and, before it, the conflict-candidate
 * k-NN for the same claims on its own (so "the rest" is scrubbing, embedding, the checker and the
 * SQL), then 200 more through `store`, one transaction each, as the HTTP endpoint stores them.
 * With `--latency S` (seconds, 0 = skip), last: `POST /v1/evaluate` latency on the same instance
 * over a real socket, in `--rounds` interleaved pairs of phases of S seconds each: idle, then
 * while one client stores claims through `POST /v2/vault/store`, one after the other, as fast as
 * it can (an agent writing its memory). Four connections send the verdict bench's request mix in
 * closed loops; p99 of each phase (all rounds pooled), their ratio, and the event loop's longest
 * stall per phase.
 * PostgreSQL runs in a scratch database created on
 * TEST_DATABASE_URL (or DATABASE_URL) and dropped afterwards (`--keep` keeps it and prints where).
 *
 * Claims are synthetic and seeded, so every run stores the same text:
 * "<Service> <metric> in <region> is <number> <unit> <qualifier>".
 */

import http from 'node:http';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { scratchDatabase } from '../scripts/lib/scratch-database.ts';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { createContainer } from '../src/container.ts';
import { conflictCandidateFloor } from '../src/domains/ledger/conflicts.ts';
import { CONFLICT_CANDIDATES } from '../src/domains/ledger/service.ts';
import { bytesToVector, dot } from '../src/domains/ledger/storage/vectors.ts';
import { createLogger } from '../src/logger.ts';
import { syntheticClaims, syntheticQueries } from './lib/synthetic-claims.ts';
import { VERDICT_MIX } from './lib/verdict-mix.ts';

const arg = (name: string, fallback: string): string => {
  const at = process.argv.indexOf(name);
  return at >= 0 && process.argv[at + 1] ? process.argv[at + 1]! : fallback;
};
const dbKind = arg('--db', 'sqlite') as 'sqlite' | 'postgres';
const embedderKind = arg('--embedder', 'hash');
const sizes = arg('--n', '10000,100000').split(',').map(Number);
const singleCount = Number(arg('--single', '2000'));
const queryCount = Number(arg('--queries', '200'));
const exactCount = Number(arg('--exact', '50'));
const batchSize = Number(arg('--batch', '500'));
const marginalBatches = Number(arg('--marginal', '2'));
/** Claims stored one by one after the marginal batches. */
const MARGINAL_SINGLES = 200;
const latencySeconds = Number(arg('--latency', '0'));
const latencyRounds = Number(arg('--rounds', '3'));
const keep = process.argv.includes('--keep');
if (dbKind !== 'sqlite' && dbKind !== 'postgres') throw new Error('--db must be sqlite or postgres');
if (embedderKind !== 'hash' && embedderKind !== 'local') throw new Error('--embedder must be hash or local');

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

const mb = (kb: number) => `${(kb / 1024).toFixed(0)} MB`;

function openScratch() {
  return scratchDatabase(dbKind, {
    adminUrl: process.env.TEST_DATABASE_URL || process.env.DATABASE_URL,
    prefix: 'arbiter_bench',
  });
}

async function run(n: number): Promise<void> {
  const scratch = await openScratch();
  const container = await createContainer(
    loadConfig({ ...scratch.env, ARBITER_EMBEDDER: embedderKind }),
    createLogger('warn'),
  );
  try {
    const { service, vectors, embedder } = container.ledger;
    const { account } = await container.services.accounts.create({
      email: `bench-${n}@example.com`,
      name: 'bench',
      // Unlimited: the latency phases send more requests than a metered plan allows.
      plan: 'owner',
    });
    const marginalSingles = marginalBatches > 0 ? MARGINAL_SINGLES : 0;
    // Stores during the latency phases: more than any loop manages in the time given.
    const latencyStores = latencySeconds > 0 ? Math.ceil(latencySeconds * latencyRounds * 3000) : 0;
    const claims = syntheticClaims(n + marginalBatches * batchSize + marginalSingles + latencyStores, 42);
    const label = `${dbKind} (${vectors.kind}) ${embedder.id} n=${n}`;

    const single = Math.min(singleCount, n);
    let started = performance.now();
    for (let i = 0; i < single; i++)
      await service.store(account.id, 'bench', { claim: claims[i]!, source: 'bench', confidence: 0.9 });
    const singleSeconds = (performance.now() - started) / 1000;
    console.log(
      `${label}: store        ${single} claims in ${singleSeconds.toFixed(1)} s = ${(single / singleSeconds).toFixed(0)} claims/s (service.store, one transaction each)`,
    );

    if (n > single) {
      const app = await buildApp(container);
      const { key } = await container.services.apiKeys.create(account.id, 'bench store_batch');
      const stall = monitorEventLoopDelay({ resolution: 1 });
      stall.enable();
      started = performance.now();
      try {
        for (let i = single; i < n; i += batchSize) {
          if ((i - single) % 20_000 === 0 && i > single)
            console.error(
              `  ${i} stored, ${((i - single) / ((performance.now() - started) / 1000)).toFixed(0)} claims/s`,
            );
          const res = await app.inject({
            method: 'POST',
            url: '/v2/vault/store_batch',
            headers: { authorization: `Bearer ${key}` },
            payload: {
              claims: claims
                .slice(i, i + batchSize)
                .map((claim) => ({ claim, source: 'bench', confidence: 0.9 })),
            },
          });
          if (res.statusCode !== 201) throw new Error(`store_batch answered ${res.statusCode}: ${res.body}`);
        }
      } finally {
        stall.disable();
        await app.close();
      }
      const bulkMs = performance.now() - started;
      const bulk = n - single;
      console.log(
        `${label}: store_batch  ${bulk} claims in ${(bulkMs / 1000).toFixed(1)} s = ${((bulk * 1000) / bulkMs).toFixed(0)} claims/s, ${(bulkMs / bulk).toFixed(2)} ms a claim (POST /v2/vault/store_batch through app.inject, batches of ${batchSize}; longest event-loop stall ${(stall.max / 1e6).toFixed(0)} ms)`,
      );
    }

    const queries = syntheticQueries(queryCount, 7);
    for (const q of queries.slice(0, 10)) await service.search(account.id, q, 5);
    const times: number[] = [];
    let answered = 0;
    for (const q of queries) {
      const t = performance.now();
      const hits = await service.search(account.id, q, 5);
      times.push(performance.now() - t);
      if (hits.length > 0) answered++;
    }
    times.sort((a, b) => a - b);
    console.log(
      `${label}: search       p50 ${percentile(times, 50).toFixed(1)} ms  p95 ${percentile(times, 95).toFixed(1)} ms  max ${times[times.length - 1]!.toFixed(1)} ms over ${times.length} queries (top 5; ${answered} answered)`,
    );

    // What an agent sees: one client, POST /v2/vault/search over a real socket, each query new to
    // the query cache, interleaved with the same model embedding another new query alone (the
    // part of a search no index can save; the baseline of this run).
    {
      const app = await buildApp(container);
      const { key } = await container.services.apiKeys.create(account.id, 'bench search');
      const base = await app.listen({ port: 0, host: '127.0.0.1' });
      const fresh = syntheticQueries(2 * queryCount, 11).map((q, i) => `${q} (${i})`);
      const overHttp: number[] = [];
      const embedAlone: number[] = [];
      try {
        for (let i = 0; i < queryCount; i++) {
          let t = performance.now();
          const res = await fetch(`${base}/v2/vault/search`, {
            method: 'POST',
            headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
            body: JSON.stringify({ query: fresh[2 * i], top_k: 5 }),
          });
          await res.arrayBuffer();
          if (res.status !== 200) throw new Error(`search answered ${res.status}`);
          overHttp.push(performance.now() - t);
          t = performance.now();
          await embedder.embed([fresh[2 * i + 1]!]);
          embedAlone.push(performance.now() - t);
        }
      } finally {
        await app.close();
      }
      overHttp.sort((a, b) => a - b);
      embedAlone.sort((a, b) => a - b);
      console.log(
        `${label}: search HTTP  p50 ${percentile(overHttp, 50).toFixed(1)} ms  p95 ${percentile(overHttp, 95).toFixed(1)} ms over ${overHttp.length} new queries, one client; embedding a new query alone p50 ${percentile(embedAlone, 50).toFixed(1)} ms  p95 ${percentile(embedAlone, 95).toFixed(1)} ms (same run, interleaved)`,
      );
    }

    console.log(`${label}: memory       RSS high-water mark so far ${mb(process.resourceUsage().maxRSS)}`);

    // Brute force over the system of record, a page at a time so the check itself stays small.
    const queryVectors = await embedder.embed(queries.slice(0, exactCount));
    const k = 10;
    const brute = queryVectors.map(() => [] as Array<{ rowkey: number; cosine: number }>);
    const byCosine = (a: { rowkey: number; cosine: number }, b: { rowkey: number; cosine: number }) =>
      b.cosine - a.cosine || a.rowkey - b.rowkey;
    for (let after = 0; ; ) {
      const page = await container.db.kysely
        .selectFrom('claim_vectors')
        .select(['rowkey', 'embedding'])
        .where('account_id', '=', account.id)
        .where('rowkey', '>', after)
        .orderBy('rowkey')
        .limit(5000)
        .execute();
      if (page.length === 0) break;
      after = Number(page[page.length - 1]!.rowkey);
      const vectorsOfPage = page.map((r) => ({
        rowkey: Number(r.rowkey),
        vector: bytesToVector(r.embedding),
      }));
      queryVectors.forEach((q, i) => {
        const merged = brute[i]!;
        for (const s of vectorsOfPage) merged.push({ rowkey: s.rowkey, cosine: dot(q, s.vector) });
        brute[i] = merged.sort(byCosine).slice(0, k);
      });
    }
    let same = 0;
    let sameSet = 0;
    let identical = 0;
    let maxDeviation = 0;
    for (const [i, q] of queryVectors.entries()) {
      const got = await vectors.nearest(account.id, q, k);
      const truth = brute[i]!;
      const exactOf = new Map(truth.map((t) => [t.rowkey, t.cosine]));
      for (const h of got) {
        const t =
          exactOf.get(h.rowkey) ??
          dot(q, (await container.ledger.repo.vectorsByRowkeys([h.rowkey])).get(h.rowkey)!);
        maxDeviation = Math.max(maxDeviation, Math.abs(t - h.cosine));
      }
      // Equal cosines (up to float32 rounding) may come in either order; the values must match.
      if (got.length === truth.length && got.every((h, j) => Math.abs(h.cosine - truth[j]!.cosine) < 1e-6))
        same++;
      if (got.length === truth.length && got.every((h) => exactOf.has(h.rowkey))) sameSet++;
      if (
        got.length === truth.length &&
        got.every((h, j) => h.rowkey === truth[j]!.rowkey && h.cosine === truth[j]!.cosine)
      )
        identical++;
    }
    console.log(
      `${label}: exact k-NN   ${same}/${queryVectors.length} queries agree with brute force over claim_vectors (top ${k}, cosines within 1e-6); ${sameSet}/${queryVectors.length} same claims; ${identical}/${queryVectors.length} identical order and bit-identical cosines; max |cosine - exact| ${maxDeviation.toExponential(1)}`,
    );
    // The claims after the first N: the same generator, so none repeats a stored one.
    const floor = conflictCandidateFloor(embedder.id);
    for (let b = 0; b < marginalBatches; b++) {
      const batch = claims.slice(n + b * batchSize, n + (b + 1) * batchSize);
      const vectorsOfBatch = await embedder.embed(batch);
      let t = performance.now();
      // What `storeMany` asks the index for, the same way.
      if (vectors.nearestMany)
        await vectors.nearestMany(account.id, vectorsOfBatch, CONFLICT_CANDIDATES, floor);
      else for (const v of vectorsOfBatch) await vectors.nearest(account.id, v, CONFLICT_CANDIDATES, floor);
      const knnMs = performance.now() - t;
      t = performance.now();
      await service.storeMany(
        account.id,
        'bench',
        batch.map((claim) => ({ claim, source: 'bench', confidence: 0.9 })),
      );
      const storeMs = performance.now() - t;
      const perClaim = (ms: number) => `${((ms * 1000) / batch.length).toFixed(0)} µs`;
      console.log(
        `${label}: marginal     batch ${b + 1} of ${batch.length} more: storeMany ${perClaim(storeMs)} a claim = ${((batch.length * 1000) / storeMs).toFixed(0)} claims/s; its conflict-candidate k-NN alone ${perClaim(knnMs)} a claim`,
      );
    }
    if (marginalSingles > 0) {
      // What `POST /v2/vault/store` does: one claim, one transaction.
      const from = n + marginalBatches * batchSize;
      const t = performance.now();
      for (const claim of claims.slice(from, from + marginalSingles))
        await service.store(account.id, 'bench', { claim, source: 'bench', confidence: 0.9 });
      const ms = performance.now() - t;
      console.log(
        `${label}: marginal     ${marginalSingles} more through store (one transaction each): ${((ms * 1000) / marginalSingles).toFixed(0)} µs a claim = ${((marginalSingles * 1000) / ms).toFixed(0)} claims/s`,
      );
    }
    if (latencySeconds > 0) {
      const from = n + marginalBatches * batchSize + marginalSingles;
      await evaluateLatency(container, account.id, claims.slice(from), label);
    }
    if (keep) console.log(`${label}: kept ${JSON.stringify(scratch.env)}`);
  } finally {
    await container.close();
    if (!keep) await scratch.drop();
  }
}

/** What agents send most (the verdict bench's mix). */
const EVALUATE_BODIES = VERDICT_MIX.map((b) => JSON.stringify(b));
const LATENCY_CONNECTIONS = 4;

/** `/v1/evaluate` p99 idle and while claims are stored, on one instance, in interleaved phases. */
async function evaluateLatency(
  container: Awaited<ReturnType<typeof createContainer>>,
  accountId: string,
  claims: readonly string[],
  label: string,
): Promise<void> {
  const { key } = await container.services.apiKeys.create(accountId, 'bench');
  const app = await buildApp(container);
  const base = await app.listen({ port: 0, host: '127.0.0.1' });
  const agent = new http.Agent({ keepAlive: true, maxSockets: LATENCY_CONNECTIONS });
  // Stores come as requests too: on their own connection, one at a time.
  const storeAgent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  // A kept-alive socket the server closed while idle can be reused in the same instant: Node's
  // documented answer is to send again when a reused socket was reset (`req.reusedSocket`).
  const post = (path: string, body: string, through = agent): Promise<void> =>
    once(path, body, through).catch((err: NodeJS.ErrnoException & { reused?: boolean }) => {
      if (err.reused && err.code === 'ECONNRESET') return once(path, body, through);
      throw err;
    });
  const once = (path: string, body: string, through: http.Agent) =>
    new Promise<void>((resolve, reject) => {
      const req = http.request(
        `${base}${path}`,
        {
          method: 'POST',
          agent: through,
          headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        },
        (res) => {
          res.resume();
          // A verdict of conflict with the stored claims (409) or of drift (412) is an answer too.
          res.on('end', () =>
            [200, 201, 409, 412].includes(res.statusCode!)
              ? resolve()
              : reject(new Error(`${path}: ${res.statusCode}`)),
          );
        },
      );
      req.on('error', (err) => reject(Object.assign(err, { reused: req.reusedSocket })));
      req.end(body);
    });
  /** Closed loops for `seconds`; the latency of every request. */
  const load = async (seconds: number): Promise<number[]> => {
    const times: number[] = [];
    const until = performance.now() + seconds * 1000;
    await Promise.all(
      Array.from({ length: LATENCY_CONNECTIONS }, async (_, c) => {
        for (let i = c; performance.now() < until; i++) {
          const t = performance.now();
          await post('/v1/evaluate', EVALUATE_BODIES[i % EVALUATE_BODIES.length]!);
          times.push(performance.now() - t);
        }
      }),
    );
    return times;
  };
  const stall = monitorEventLoopDelay({ resolution: 1 });
  stall.enable();
  const stallOf = () => {
    const ms = stall.max / 1e6;
    stall.reset();
    return ms;
  };
  try {
    await load(2);
    const idle: number[] = [];
    const busy: number[] = [];
    const stalls = { idle: 0, busy: 0 };
    let next = 0;
    let stored = 0;
    let storeMs = 0;
    for (let r = 0; r < latencyRounds; r++) {
      stallOf();
      idle.push(...(await load(latencySeconds)));
      stalls.idle = Math.max(stalls.idle, stallOf());
      let storing = true;
      const stores = (async () => {
        while (storing) {
          const t = performance.now();
          const claim = claims[next++]!;
          await post(
            '/v2/vault/store',
            JSON.stringify({ claim, source: 'bench', confidence: 0.9 }),
            storeAgent,
          );
          storeMs += performance.now() - t;
          stored++;
        }
      })();
      try {
        busy.push(...(await load(latencySeconds)));
      } finally {
        // A failed verdict ends the run, with its own error rather than the stores' once the app closes.
        storing = false;
        await stores.catch(() => undefined);
      }
      await stores;
      stalls.busy = Math.max(stalls.busy, stallOf());
    }
    const p = (times: number[], q: number) =>
      percentile(
        [...times].sort((a, b) => a - b),
        q,
      );
    const idleP99 = p(idle, 99);
    const busyP99 = p(busy, 99);
    console.log(
      `${label}: evaluate     idle p50 ${p(idle, 50).toFixed(1)} ms p99 ${idleP99.toFixed(1)} ms (${idle.length} requests, longest event-loop stall ${stalls.idle.toFixed(0)} ms)`,
    );
    console.log(
      `${label}: evaluate     during stores p50 ${p(busy, 50).toFixed(1)} ms p99 ${busyP99.toFixed(1)} ms (${busy.length} requests, longest event-loop stall ${stalls.busy.toFixed(0)} ms); ${stored} stores at ${(storeMs / stored).toFixed(1)} ms each`,
    );
    console.log(
      `${label}: evaluate     p99 during stores / idle p99 = ${(busyP99 / idleP99).toFixed(2)} (target ≤ 2; ${latencyRounds} rounds of ${latencySeconds} s per phase, ${LATENCY_CONNECTIONS} connections)`,
    );
  } finally {
    stall.disable();
    agent.destroy();
    storeAgent.destroy();
    await app.close();
  }
}

for (const n of sizes) await run(n);
console.log(
  `peak memory (RSS high-water mark): ${mb(process.resourceUsage().maxRSS)} (${dbKind}, ${embedderKind}, n=${sizes.join(',')})`,
);
