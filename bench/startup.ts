/**
 * Start-to-healthy time and memory of `arbiter serve`, compiled (`node dist/cli.js`, what
 * `npm start` and the container run), against a previous build when given one, else against
 * the same sources through the tsx loader, interleaved in one run so that both see the same
 * machine:
 *
 *   npm run bench:startup -- [--rounds 3] [--embedder local|hash] [--baseline <checkout>]
 *
 * `--baseline` names another checkout whose `dist/cli.js` is built (say main before a change:
 * `git worktree add ../before main && (cd ../before && npm run build)`); each figure is printed
 * beside that build's. Each start gets a fresh SQLite data directory and a free port. "Healthy"
 * is the first 200 from `/readyz` (database answers and is migrated), polled every 20 ms from the
 * moment of spawn. RSS is the server's VmRSS at that moment and again after one store, one search
 * and one verdict (the embedding model loaded; the targets: ready ≤ 2 s, ≤ 300 MB at both
 * points). `--help` is timed the same way.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildIfStale } from '../scripts/lib/arbiter-process.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const arg = (name: string, fallback: string): string => {
  const at = process.argv.indexOf(name);
  return at >= 0 && process.argv[at + 1] ? process.argv[at + 1]! : fallback;
};
const rounds = Number(arg('--rounds', '3'));
const embedder = arg('--embedder', 'local');
const KEY = `arbiter_sk_${'b'.repeat(40)}`;

interface Variant {
  name: string;
  argv: (command: string[]) => string[];
}
const baseline = arg('--baseline', '');
const VARIANTS: Variant[] = [
  { name: 'compiled (node dist/cli.js)', argv: (c) => [path.join(root, 'dist/cli.js'), ...c] },
  baseline
    ? {
        name: `baseline (${path.basename(path.resolve(baseline))})`,
        argv: (c) => [path.join(path.resolve(baseline), 'dist/cli.js'), ...c],
      }
    : {
        name: 'sources through tsx',
        argv: (c) => ['--import', 'tsx', path.join(root, 'src/cli.ts'), ...c],
      },
];

const rssMb = (pid: number): number => {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : Number.NaN;
};

async function freePort(): Promise<number> {
  const net = await import('node:net');
  return new Promise((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

async function untilHealthy(url: string, child: ChildProcess, started: number): Promise<number> {
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    try {
      const res = await fetch(`${url}/readyz`);
      if (res.status === 200) return performance.now() - started;
    } catch {
      // not listening yet
    }
    if (performance.now() - started > 120_000) throw new Error('not healthy after 120 s');
    await new Promise((r) => setTimeout(r, 20));
  }
}

interface Sample {
  healthyMs: number;
  rssHealthy: number;
  rssWarm: number;
  helpMs: number;
}

async function once(variant: Variant): Promise<Sample> {
  const help = performance.now();
  const h = spawnSync(process.execPath, variant.argv(['--help']), { cwd: root, encoding: 'utf8' });
  if (h.status !== 0) throw new Error(`--help failed: ${h.stderr}`);
  const helpMs = performance.now() - help;

  const dir = mkdtempSync(path.join(tmpdir(), 'arbiter-startup-'));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const started = performance.now();
  const child = spawn(process.execPath, variant.argv(['serve']), {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      ARBITER_DATA_DIR: dir,
      ARBITER_BOOTSTRAP_KEY: KEY,
      ARBITER_EMBEDDER: embedder,
      ARBITER_LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  try {
    const healthyMs = await untilHealthy(url, child, started);
    const rssHealthy = rssMb(child.pid!);
    const headers = { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' };
    const stored = await fetch(`${url}/v2/vault/store`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ claim: 'The office is in Lyon.', source: 'bench', confidence: 0.9 }),
    });
    if (stored.status !== 201) throw new Error(`store answered ${stored.status}`);
    await fetch(`${url}/v2/vault/search`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ query: 'where is the office?', top_k: 3 }),
    });
    const verdict = await fetch(`${url}/v1/evaluate`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ action: 'shell.exec', payload: { command: 'git status --short' } }),
    });
    if (verdict.status !== 200) throw new Error(`evaluate answered ${verdict.status}`);
    const rssWarm = rssMb(child.pid!);
    return { healthyMs, rssHealthy, rssWarm, helpMs };
  } finally {
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    await exited;
    rmSync(dir, { recursive: true, force: true });
  }
}

buildIfStale();
const samples = new Map<string, Sample[]>(VARIANTS.map((v) => [v.name, []]));
for (let r = 0; r < rounds; r++) {
  // Alternate which variant goes first, so neither always starts on a warmer file cache.
  const order = r % 2 === 0 ? VARIANTS : [...VARIANTS].reverse();
  for (const v of order) samples.get(v.name)!.push(await once(v));
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};
const rows = VARIANTS.map((v) => {
  const s = samples.get(v.name)!;
  return {
    name: v.name,
    healthy: median(s.map((x) => x.healthyMs)),
    rssHealthy: median(s.map((x) => x.rssHealthy)),
    rssWarm: median(s.map((x) => x.rssWarm)),
    help: median(s.map((x) => x.helpMs)),
  };
});
console.log(`arbiter serve on SQLite, embedder ${embedder}, median of ${rounds} interleaved starts`);
console.log(
  'variant                         start→healthy   RSS healthy   RSS after store+search+verdict   --help',
);
for (const r of rows)
  console.log(
    `${r.name.padEnd(32)}${`${(r.healthy / 1000).toFixed(2)} s`.padStart(13)}${`${r.rssHealthy.toFixed(0)} MB`.padStart(14)}${`${r.rssWarm.toFixed(0)} MB`.padStart(33)}${`${r.help.toFixed(0)} ms`.padStart(10)}`,
  );
const [compiled, other] = rows as [(typeof rows)[0], (typeof rows)[0]];
console.log(
  `compiled / ${baseline ? 'baseline' : 'tsx'}: start→healthy ${(compiled.healthy / other.healthy).toFixed(2)}×, RSS healthy ${(compiled.rssHealthy / other.rssHealthy).toFixed(2)}×, RSS after store+search+verdict ${(compiled.rssWarm / other.rssWarm).toFixed(2)}×, --help ${(compiled.help / other.help).toFixed(2)}×`,
);
