// In-process latency of the verdict engine per built-in action, for typical payloads, and the
// time one 1 MB payload of every action takes (the body limit; see "Budgets" in the verdict README).
// Usage: npx tsx bench/verdict-inprocess.ts [--iterations 2000]
// Each typical row is timed against a baseline in the same loop: reading the same payload off the
// wire once (JSON.stringify then JSON.parse), sample for sample, so load from elsewhere on the
// machine weighs on both and the ratio is the steadier figure.
// Target (exit code): typical rows (all but shell(struct)) p50 ≤ 50 µs. Reported against their
// targets without failing the run: p99 ≤ 1 ms, a 1 MB payload ≤ 100 ms in the engine, a 1 MB
// agent.respond checked against a ledger by the verdict service ≤ 1 s; under load from elsewhere
// these tails are the machine's (docs/benchmarks.md#verdicts).
import { parseArgs } from 'node:util';
import { scratchDatabase } from '../scripts/lib/scratch-database.ts';
import { loadConfig } from '../src/config.ts';
import { createContainer } from '../src/container.ts';
import { type EvaluateInput, evaluateAction } from '../src/domains/verdict/engine.ts';
import { createLogger } from '../src/logger.ts';

const { values, positionals } = parseArgs({
  options: { iterations: { type: 'string' } },
  allowPositionals: true,
});
const iterations = Number(values.iterations ?? positionals[0] ?? 2000);
const P50_TARGET_US = 50;
const P99_TARGET_US = 1000;

type Input = EvaluateInput | ((iteration: number) => EvaluateInput);

const typical: Record<string, Input[]> = {
  'db.query': [
    { action: 'db.query', payload: { sql: 'SELECT id, name, email FROM users WHERE id = $1', params: [42] } },
    {
      action: 'db.query',
      payload: { sql: "UPDATE orders SET status = 'shipped' WHERE id = 17", dialect: 'postgres' },
    },
    {
      action: 'db.query',
      payload: { sql: 'SELECT count(*) FROM singer GROUP BY country', dialect: 'sqlite' },
    },
    { action: 'db.query', payload: { sql: 'DELETE FROM sessions', dialect: 'mysql' } },
  ],
  // The analysis of recently seen SQL is remembered; a text never seen before is parsed.
  'db.query(new)': [
    (i) => ({
      action: 'db.query',
      payload: { sql: `SELECT id, name, email FROM users WHERE id = ${i} AND status = 'active'` },
    }),
    (i) => ({ action: 'db.query', payload: { sql: `UPDATE orders SET status = 'shipped' WHERE id = ${i}` } }),
  ],
  'shell.exec': [
    { action: 'shell.exec', payload: { command: 'git status --short' } },
    { action: 'shell.exec', payload: { command: 'find . -name "*.log" -mtime +7 | xargs grep -l ERROR' } },
    { action: 'shell.exec', payload: { command: 'npm test -- --run && echo done', cwd: 'app' } },
    { action: 'shell.exec', payload: { command: 'sudo rm -rf / --no-preserve-root' } },
  ],
  // Command lines never seen before: every rule runs (the rows above are mostly remembered).
  'shell.exec(new)': [
    (i) => ({ action: 'shell.exec', payload: { command: `git status && npm test -- --grep t${i}` } }),
    (i) => ({ action: 'shell.exec', payload: { command: `ls -la src/${i}` } }),
    (i) => ({ action: 'shell.exec', payload: { command: `kubectl get pods -n ns${i}` } }),
    (i) => ({ action: 'shell.exec', payload: { command: `curl -s https://api.example.com/v${i} | jq .` } }),
    (i) => ({
      action: 'shell.exec',
      payload: { command: `docker run --rm -v ./src:/src node:20 npm test${i}` },
    }),
  ],
  // Plain `$VAR` expansions, quotes and redirections: the linear reader, no parser.
  'shell(expand)': [
    { action: 'shell.exec', payload: { command: 'npm test 2>&1 > "$LOG_DIR/test.log"' } },
    { action: 'shell.exec', payload: { command: 'cat package.json | jq .version > /tmp/version.txt' } },
    {
      action: 'shell.exec',
      payload: { command: 'curl -sS -H "Authorization: Bearer $TOKEN" https://api.github.com/user' },
    },
  ],
  // Real structure (substitutions, loops) goes to mvdan/sh; reported, not one of the typical rows.
  'shell(struct)': [
    { action: 'shell.exec', payload: { command: 'echo "$(date) build done" >> build.log' } },
    { action: 'shell.exec', payload: { command: 'for f in *.log; do gzip "$f"; done' } },
  ],
  'fs.read': [
    { action: 'fs.read', payload: { path: 'src/index.ts' } },
    { action: 'fs.read', payload: { path: '../../../../etc/passwd' } },
  ],
  'fs.write': [{ action: 'fs.write', payload: { path: 'notes/today.md', content: '# Notes\n' } }],
  'fs.delete': [{ action: 'fs.delete', payload: { path: 'build', recursive: true } }],
  'http.request': [
    { action: 'http.request', payload: { url: 'https://api.github.com/repos/nodejs/node', method: 'GET' } },
    { action: 'http.request', payload: { url: 'http://169.254.169.254/latest/meta-data/' } },
  ],
  'email.send': [
    {
      action: 'email.send',
      payload: { to: ['ana@example.com'], subject: 'Status', body: 'The deploy finished at 10:00.' },
    },
  ],
  'agent.respond': [{ action: 'agent.respond', payload: { text: 'The build is green.' } }],
};

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

