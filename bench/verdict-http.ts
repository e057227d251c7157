/**
 * Throughput of POST /v1/evaluate against a bare Fastify JSON route that parses the same bodies,
 * in interleaved rounds of the same run (medians compared), so the ratio holds on a noisy host.
 * Usage: npx tsx bench/verdict-http.ts [-- --seconds 5 --rounds 3 --connections 50]
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

// What agents send most: safe calls of every kind and an occasional refusal.
const bodies = [
  { action: 'db.query', payload: { sql: 'SELECT id, name FROM users WHERE id = $1', params: [42] } },
  { action: 'shell.exec', payload: { command: 'git status --short' } },
  { action: 'shell.exec', payload: { command: 'npm test 2>&1 > "$LOG"' } },
  { action: 'fs.read', payload: { path: 'src/index.ts' } },
  { action: 'fs.write', payload: { path: 'notes/today.md', content: '# Notes\n' } },
  { action: 'http.request', payload: { url: 'https://api.github.com/repos/nodejs/node', method: 'GET' } },
  { action: 'email.send', payload: { to: 'ana@example.com', subject: 'Status', body: 'Deploy finished.' } },
  { action: 'agent.respond', payload: { text: 'The build is green.' } },
  { action: 'fs.read', payload: { path: '/etc/shadow' } },
].map((b) => JSON.stringify(b));

interface Run {
  rps: number;
  p50: number;
  p99: number;
}

async function measure(url: string, headers: Record<string, string>, seconds = duration): Promise<Run> {
  const result = await autocannon({
    url,
    connections,
    duration: seconds,
    requests: bodies.map((body) => ({
      method: 'POST',
      body,
      headers: { 'content-type': 'application/json', ...headers },
    })),
  });
  if (result.non2xx > 0 || result.errors > 0)
    throw new Error(`${url}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99 };
}

function median(runs: Run[]): Run {
  const sorted = [...runs].sort((a, b) => a.rps - b.rps);
  return sorted[Math.floor(sorted.length / 2)]!;
}

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

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'arbiter-bench-'));
const config = loadConfig({
  ARBITER_DATA_DIR: dir,
  ARBITER_LOG_LEVEL: 'warn',
  ARBITER_EMBEDDER: 'hash',
  ...(process.env.DATABASE_URL ? { DATABASE_URL: process.env.DATABASE_URL } : {}),
  ...(process.env.REDIS_URL ? { REDIS_URL: process.env.REDIS_URL } : {}),
});
const container = await createContainer(config, createLogger(config.logLevel));
const key = generateKey();
const owner = await container.services.accounts.ensureOwner(key);
const ownerId =
  owner?.account.id ?? (await container.services.accounts.findByIdOrEmail('owner@localhost'))!.id;
const secret = owner ? key : (await container.services.apiKeys.create(ownerId, 'bench')).key;
const app = await buildApp(container);
const appUrl = await app.listen({ port: 0, host: '127.0.0.1' });
const headers = { authorization: `Bearer ${secret}` };

console.log(
  `bench:verdict (HTTP) — ${rounds} interleaved rounds of ${duration}s per target, ${connections} connections, ${bodies.length} request bodies in rotation, database ${config.database.kind}${config.redisUrl ? ', Redis' : ''}, ${os.cpus().length} cores`,
);
await measure(`${bareUrl}/bare`, {}, 2);
await measure(`${appUrl}/v1/evaluate`, headers, 2);
const bareRuns: Run[] = [];
const appRuns: Run[] = [];
for (let i = 0; i < rounds; i++) {
  bareRuns.push(await measure(`${bareUrl}/bare`, {}));
  appRuns.push(await measure(`${appUrl}/v1/evaluate`, headers));
  console.log(
    `  round ${i + 1}: bare ${bareRuns[i]!.rps.toFixed(0)} req/s, /v1/evaluate ${appRuns[i]!.rps.toFixed(0)} req/s`,
  );
}
const baseline = median(bareRuns);
const evaluated = median(appRuns);
const ratio = evaluated.rps / baseline.rps;
const row = (name: string, r: Run) =>
  console.log(`${name.padEnd(36)} ${r.rps.toFixed(0).padStart(8)} req/s   p50 ${r.p50} ms   p99 ${r.p99} ms`);
row('bare Fastify POST /bare (median)', baseline);
row('Arbiter POST /v1/evaluate (median)', evaluated);
console.log(`ratio: ${(ratio * 100).toFixed(1)} % of the bare route (target ≥ 50 %)`);

await app.close();
await container.close();
await bare.close();
fs.rmSync(dir, { recursive: true, force: true });
process.exitCode = ratio >= 0.5 ? 0 : 1;
