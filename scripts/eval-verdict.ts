// Scores the verdict engine against a labelled corpus (default: the shared dev split).
// Usage: npx tsx scripts/eval-verdict.ts [file.jsonl]
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
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
const file = resolve(process.argv[2] ?? resolve(repoRoot, '../shared/data/verdict/dev.jsonl'));
const rows: Row[] = readFileSync(file, 'utf8')
  .split('\n')
  .filter((line) => line.trim() !== '')
  .map((line) => JSON.parse(line) as Row);

const SAFE = 'SAFE';
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