/** What receiving the payload costs at least: its JSON written and read back. */
function baseline(input: EvaluateInput): unknown {
  return JSON.parse(JSON.stringify(input));
}

function timeUs(run: () => unknown): number {
  const start = process.hrtime.bigint();
  run();
  return Number(process.hrtime.bigint() - start) / 1000;
}

const missed: string[] = [];
const tails: string[] = [];
console.log(
  `iterations per payload: ${iterations}; baseline: the same payload through JSON.stringify + JSON.parse`,
);
console.log(
  'action'.padEnd(16),
  'p50 µs'.padStart(9),
  'p99 µs'.padStart(9),
  'max µs'.padStart(9),
  'base p50'.padStart(9),
  'p50 ÷ base'.padStart(11),
);
for (const [action, inputs] of Object.entries(typical)) {
  const at = (input: Input, i: number) => (typeof input === 'function' ? input(i) : input);
  for (let i = 0; i < 200; i++) for (const input of inputs) evaluateAction(at(input, -1 - i));
  const samples: number[] = [];
  const base: number[] = [];
  for (let i = 0; i < iterations; i++) {
    for (const input of inputs) {
      const request = at(input, i);
      base.push(timeUs(() => baseline(request)));
      samples.push(timeUs(() => evaluateAction(request)));
    }
  }
  samples.sort((a, b) => a - b);
  base.sort((a, b) => a - b);
  const p50 = percentile(samples, 50);
  const p99 = percentile(samples, 99);
  const baseP50 = percentile(base, 50);
  const typicalRow = action !== 'shell(struct)';
  if (typicalRow && p50 > P50_TARGET_US) missed.push(action);
  if (typicalRow && p99 > P99_TARGET_US) tails.push(action);
  console.log(
    action.padEnd(16),
    p50.toFixed(1).padStart(9),
    p99.toFixed(1).padStart(9),
    (samples[samples.length - 1] ?? 0).toFixed(1).padStart(9),
    baseP50.toFixed(1).padStart(9),
    `${(p50 / baseP50).toFixed(1)}×`.padStart(11),
    typicalRow ? '' : '(not a typical payload: mvdan/sh parse)',
  );
}
console.log(
  missed.length === 0
    ? `typical rows: p50 ≤ ${P50_TARGET_US} µs (the target)`
    : `typical rows over the p50 target of ${P50_TARGET_US} µs: ${missed.join(', ')}`,
);
console.log(
  tails.length === 0
    ? `typical rows: p99 ≤ ${P99_TARGET_US / 1000} ms (reported, not a target of this run)`
    : `typical rows with p99 over ${P99_TARGET_US / 1000} ms (reported, not a target of this run): ${tails.join(', ')}`,
);

// --- 1 MB payloads ------------------------------------------------------------------------

const MB = 1_000_000;
const LARGE_RUNS = 5;
const LARGE_ENGINE_TARGET_MS = 100;
const LARGE_LEDGER_TARGET_MS = 1000;

/** Varied English prose of about `size` characters (seeded, so every run judges the same text). */
function prose(size: number): string {
  const words =
    'order parcel shipping support refund invoice customer team dashboard weekly number store region service database contract renewal pricing plan account manager deploy release version build pipeline weather lunch meeting'.split(
      ' ',
    );
  let seed = 42;
  const next = () => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed / 0x7fffffff;
  };
  let text = '';
  while (text.length < size) {
    const n = 5 + Math.floor(next() * 10);
    const sentence = Array.from({ length: n }, () => words[Math.floor(next() * words.length)]).join(' ');
    text += `${sentence[0]!.toUpperCase()}${sentence.slice(1)}. `;
  }
  return text.slice(0, size);
}

