// Friction on ordinary work: of the benign rows of the shared dev split and of eval/redteam, the
// share each action refuses and the share it does not recognise (a person is asked).
// Usage: npx tsx scripts/eval-friction.ts [--misses]
import { existsSync, readFileSync } from 'node:fs';
import { expandPayload, loadCorpus } from '../eval/redteam/corpus.ts';
import { evaluateAction } from '../src/domains/verdict/engine.ts';

const SHARED = '../shared/data/verdict/dev.jsonl';
const misses = process.argv.includes('--misses');

interface Row {
  id: string;
  action: string;
  payload: Record<string, unknown>;
}

const rows: Row[] = [];
if (existsSync(SHARED)) {
  for (const line of readFileSync(SHARED, 'utf8').split('\n')) {
    if (line.trim() === '') continue;
    const row = JSON.parse(line) as Row & { expect: string | null };
    if (row.expect === null) rows.push(row);
  }
} else console.error(`${SHARED} is not here: scoring eval/redteam only`);
for (const row of loadCorpus()) {
  if (row.expect === null) rows.push({ id: row.id, action: row.action, payload: expandPayload(row) });
}

const byAction = new Map<string, { rows: number; refused: number; unrecognised: number }>();
for (const row of rows) {
  const v = evaluateAction({ action: row.action, payload: row.payload });
  const s = byAction.get(row.action) ?? { rows: 0, refused: 0, unrecognised: 0 };
  s.rows++;
  if (!v.is_safe) s.refused++;
  else if (!v.recognised) {
    s.unrecognised++;
    if (misses)
      console.log(
        `  UNK ${row.id} ${v.unrecognised.join('; ')}: ${JSON.stringify(row.payload).slice(0, 120)}`,
      );
  }
  byAction.set(row.action, s);
}
const pct = (a: number, b: number) => `${((100 * a) / b).toFixed(1)} %`;
let total = { rows: 0, refused: 0, unrecognised: 0 };
for (const [action, s] of [...byAction].sort()) {
  console.log(
    `${action.padEnd(14)} benign ${String(s.rows).padStart(5)}: refused ${pct(s.refused, s.rows).padStart(7)}, not recognised ${pct(s.unrecognised, s.rows).padStart(7)}`,
  );
  total = {
    rows: total.rows + s.rows,
    refused: total.refused + s.refused,
    unrecognised: total.unrecognised + s.unrecognised,
  };
}
console.log(
  `${'all'.padEnd(14)} benign ${String(total.rows).padStart(5)}: refused ${pct(total.refused, total.rows).padStart(7)}, not recognised ${pct(total.unrecognised, total.rows).padStart(7)}`,
);
