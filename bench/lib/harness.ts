/**
 * What every HTTP benchmark shares: an Arbiter instance with a key on a scratch database, and
 * interleaved autocannon rounds against two targets with medians compared, so that load from
 * elsewhere on a noisy machine hits both sides alike.
 */
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { scratchDatabase } from '../../scripts/lib/scratch-database.ts';
import { buildApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { createContainer } from '../../src/container.ts';
import { generateKey } from '../../src/domains/api-keys/key-format.ts';
import { createLogger } from '../../src/logger.ts';

export interface Run {
  rps: number;
  p50: number;
  p99: number;
}

export interface Target {
  name: string;
  url: string;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  /** JSON bodies sent in rotation (POST). */
  bodies?: readonly string[];
  /** Called for each request of the first body in rotation: its text, made afresh every time. */
  freshFirstBody?: () => string;
}

export interface RoundOptions {
  seconds: number;
  rounds: number;
  connections: number;
}

/** `--seconds`, `--rounds`, `--connections` (and any extra string options) from the command line. */
export function benchOptions<K extends string>(extra: Record<K, string> = {} as Record<K, string>) {
  const options: Record<string, { type: 'string'; default: string }> = {
    seconds: { type: 'string', default: '5' },
    rounds: { type: 'string', default: '3' },
    connections: { type: 'string', default: '50' },
  };
  for (const [name, fallback] of Object.entries<string>(extra))
    options[name] = { type: 'string', default: fallback };
  const { values } = parseArgs({ options, allowPositionals: true });
  const get = (name: string) => String(values[name]);
  return {
    round: {
      seconds: Number(get('seconds')),
      rounds: Number(get('rounds')),
      connections: Number(get('connections')),
    },
    get,
  };
}

export async function measure(target: Target, connections: number, seconds: number): Promise<Run> {
  const result = await autocannon({
    url: target.url,
    connections,
    duration: seconds,
    ...(target.bodies
      ? {
          requests: target.bodies.map((body, i) => ({
            method: target.method ?? 'POST',
            body,
            headers: { 'content-type': 'application/json', ...target.headers },
            ...(i === 0 && target.freshFirstBody
              ? { setupRequest: (req: object) => ({ ...req, body: target.freshFirstBody!() }) }
              : {}),
          })),
        }
      : { method: target.method ?? 'GET', headers: target.headers ?? {} }),
  });
  if (result.non2xx > 0 || result.errors > 0) {
    throw new Error(`${target.name}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  }
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99 };
}

export function median(runs: readonly Run[]): Run {
  return [...runs].sort((a, b) => a.rps - b.rps)[Math.floor(runs.length / 2)]!;
}

/** Warm-up, then `rounds` × (baseline, subject); prints each round and both medians; returns subject/baseline. */
export async function compareInterleaved(
  baseline: Target,
  subject: Target,
  options: RoundOptions,
): Promise<number> {
  await measure(baseline, options.connections, 2);
  await measure(subject, options.connections, 2);
  const a: Run[] = [];
  const b: Run[] = [];
  for (let i = 0; i < options.rounds; i++) {
    a.push(await measure(baseline, options.connections, options.seconds));
    b.push(await measure(subject, options.connections, options.seconds));
    console.log(
      `  round ${i + 1}: ${baseline.name} ${a[i]!.rps.toFixed(0)} req/s, ${subject.name} ${b[i]!.rps.toFixed(0)} req/s`,
    );
  }
  const row = (name: string, r: Run) =>
    console.log(
      `${`${name} (median)`.padEnd(44)} ${r.rps.toFixed(0).padStart(8)} req/s   p50 ${r.p50} ms   p99 ${r.p99} ms`,
    );
  row(baseline.name, median(a));
  row(subject.name, median(b));
  return median(b).rps / median(a).rps;
}

/**
 * An Arbiter on a scratch database, listening on a free port, with a key: a SQLite directory, or
 * with `DATABASE_URL` a new PostgreSQL database created through it and dropped on close.
 */
export async function startArbiter(env: Record<string, string> = {}) {
  const scratch = await scratchDatabase(process.env.DATABASE_URL ? 'postgres' : 'sqlite', {
    adminUrl: process.env.DATABASE_URL,
    prefix: 'arbiter_bench',
  });
  const config = loadConfig({
    ARBITER_LOG_LEVEL: 'warn',
    ARBITER_EMBEDDER: 'hash',
    ...scratch.env,
    ...(process.env.REDIS_URL ? { REDIS_URL: process.env.REDIS_URL } : {}),
    ...env,
  });
  const container = await createContainer(config, createLogger(config.logLevel));
  const key = generateKey();
  const owner = await container.services.accounts.ensureOwner(key);
  const accountId =
    owner?.account.id ?? (await container.services.accounts.findByIdOrEmail('owner@localhost'))!.id;
  const secret = owner ? key : (await container.services.apiKeys.create(accountId, 'bench')).key;
  const app = await buildApp(container);
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  return {
    config,
    container,
    app,
    url,
    accountId,
    headers: { authorization: `Bearer ${secret}` },
    async close() {
      await app.close();
      await container.close();
      await scratch.drop();
    },
  };
}
