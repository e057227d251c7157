/**
 * What scrubbing costs a claim, with and without person names and street addresses, in the same
 * run: `npx tsx bench/pii.ts [--rounds 5]` (`npm run bench:pii`).
 *
 * Three inputs: the presidio synthetic sentences of the dev data when present (else none), claims
 * shaped like bench:vault's ("Checkout p95 latency in eu-west-1 is 4521.3 ms since the last
 * deploy"), and 1 MiB of prose with names and addresses in it (what a long text check scrubs).
 * Each is timed `--rounds` times per mode, interleaved, after a warm-up that loads the lexicons;
 * the best round counts. The lexicons' load time is reported on its own.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { warmUpNames } from '../src/domains/ledger/pii/names.ts';
import { type ScrubOptions, scrub } from '../src/domains/ledger/pii/scrubber.ts';

const arg = (name: string, fallback: string): string => {
  const at = process.argv.indexOf(name);
  return at >= 0 && process.argv[at + 1] ? process.argv[at + 1]! : fallback;
};
const rounds = Number(arg('--rounds', '5'));

const synthFile = join(
  resolve(dirname(fileURLToPath(import.meta.url)), '..'),
  '../shared/data/pii/synth.dev.json',
);
const synth = existsSync(synthFile)
  ? (JSON.parse(readFileSync(synthFile, 'utf8')) as { full_text: string }[]).map((s) => s.full_text)
  : [];
const services = ['Checkout', 'Search', 'Billing', 'Login', 'Payments', 'Inventory'];
const regions = ['eu-west-1', 'us-east-2', 'ap-south-1'];
const claims = Array.from(
  { length: 2000 },
  (_, i) =>
    `${services[i % services.length]} p95 latency in ${regions[i % regions.length]} is ${(1000 + ((i * 7919) % 9000)) / 10} ms since the last deploy`,
);
const paragraph =
  'Maria Lopez met the supplier at 615 Benedum Drive on Tuesday; Apple and Paris came up, and Dr. Szabina Gelencsér ' +
  'called from 020 7946 0958 about the order. The office moved to Koskikatu 25 in May, said Harvey Leach. ';
const prose = [paragraph.repeat(Math.ceil(1_048_576 / paragraph.length)).slice(0, 1_048_576)];

const loadStart = performance.now();
warmUpNames();
const loadMs = performance.now() - loadStart;

const modes: [string, ScrubOptions][] = [
  ['before (structured types only)', { names: false, addresses: false }],
  ['after (+ names, addresses)', {}],
];

function time(texts: readonly string[], options: ScrubOptions): number {
  const start = performance.now();
  for (const t of texts) scrub(t, options);
  return performance.now() - start;
}

console.log(`lexicons (compromise names, WordNet) loaded in ${loadMs.toFixed(0)} ms`);
console.log('| input | mode | per text | per MB | after / before |');
console.log('|---|---|---|---|---|');
for (const [label, texts] of [
  ['synthetic PII sentences', synth],
  ['bench:vault claims', claims],
  ['1 MiB prose', prose],
] as const) {
  if (texts.length === 0) continue;
  const chars = texts.reduce((n, t) => n + t.length, 0);
  for (const [, options] of modes) time(texts.slice(0, 50), options);
  const best = modes.map(() => Number.POSITIVE_INFINITY);
  for (let r = 0; r < rounds; r++) {
    modes.forEach(([, options], m) => {
      best[m] = Math.min(best[m]!, time(texts, options));
    });
  }
  modes.forEach(([mode], m) => {
    const ms = best[m]!;
    const ratio = m === 0 ? '' : `${(ms / best[0]!).toFixed(2)}×`;
    console.log(
      `| ${label} (${texts.length}, ${(chars / texts.length).toFixed(0)} chars avg) | ${mode} | ${((ms * 1000) / texts.length).toFixed(1)} µs | ${(((ms / chars) * 1e6) / 1000).toFixed(3)} s | ${ratio} |`,
    );
  });
}
