/**
 * `npm run bench:verdict`: the in-process half, then the HTTP half, each in its own process and
 * each run whatever the other found, so that one missed target never hides the other's figures.
 * Exits non-zero when either half missed its own target (docs/benchmarks.md#verdicts).
 * Usage: npm run bench:verdict [-- --iterations 2000 --seconds 5 --rounds 3 --connections 50 --fresh-sql true]
 */
import { spawnSync } from 'node:child_process';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: {
    iterations: { type: 'string' },
    seconds: { type: 'string' },
    rounds: { type: 'string' },
    connections: { type: 'string' },
    'fresh-sql': { type: 'string' },
  },
});
const forward = (names: readonly (keyof typeof values)[]) =>
  names.flatMap((name) => (values[name] === undefined ? [] : [`--${name}`, values[name]!]));

function half(script: string, args: readonly string[]): number {
  const run = spawnSync(process.execPath, [...process.execArgv, script, ...args], { stdio: 'inherit' });
  return run.status ?? 1;
}

const inProcess = half('bench/verdict-inprocess.ts', forward(['iterations']));
console.log('');
const http = half('bench/verdict-http.ts', forward(['seconds', 'rounds', 'connections', 'fresh-sql']));
console.log(
  `\nbench:verdict: in process ${inProcess === 0 ? 'within target' : 'missed its target'}, HTTP ${http === 0 ? 'within target' : 'missed its target'}`,
);
process.exitCode = inProcess === 0 && http === 0 ? 0 : 1;
