/**
 * Throughput of an authenticated route against a bare Fastify route, measured in the same run on
 * the same machine so that the ratio means something on a noisy host. Usage:
 *   npm run bench:http [-- --seconds 5 --rounds 3 --connections 50]
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import Fastify from 'fastify';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { createContainer } from '../src/container.ts';
import { generateKey } from '../src/domains/api-keys/key-format.ts';
import { createLogger } from '../src/logger.ts';

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '5' },
    rounds: { type: 'string', default: '3' },
    connections: { type: 'string', default: '50' },
  },
});
const duration = Number(values.seconds);
const rounds = Number(values.rounds);
const connections = Number(values.connections);

interface Run {
  rps: number;
  p50: number;
  p99: number;
}

async function measure(url: string, headers: Record<string, string> = {}): Promise<Run> {
  const result = await autocannon({ url, connections, duration, headers });
  if (result.non2xx > 0 || result.errors > 0)
    throw new Error(`${url}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99 };
}

function median(runs: Run[]): Run {
  const sorted = [...runs].sort((a, b) => a.rps - b.rps);
  return sorted[Math.floor(sorted.length / 2)]!;
}

const bare = Fastify({ logger: false });
bare.get('/bare', async () => ({ account_id: 'x', key_id: 'y', plan: 'z' }));
const bareUrl = await bare.listen({ port: 0, host: '127.0.0.1' });

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'arbiter-bench-'));
const config = loadConfig({
  ARBITER_DATA_DIR: dir,
  ARBITER_LOG_LEVEL: 'warn',
  ...(process.env.DATABASE_URL ? { DATABASE_URL: process.env.DATABASE_URL } : {}),
});
const container = await createContainer(config, createLogger(config.logLevel));
const key = generateKey();
const owner = await container.services.accounts.ensureOwner(key);
const secret = owner
  ? key
  : (
      await container.services.apiKeys.create(
        (await container.services.accounts.findByIdOrEmail('owner@localhost'))!.id,
        'bench',
      )
    ).key;
const app = await buildApp(container);
const appUrl = await app.listen({ port: 0, host: '127.0.0.1' });

console.log(
  `bench:http — ${rounds} interleaved rounds of ${duration}s per target, ${connections} connections, database ${config.database.kind}, ${os.cpus().length} cores`,
);
const headers = { authorization: `Bearer ${secret}` };
// Warm-up so JIT and caches are in the same state for both targets.
await autocannon({ url: `${bareUrl}/bare`, connections, duration: 2 });
await autocannon({ url: `${appUrl}/v1/whoami`, connections, duration: 2, headers });
// Interleaved rounds, medians compared: load from elsewhere on the machine hits both alike.
const bareRuns: Run[] = [];
const appRuns: Run[] = [];
for (let i = 0; i < rounds; i++) {
  bareRuns.push(await measure(`${bareUrl}/bare`));
  appRuns.push(await measure(`${appUrl}/v1/whoami`, headers));
  console.log(
    `  round ${i + 1}: bare ${bareRuns[i]!.rps.toFixed(0)} req/s, arbiter ${appRuns[i]!.rps.toFixed(0)} req/s`,
  );
}
const baseline = median(bareRuns);
const authed = median(appRuns);
const ratio = authed.rps / baseline.rps;
const row = (name: string, r: Run) =>
  console.log(`${name.padEnd(34)} ${r.rps.toFixed(0).padStart(8)} req/s   p50 ${r.p50} ms   p99 ${r.p99} ms`);
row('bare Fastify GET /bare (median)', baseline);
row('Arbiter GET /v1/whoami (median)', authed);
console.log(`ratio: ${(ratio * 100).toFixed(1)} % of the bare route (target ≥ 70 %)`);

await app.close();
await container.close();
await bare.close();
fs.rmSync(dir, { recursive: true, force: true });
process.exitCode = ratio >= 0.7 ? 0 : 1;
