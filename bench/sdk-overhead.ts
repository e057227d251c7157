/**
 * What the SDK adds to a call of POST /v1/evaluate: the same request sent by a raw `fetch` and by
 * `arbiter.evaluate`, interleaved one for one against one `arbiter serve` process, p50 compared.
 * Usage: npx tsx bench/sdk-overhead.ts [-- --requests 3000]
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createArbiter } from '@arbiter/sdk';

const requestsArg = process.argv.indexOf('--requests');
const requests = requestsArg > 0 ? Number(process.argv[requestsArg + 1]) : 3000;
const BUDGET_MS = 0.2;

const dir = mkdtempSync(path.join(os.tmpdir(), 'arbiter-bench-sdk-'));
const key = `arbiter_sk_${randomBytes(24).toString('hex')}`;
const server = spawn(process.execPath, [path.resolve('bin/arbiter.js'), 'serve'], {
  env: {
    ...process.env,
    PORT: '0',
    ARBITER_DATA_DIR: dir,
    ARBITER_BOOTSTRAP_KEY: key,
    ARBITER_EMBEDDER: 'hash',
  },
  stdio: ['ignore', 'pipe', 'inherit'],
});
const url = await new Promise<string>((resolve, reject) => {
  let out = '';
  server.stdout!.on('data', (d) => {
    out += d;
    const m = /"url":"(http:\/\/[^"]+)"/.exec(out);
    if (m) resolve(m[1]!);
  });
  server.on('exit', (code) => reject(new Error(`arbiter serve exited with ${code}`)));
});

const body = { action: 'shell.exec', payload: { command: 'git status --short' } };
const encoded = JSON.stringify(body);
const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
const arbiter = createArbiter({ baseUrl: url, apiKey: key });

async function raw(): Promise<void> {
  const res = await fetch(`${url}/v1/evaluate`, { method: 'POST', headers, body: encoded });
  const verdict = (await res.json()) as { is_safe: boolean };
  if (!verdict.is_safe) throw new Error('unexpected verdict');
}
async function sdk(): Promise<void> {
  const verdict = await arbiter.evaluate(body.action, body.payload);
  if (!verdict.is_safe) throw new Error('unexpected verdict');
}

async function timed(run: () => Promise<void>): Promise<number> {
  const start = process.hrtime.bigint();
  await run();
  return Number(process.hrtime.bigint() - start) / 1e6;
}

const quantile = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;

for (let i = 0; i < 300; i++) {
  await raw();
  await sdk();
}
const rawMs: number[] = [];
const sdkMs: number[] = [];
for (let i = 0; i < requests; i++) {
  // Alternate which goes first, so neither always meets a warmer connection.
  if (i % 2 === 0) {
    rawMs.push(await timed(raw));
    sdkMs.push(await timed(sdk));
  } else {
    sdkMs.push(await timed(sdk));
    rawMs.push(await timed(raw));
  }
}
rawMs.sort((a, b) => a - b);
sdkMs.sort((a, b) => a - b);

const rawP50 = quantile(rawMs, 0.5);
const sdkP50 = quantile(sdkMs, 0.5);
const added = sdkP50 - rawP50;
console.log(
  `bench:sdk — ${requests} interleaved pairs of POST /v1/evaluate, one connection each, ${os.cpus().length} cores`,
);
console.log(`  raw fetch      p50 ${rawP50.toFixed(3)} ms   p90 ${quantile(rawMs, 0.9).toFixed(3)} ms`);
console.log(`  arbiter SDK    p50 ${sdkP50.toFixed(3)} ms   p90 ${quantile(sdkMs, 0.9).toFixed(3)} ms`);
console.log(
  `  SDK adds ${added.toFixed(3)} ms at p50 (ratio ${(sdkP50 / rawP50).toFixed(3)}); budget ${BUDGET_MS} ms: ${added <= BUDGET_MS ? 'within' : 'OVER'}`,
);

server.kill('SIGTERM');
await new Promise((resolve) => server.on('exit', resolve));
rmSync(dir, { recursive: true, force: true });
process.exitCode = added <= BUDGET_MS ? 0 : 1;
