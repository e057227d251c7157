/**
 * The judgment engine's speed: in-process latency (the pure seven gates, and the service call with
 * its policy-version read) and HTTP throughput of POST /v2/actions/evaluate as a share of
 * POST /v1/evaluate on the same payload, measured in interleaved rounds in the same run. Usage:
 *   npm run bench:judgment [-- --seconds 5 --rounds 3 --connections 50 --iterations 20000]
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { createContainer } from '../src/container.ts';
import { generateKey } from '../src/domains/api-keys/key-format.ts';
import { judge } from '../src/domains/judgment/gates.ts';
import { createLogger } from '../src/logger.ts';

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '5' },
    rounds: { type: 'string', default: '3' },
    connections: { type: 'string', default: '50' },
    iterations: { type: 'string', default: '20000' },
  },
});
const duration = Number(values.seconds);
const rounds = Number(values.rounds);
const connections = Number(values.connections);
const iterations = Number(values.iterations);

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'arbiter-bench-'));
const config = loadConfig({
  ARBITER_DATA_DIR: dir,
  ARBITER_LOG_LEVEL: 'warn',
  ARBITER_EMBEDDER: 'hash',
  ...(process.env.DATABASE_URL ? { DATABASE_URL: process.env.DATABASE_URL } : {}),
});
const container = await createContainer(config, createLogger(config.logLevel));
const key = generateKey();
const owner = await container.services.accounts.ensureOwner(key);
const accountId =
  owner?.account.id ?? (await container.services.accounts.findByIdOrEmail('owner@localhost'))!.id;
const secret = owner ? key : (await container.services.apiKeys.create(accountId, 'bench')).key;
const principal = { accountId, keyId: 'bench' };

const payload = { sql: 'SELECT id, email FROM users WHERE id = $1', params: [42] };
const v1Body = { action: 'db.query', payload };
const v2Body = {
  action_type: 'db.query',
  actor: 'bench-agent',
  actor_role: 'assistant' as const,
  impact_scope: 'internal' as const,
  payload,
};

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

async function timeIt(name: string, fn: () => unknown): Promise<number> {
  for (let i = 0; i < 1000; i++) await fn();
  const samples: number[] = [];
  for (let i = 0; i < iterations; i++) {
    const start = performance.now();
    await fn();
    samples.push(performance.now() - start);
  }
  samples.sort((a, b) => a - b);
  const p99 = percentile(samples, 99);
  console.log(
    `${name.padEnd(44)} p50 ${percentile(samples, 50).toFixed(3)} ms   p99 ${p99.toFixed(3)} ms   max ${samples.at(-1)!.toFixed(3)} ms`,
  );
  return p99;
}

console.log(
  `bench:judgment — database ${config.database.kind}, ${os.cpus().length} cores, ${iterations} in-process iterations`,
);
const { policy } = await container.policies.current(accountId);
const mixed = [
  v2Body,
  { ...v2Body, payload: { sql: 'DELETE FROM users' } },
  {
    ...v2Body,
    action_type: 'http.request',
    impact_scope: 'external' as const,
    payload: { url: 'https://api.github.com/x', method: 'POST' },
  },
  {
    ...v2Body,
    action_type: 'shell.exec',
    payload: { command: 'ls -la /srv/app && cat package.json | grep name' },
  },
];
let n = 0;
const pureP99 = await timeIt('in-process judge(), seven gates (mixed)', () => {
  const b = mixed[n++ % mixed.length]!;
  return judge(
    {
      actionType: b.action_type,
      actor: b.actor,
      role: b.actor_role,
      scope: b.impact_scope,
      payload: b.payload,
    },
    { policy },
  );
});
const serviceP99 = await timeIt('in-process service.evaluate() (ALLOWED)', () =>
  container.judgment.evaluate(principal, v2Body),
);

const app = await buildApp(container);
const url = await app.listen({ port: 0, host: '127.0.0.1' });
const headers = { authorization: `Bearer ${secret}`, 'content-type': 'application/json' };

interface Run {
  rps: number;
  p50: number;
  p99: number;
}
async function measure(route: string, body: unknown, seconds = duration): Promise<Run> {
  const result = await autocannon({
    url: `${url}${route}`,
    method: 'POST',
    connections,
    duration: seconds,
    headers,
    body: JSON.stringify(body),
  });
  if (result.non2xx > 0 || result.errors > 0)
    throw new Error(`${route}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99 };
}
const median = (runs: Run[]) => [...runs].sort((a, b) => a.rps - b.rps)[Math.floor(runs.length / 2)]!;

await measure('/v1/evaluate', v1Body, 2);
await measure('/v2/actions/evaluate', v2Body, 2);
const v1Runs: Run[] = [];
const v2Runs: Run[] = [];
for (let i = 0; i < rounds; i++) {
  v1Runs.push(await measure('/v1/evaluate', v1Body));
  v2Runs.push(await measure('/v2/actions/evaluate', v2Body));
  console.log(
    `  round ${i + 1}: /v1/evaluate ${v1Runs[i]!.rps.toFixed(0)} req/s, /v2/actions/evaluate ${v2Runs[i]!.rps.toFixed(0)} req/s`,
  );
}
const v1 = median(v1Runs);
const v2 = median(v2Runs);
const row = (name: string, r: Run) =>
  console.log(`${name.padEnd(44)} ${r.rps.toFixed(0).padStart(8)} req/s   p50 ${r.p50} ms   p99 ${r.p99} ms`);
row('POST /v1/evaluate (median)', v1);
row('POST /v2/actions/evaluate (median)', v2);
const ratio = v2.rps / v1.rps;
console.log(`ratio: ${(ratio * 100).toFixed(1)} % of /v1/evaluate (target ≥ 70 %)`);
console.log(
  `in-process p99: judge() ${pureP99.toFixed(3)} ms, service ${serviceP99.toFixed(3)} ms (target ≤ 2 ms)`,
);

await app.close();
await container.close();
fs.rmSync(dir, { recursive: true, force: true });
process.exitCode = ratio >= 0.7 && serviceP99 <= 2 ? 0 : 1;
