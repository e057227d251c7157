/**
 * The judgment engine's speed: in-process latency (the pure seven gates, and the service call with
 * its policy-version read) and HTTP throughput of POST /v2/actions/evaluate as a share of
 * POST /v1/evaluate on the same payload, measured in interleaved rounds in the same run. Usage:
 *   npm run bench:judgment [-- --seconds 5 --rounds 3 --connections 50 --iterations 20000]
 */
import os from 'node:os';
import { judge } from '../src/domains/judgment/gates.ts';
import { benchOptions, compareInterleaved, startArbiter } from './lib/harness.ts';

const { round, get } = benchOptions({ iterations: '20000' });
const iterations = Number(get('iterations'));

// The app is listening from here on, but idle until the HTTP rounds below.
const arbiter = await startArbiter();
const { container, accountId, config } = arbiter;
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

const ratio = await compareInterleaved(
  {
    name: 'POST /v1/evaluate',
    url: `${arbiter.url}/v1/evaluate`,
    method: 'POST',
    bodies: [JSON.stringify(v1Body)],
    headers: arbiter.headers,
  },
  {
    name: 'POST /v2/actions/evaluate',
    url: `${arbiter.url}/v2/actions/evaluate`,
    method: 'POST',
    bodies: [JSON.stringify(v2Body)],
    headers: arbiter.headers,
  },
  round,
);
console.log(`ratio: ${(ratio * 100).toFixed(1)} % of /v1/evaluate (target ≥ 70 %)`);
console.log(
  `in-process p99: judge() ${pureP99.toFixed(3)} ms, service ${serviceP99.toFixed(3)} ms (target ≤ 2 ms)`,
);

await arbiter.close();
process.exitCode = ratio >= 0.7 && serviceP99 <= 2 ? 0 : 1;
