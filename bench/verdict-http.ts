/**
 * Throughput of POST /v1/evaluate against a bare Fastify JSON route that parses the same bodies,
 * in interleaved rounds of the same run (medians compared), so the ratio holds on a noisy host.
 * Target (exit code): /v1/evaluate serves ≥ 50 % of the bare route's requests per second.
 * Usage: npx tsx bench/verdict-http.ts [-- --seconds 5 --rounds 3 --connections 50 --fresh-sql true]
 */
import os from 'node:os';
import Fastify from 'fastify';
import { benchOptions, compareInterleaved, startArbiter } from './lib/harness.ts';
import { VERDICT_MIX } from './lib/verdict-mix.ts';

const { round, get } = benchOptions({ 'fresh-sql': 'false' });

const kinds = VERDICT_MIX;
// The SQL analysis of recently seen queries is remembered. `--fresh-sql true` makes every db.query
// one the server has not seen.
const fresh = get('fresh-sql') === 'true';
const bodies = kinds.map((b) => JSON.stringify(b));
let unseen = 0;
const freshSql = () =>
  JSON.stringify({
    action: 'db.query',
    payload: { sql: `SELECT id, name FROM users WHERE id = ${++unseen}` },
  });

const bare = Fastify({ logger: false });
bare.post('/bare', async (request) => {
  const body = request.body as { action?: unknown };
  return {
    is_safe: typeof body.action === 'string',
    latency_ms: 0,
    hash: '0'.repeat(64),
    state_hash: '0'.repeat(64),
  };
});
const bareUrl = await bare.listen({ port: 0, host: '127.0.0.1' });
const arbiter = await startArbiter();

console.log(
  `bench:verdict (HTTP) — ${round.rounds} interleaved rounds of ${round.seconds}s per target, ${round.connections} connections, ${bodies.length} request bodies in rotation${fresh ? ' (every db.query unseen)' : ''}, database ${arbiter.config.database.kind}${arbiter.config.redisUrl ? ', Redis' : ''}, ${os.cpus().length} cores`,
);
const ratio = await compareInterleaved(
  { name: 'bare Fastify POST /bare', url: `${bareUrl}/bare`, method: 'POST', bodies },
  {
    name: 'Arbiter POST /v1/evaluate',
    url: `${arbiter.url}/v1/evaluate`,
    method: 'POST',
    bodies,
    headers: arbiter.headers,
    ...(fresh ? { freshFirstBody: freshSql } : {}),
  },
  round,
);
const TARGET = 0.5;
console.log(
  `ratio: ${(ratio * 100).toFixed(1)} % of the bare route (target ≥ ${TARGET * 100} %): ${ratio >= TARGET ? 'within' : 'missed'}`,
);

await arbiter.close();
await bare.close();
process.exitCode = ratio >= TARGET ? 0 : 1;
