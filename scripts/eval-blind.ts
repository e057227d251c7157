// Scores the verdict engine on the blind batches in eval/blind/*.jsonl (written by people who
// never read the rules), one line per batch: harmful calls caught (refused, or not recognised),
// exact codes, benign calls refused and benign calls not recognised. The first score of each batch, taken before any fix, is kept in eval/blind/README.md.
// A row's `context` (or its `workspace`, as the agent-call batches record it) is sent as the
// request's context, as an integration would send it.
// Usage: npx tsx scripts/eval-blind.ts [--dir FOLDER] [--misses] [--json]
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { type AgentContext, readAgentContext } from '../src/domains/verdict/agent-context.ts';
import { evaluateAction } from '../src/domains/verdict/engine.ts';

interface Row {
  id: string;
  class: string;
  action: string;
  payload: unknown;
  expect: string | null;
  why?: string;
  context?: unknown;
  workspace?: string | null;
}

function contextOf(row: Row): AgentContext | undefined {
  const raw = row.context ?? (typeof row.workspace === 'string' ? { workspace: row.workspace } : undefined);
  if (raw === undefined) return undefined;
  const checked = readAgentContext(raw);
  if (!checked.ok) throw new Error(`${row.id}: ${checked.message}`);
  return checked.value;
}

interface Args {
  dir: string;
  misses: boolean;
  json: boolean;
}

function parseArgs(argv: string[]): Args {
  const args: Args = { dir: 'eval/blind', misses: false, json: false };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--misses') args.misses = true;
    else if (arg === '--json') args.json = true;
    else if (arg === '--dir') args.dir = argv[++i] ?? args.dir;
    else throw new Error(`unknown option ${arg} (use --dir FOLDER, --misses, --json)`);
  }
  return args;
}

function load(file: string): Row[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .map((line, i) => ({ line: line.trim(), n: i + 1 }))
    .filter(({ line }) => line !== '')
    .map(({ line, n }) => {
      try {
        return JSON.parse(line) as Row;
      } catch (err) {
        throw new Error(`${file}:${n}: ${(err as Error).message}`);
      }
    });
}

const pct = (a: number, b: number) => (b === 0 ? '–' : `${((100 * a) / b).toFixed(1)} %`);

const args = parseArgs(process.argv.slice(2));
const files = readdirSync(args.dir)
  .filter((f) => f.endsWith('.jsonl'))
  .sort();
const report: Array<Record<string, unknown>> = [];
const total = { harmful: 0, caught: 0, exact: 0, benign: 0, refused: 0, unrecognised: 0 };
for (const file of files) {
  const rows = load(path.join(args.dir, file));
  const s = { harmful: 0, caught: 0, exact: 0, benign: 0, refused: 0, unrecognised: 0 };
  const misses: string[] = [];
  for (const row of rows) {
    const verdict = evaluateAction({ action: row.action, payload: row.payload, context: contextOf(row) });
    const got = verdict.is_safe ? null : (verdict.finding?.code ?? 'UNKNOWN');
    if (row.expect === null) {
      s.benign++;
      if (got !== null) {
        s.refused++;
        misses.push(`  FP   ${row.id} got ${got}: ${JSON.stringify(row.payload).slice(0, 160)}`);
      } else if (!verdict.recognised) {
        s.unrecognised++;
        misses.push(
          `  UNK  ${row.id} ${verdict.unrecognised.join('; ')}: ${JSON.stringify(row.payload).slice(0, 120)}`,
        );
      }
    } else {
      s.harmful++;
      if (got !== null || !verdict.recognised) s.caught++;
      if (got === row.expect) s.exact++;
      if (got === null && verdict.recognised)
        misses.push(`  MISS ${row.id} want ${row.expect}: ${JSON.stringify(row.payload).slice(0, 160)}`);
    }
  }
  for (const k of Object.keys(total) as Array<keyof typeof total>) total[k] += s[k];
  report.push({ file, ...s });
  if (!args.json) {
    console.log(
      `${file.padEnd(30)} harmful ${String(s.harmful).padStart(3)}: caught ${pct(s.caught, s.harmful).padStart(7)}, exact ${pct(s.exact, s.harmful).padStart(7)} | benign ${String(s.benign).padStart(3)}: refused ${pct(s.refused, s.benign).padStart(7)}, unrecognised ${pct(s.unrecognised, s.benign).padStart(7)}`,
    );
    if (args.misses) for (const m of misses) console.log(m);
  }
}
if (args.json) console.log(JSON.stringify({ batches: report, total }, null, 2));
else {
  console.log(
    `${'all'.padEnd(30)} harmful ${String(total.harmful).padStart(3)}: caught ${pct(total.caught, total.harmful).padStart(7)}, exact ${pct(total.exact, total.harmful).padStart(7)} | benign ${String(total.benign).padStart(3)}: refused ${pct(total.refused, total.benign).padStart(7)}, unrecognised ${pct(total.unrecognised, total.benign).padStart(7)}`,
  );
}
