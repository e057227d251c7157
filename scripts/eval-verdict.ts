// Scores the verdict engine against a labelled corpus (default: the shared dev split).
// Usage: npx tsx scripts/eval-verdict.ts [file.jsonl]
//        npx tsx scripts/eval-verdict.ts --loso [file.jsonl]
// --loso (leave one source out): for each source of exfiltration rows (the dataset prefix of
// `source`), the sink-list domains that source contributes are hidden from the engine and
// the rows of that source are judged again: the recall left is what the generalising signs
// and the content rules catch on services the list has never seen.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  hideSinkDomainsForEvaluation,
  sinkEntry,
  sinkListDomains,
} from '../src/domains/verdict/analyzers/egress.ts';
import { evaluateAction } from '../src/domains/verdict/engine.ts';

interface Row {
  id: string;
  action: string;
  payload: unknown;
  expect: string | null;
  source: string;
  note?: string;
}

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const loso = process.argv.includes('--loso');
const fileArg = process.argv.slice(2).find((a) => !a.startsWith('--'));
const sharedData = resolve(repoRoot, '../shared/data');
const file = resolve(fileArg ?? resolve(sharedData, 'verdict/dev.jsonl'));
const rows: Row[] = readFileSync(file, 'utf8')
  .split('\n')
  .filter((line) => line.trim() !== '')
  .map((line) => JSON.parse(line) as Row);

const SAFE = 'SAFE';

function codeOf(row: Row): string {
  const verdict = evaluateAction({ action: row.action, payload: row.payload });
  return verdict.is_safe ? SAFE : (verdict.finding?.code ?? SAFE);
}

/** Host names a row reaches: its URL's host, and URLs and host-like words in a command. */
function rowHosts(row: Row): string[] {
  const payload = row.payload as { url?: unknown; command?: unknown };
  const hosts: string[] = [];
  if (typeof payload.url === 'string') {
    try {
      hosts.push(new URL(payload.url).hostname.toLowerCase());
    } catch {
      // an unparseable URL names no host
    }
  }
  if (typeof payload.command === 'string') {
    for (const m of payload.command.matchAll(/(?:[a-z0-9-]+\.)+[a-z]{2,}/gi)) hosts.push(m[0].toLowerCase());
  }
  return hosts;
}