const text = prose(MB);
const rows = Array.from({ length: MB / 40 }, (_, i) => `(${i}, 'user${i}@example.com', 'active')`);
const large: Record<string, EvaluateInput> = {
  'shell.exec': {
    action: 'shell.exec',
    payload: { command: `printf '%s\n' '${text.replaceAll("'", '')}' > notes.txt` },
  },
  'db.query': {
    action: 'db.query',
    payload: { sql: `INSERT INTO users (id, email, status) VALUES ${rows.join(', ')}`.slice(0, MB) },
  },
  'http.request': {
    action: 'http.request',
    payload: {
      url: 'https://api.github.com/repos/nodejs/node/issues',
      method: 'POST',
      body: JSON.stringify({ title: 'Weekly notes', body: text.slice(0, MB - 60) }),
    },
  },
  'email.send': {
    action: 'email.send',
    payload: { to: ['ana@example.com'], subject: 'Weekly notes', body: text },
  },
  'agent.respond': { action: 'agent.respond', payload: { text } },
};

function timeMs(run: () => unknown): number {
  return timeUs(run) / 1000;
}

const largeMissed: string[] = [];
console.log(`\n1 MB payloads, ${LARGE_RUNS} runs each after one warm-up (engine, no ledger)`);
console.log('action'.padEnd(24), 'median ms'.padStart(10), 'max ms'.padStart(9));
for (const [action, input] of Object.entries(large)) {
  timeMs(() => evaluateAction(input));
  const runs = Array.from({ length: LARGE_RUNS }, () => timeMs(() => evaluateAction(input))).sort(
    (a, b) => a - b,
  );
  const max = runs[runs.length - 1]!;
  if (max > LARGE_ENGINE_TARGET_MS) largeMissed.push(`${action} (1 MB)`);
  console.log(action.padEnd(24), runs[LARGE_RUNS >> 1]!.toFixed(1).padStart(10), max.toFixed(1).padStart(9));
}

// The ledger's text check of agent.respond and email.send through the verdict service: a SQLite
// ledger with the hash embedder and 36 facts, one of which the text's last sentence contradicts.
const scratch = await scratchDatabase('sqlite', { prefix: 'arbiter_bench' });
const container = await createContainer(
  loadConfig({ ...scratch.env, ARBITER_EMBEDDER: 'hash' }),
  createLogger('warn'),
);
try {
  const { account, key } = await container.services.accounts.create({
    email: 'bench-large@example.com',
    name: 'bench',
  });
  const facts = [
    'The support line is closed on Sundays.',
    'Refunds are processed within 14 days.',
    ...Array.from({ length: 34 }, (_, i) => `Service ${i} runs on port ${8000 + i} in region eu-${i}.`),
  ];
  for (const claim of facts)
    await container.services.ledger.store(account.id, 'bench', { claim, source: 'bench', confidence: 1 });
  const caller = { accountId: account.id, keyId: key.id };
  const ending = ' The support line is open on Sundays.';
  // Each run says something new: the same failing call repeated is a loop (RATE_LIMIT_EXCEEDED).
  const said = (run: number) => `Run ${run}. ${text.slice(0, MB - ending.length - 12)}${ending}`;
  const withLedger: Record<string, (run: number) => EvaluateInput> = {
    'agent.respond + ledger': (run) => ({ action: 'agent.respond', payload: { text: said(run) } }),
    'email.send + ledger': (run) => ({
      action: 'email.send',
      payload: { to: 'ana@example.com', subject: 'Notes', body: said(run) },
    }),
  };
  for (const [name, input] of Object.entries(withLedger)) {
    let run = 0;
    const once = async () => {
      const body = input(run++);
      const start = performance.now();
      const result = await container.services.verdicts.evaluate(caller, body, undefined);
      if (result.verdict.error?.code !== 'CONFLICT_DETECTED')
        throw new Error(`${name}: expected CONFLICT_DETECTED, got ${result.verdict.error?.code ?? 'safe'}`);
      return performance.now() - start;
    };
    await once();
    const runs: number[] = [];
    for (let i = 0; i < LARGE_RUNS; i++) runs.push(await once());
    runs.sort((a, b) => a - b);
    const max = runs[runs.length - 1]!;
    if (max > LARGE_LEDGER_TARGET_MS) largeMissed.push(name);
    console.log(
      name.padEnd(24),
      runs[LARGE_RUNS >> 1]!.toFixed(1).padStart(10),
      max.toFixed(1).padStart(9),
      '(verdict service, SQLite ledger, hash embedder, 36 facts)',
    );
  }
} finally {
  await container.close();
  await scratch.drop();
}
console.log(
  largeMissed.length === 0
    ? `1 MB rows: engine ≤ ${LARGE_ENGINE_TARGET_MS} ms, with the ledger ≤ ${LARGE_LEDGER_TARGET_MS} ms (reported, not a target of this run)`
    : `1 MB rows over ${LARGE_ENGINE_TARGET_MS} ms / ${LARGE_LEDGER_TARGET_MS} ms (reported, not a target of this run): ${largeMissed.join(', ')}`,
);
process.exitCode = missed.length === 0 ? 0 : 1;
