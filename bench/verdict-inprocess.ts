// In-process latency of the verdict engine per built-in action, for typical payloads.
// Usage: npx tsx bench/verdict-inprocess.ts [iterations per payload]
// Targets for the typical rows (all but shell(struct)): p50 ≤ 50 µs, p99 ≤ 1 ms.
import { type EvaluateInput, evaluateAction } from '../src/domains/verdict/engine.ts';

const iterations = Number(process.argv[2] ?? 2000);

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

const missed: string[] = [];
console.log(`iterations per payload: ${iterations}`);
console.log('action'.padEnd(14), 'p50 µs'.padStart(9), 'p99 µs'.padStart(9), 'max µs'.padStart(9));
for (const [action, inputs] of Object.entries(typical)) {
  const at = (input: Input, i: number) => (typeof input === 'function' ? input(i) : input);
  for (let i = 0; i < 200; i++) for (const input of inputs) evaluateAction(at(input, -1 - i));
  const samples: number[] = [];
  for (let i = 0; i < iterations; i++) {
    for (const input of inputs) {
      const request = at(input, i);
      const start = process.hrtime.bigint();
      evaluateAction(request);
      samples.push(Number(process.hrtime.bigint() - start) / 1000);
    }
  }
  samples.sort((a, b) => a - b);
  const p50 = percentile(samples, 50);
  const p99 = percentile(samples, 99);
  const typicalRow = action !== 'shell(struct)';
  if (typicalRow && (p50 > 50 || p99 > 1000)) missed.push(action);
  console.log(
    action.padEnd(14),
    p50.toFixed(1).padStart(9),
    p99.toFixed(1).padStart(9),
    (samples[samples.length - 1] ?? 0).toFixed(1).padStart(9),
    typicalRow ? '' : '(not a typical payload: mvdan/sh parse)',
  );
}
console.log(
  missed.length === 0 ? 'typical rows: within p50 ≤ 50 µs, p99 ≤ 1 ms' : `over target: ${missed.join(', ')}`,
);
process.exitCode = missed.length === 0 ? 0 : 1;