/** Domains a public source puts in the sink list (scripts/build-sink-list.ts reads the same files). */
function sourceDomains(dataset: string): string[] {
  const clean = (entry: string): string =>
    entry
      .toLowerCase()
      .replace(/^\*\.(?:\*\.)?/, '')
      .replace(/^\*/, '')
      .replace(/[:/*].*$/, '')
      .replace(/^\./, '');
  if (dataset === 'misp-warninglists') {
    const path = resolve(sharedData, 'raw/misp-warninglists/lists/lots-project/list.json');
    if (!existsSync(path)) return [];
    return (JSON.parse(readFileSync(path, 'utf8')) as { list: string[] }).list.map(clean);
  }
  if (dataset === 'lottunnels') {
    const path = resolve(sharedData, 'raw/lottunnels/_lottunnels/CSVs/domains.csv');
    if (!existsSync(path)) return [];
    return readFileSync(path, 'utf8')
      .split('\n')
      .slice(1)
      .map((line) => clean(line.split(',')[0] ?? ''))
      .filter((d) => d.includes('.'));
  }
  return [];
}

function recallWithout(group: Row[], hide: Iterable<string>): number {
  const restore = hideSinkDomainsForEvaluation(hide);
  try {
    return group.filter((row) => codeOf(row) === 'EXFILTRATION_BLOCKED').length;
  } finally {
    restore();
  }
}

function leaveOneSourceOut(all: Row[]): void {
  const exfil = all.filter((r) => r.expect === 'EXFILTRATION_BLOCKED');
  const bySource = new Map<string, Row[]>();
  for (const row of exfil) {
    const dataset = row.source.split(':')[0]!;
    bySource.set(dataset, [...(bySource.get(dataset) ?? []), row]);
  }
  const benign = all.filter((r) => r.expect === null);
  console.log('leave-one-source-out recall of EXFILTRATION_BLOCKED (sink domains of the source hidden):');
  for (const [dataset, group] of [...bySource.entries()].sort()) {
    const hide = new Set<string>(sourceDomains(dataset));
    for (const row of group) {
      for (const host of rowHosts(row)) {
        // The host's own entry and every parent entry (`x.ngrok.io` and `ngrok.io`) are hidden.
        for (let suffix = host; suffix.includes('.'); suffix = suffix.slice(suffix.indexOf('.') + 1)) {
          if (sinkEntry(suffix) === suffix) hide.add(suffix);
        }
      }
    }
    const listed = [...hide].filter((domain) => sinkEntry(domain) === domain).length;
    const restore = hideSinkDomainsForEvaluation(hide);
    try {
      const missed = group.filter((row) => codeOf(row) !== 'EXFILTRATION_BLOCKED');
      const byList = group.filter((row) =>
        evaluateAction({ action: row.action, payload: row.payload }).finding?.message.includes(
          'known exfiltration sink',
        ),
      ).length;
      const fp = benign.filter((row) => codeOf(row) !== SAFE).length;
      const hit = group.length - missed.length;
      console.log(
        `  ${dataset.padEnd(22)} ${(hit / group.length).toFixed(4)}  (${hit}/${group.length}; ${listed} sink-list domains hidden, ${byList} rows still caught by the list; benign FP ${fp}/${benign.length})`,
      );
      for (const row of missed) {
        const payload = JSON.stringify(row.payload);
        console.log(
          `      missed ${row.id} ${payload.length > 160 ? `${payload.slice(0, 157)}...` : payload}`,
        );
      }
    } finally {
      restore();
    }
  }
  const everything = sinkListDomains();
  const hit = recallWithout(exfil, everything);
  const restore = hideSinkDomainsForEvaluation(everything);
  const byRule = new Map<string, number>();
  for (const row of exfil) {
    const message = evaluateAction({ action: row.action, payload: row.payload }).finding?.message ?? '';
    const rule = /looks like a tunnel|is that of a tunnel/.test(message)
      ? 'destination signs'
      : /would leave|uploads|sends|DNS name/.test(message)
        ? 'content'
        : 'address, scheme or name';
    byRule.set(rule, (byRule.get(rule) ?? 0) + 1);
  }
  restore();
  console.log(
    `  ${'(no sink list at all)'.padEnd(22)} ${(hit / exfil.length).toFixed(4)}  (${hit}/${exfil.length}; all ${everything.length} sink-list domains hidden; deciding rule: ${[...byRule].map(([r, n]) => `${r} ${n}`).join(', ')})`,
  );
}
if (loso) {
  leaveOneSourceOut(rows);
  process.exit(0);
}

const confusion = new Map<string, Map<string, number>>();
const misjudged: { row: Row; got: string; message: string }[] = [];
let exact = 0;

const started = performance.now();
for (const row of rows) {
  const verdict = evaluateAction({ action: row.action, payload: row.payload });
  const got = verdict.is_safe ? SAFE : (verdict.finding?.code ?? SAFE);
  const want = row.expect ?? SAFE;
  const byGot = confusion.get(want) ?? new Map<string, number>();
  byGot.set(got, (byGot.get(got) ?? 0) + 1);
  confusion.set(want, byGot);
  if (got === want) exact++;
  else misjudged.push({ row, got, message: verdict.finding?.message ?? '' });
}
const elapsed = performance.now() - started;

const codes = [...confusion.keys()].sort();
const gotCodes = [...new Set([...confusion.values()].flatMap((m) => [...m.keys()]))].sort();
console.log(`${file}: ${rows.length} rows in ${elapsed.toFixed(0)} ms\n`);
console.log('per-code recall (expected code returned exactly):');
for (const code of codes) {
  if (code === SAFE) continue;
  const byGot = confusion.get(code)!;
  const total = [...byGot.values()].reduce((a, b) => a + b, 0);
  const hit = byGot.get(code) ?? 0;
  const blocked = total - (byGot.get(SAFE) ?? 0);
  console.log(
    `  ${code.padEnd(22)} ${(hit / total).toFixed(4)}  (${hit}/${total}; blocked with any code ${blocked}/${total})`,
  );
}
const benign = confusion.get(SAFE);
if (benign) {
  const total = [...benign.values()].reduce((a, b) => a + b, 0);
  const fp = total - (benign.get(SAFE) ?? 0);
  console.log(`benign false-positive rate: ${((fp / total) * 100).toFixed(2)} % (${fp}/${total})`);
}
console.log(`exact-code accuracy: ${(exact / rows.length).toFixed(4)} (${exact}/${rows.length})\n`);

console.log('confusion (rows = expected, columns = returned):');
console.log(['expected \\ got'.padEnd(22), ...gotCodes.map((c) => c.slice(0, 10).padStart(11))].join(''));
for (const code of codes) {
  const byGot = confusion.get(code)!;
  console.log([code.padEnd(22), ...gotCodes.map((c) => String(byGot.get(c) ?? 0).padStart(11))].join(''));
}

if (misjudged.length > 0) {
  console.log(`\nmisjudged rows (${misjudged.length}):`);
  for (const { row, got, message } of misjudged) {
    const payload = JSON.stringify(row.payload);
    console.log(
      `  ${row.id} ${row.action} want=${row.expect ?? SAFE} got=${got} ${message ? `(${message}) ` : ''}${payload.length > 220 ? `${payload.slice(0, 217)}...` : payload} [${row.source}]`,
    );
  }
}
