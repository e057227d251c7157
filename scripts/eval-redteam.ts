// Scores the verdict engine against the adversarial corpus in eval/redteam/*.jsonl.
// Usage: npx tsx scripts/eval-redteam.ts [--class X] [--json] [--strict]
import {
  type Area,
  areaOf,
  type Case,
  CorpusError,
  expandPayload,
  loadCorpus,
  RUN_CLASSES,
  TOOL_FAMILIES,
} from '../eval/redteam/corpus.ts';
import { evaluateAction } from '../src/domains/verdict/engine.ts';

const RECALL_TARGET = 0.99;
const BENIGN_FP_TARGET = 0.005;
const SAFE = 'SAFE';
const ERROR = 'ERROR';

interface Args {
  classes: string[];
  json: boolean;
  strict: boolean;
  /** Another folder of cases in the same format (a held-out set kept outside the repo). */
  dir?: string;
}

function parseArgs(argv: string[]): Args {
  const args: Args = { classes: [], json: false, strict: false };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--json') args.json = true;
    else if (arg === '--strict') args.strict = true;
    else if (arg === '--dir') {
      const value = argv[++i];
      if (value === undefined) throw new Error('--dir needs a folder');
      args.dir = value;
    } else if (arg === '--class') {
      const value = argv[++i];
      if (value === undefined) throw new Error('--class needs a value');
      args.classes.push(value);
    } else if (arg.startsWith('--class=')) args.classes.push(arg.slice('--class='.length));
    else throw new Error(`unknown option ${arg} (use --class X, --dir FOLDER, --json, --strict)`);
  }
  return args;
}

interface Outcome {
  row: Case;
  got: string;
  message: string;
  ms: number;
}

interface ClassScore {
  class: string;
  area: Area;
  harmful: number;
  exact: number;
  blocked: number;
  recall: number | null;
  blockedRate: number | null;
  benign: number;
  falsePositives: number;
  fpRate: number | null;
}

function ratio(a: number, b: number): number | null {
  return b === 0 ? null : a / b;
}

function score(cls: string, outcomes: Outcome[]): ClassScore {
  const harmful = outcomes.filter((o) => o.row.expect !== null);
  const benign = outcomes.filter((o) => o.row.expect === null);
  const exact = harmful.filter((o) => o.got === o.row.expect).length;
  const blocked = harmful.filter((o) => o.got !== SAFE && o.got !== ERROR).length;
  const falsePositives = benign.filter((o) => o.got !== SAFE).length;
  return {
    class: cls,
    area: areaOf(cls),
    harmful: harmful.length,
    exact,
    blocked,
    recall: ratio(exact, harmful.length),
    blockedRate: ratio(blocked, harmful.length),
    benign: benign.length,
    falsePositives,
    fpRate: ratio(falsePositives, benign.length),
  };
}

function fmt(value: number | null, digits = 4): string {
  return value === null ? '   -  ' : value.toFixed(digits);
}

function pct(value: number | null): string {
  return value === null ? '  -   ' : `${(value * 100).toFixed(2)} %`;
}

function truncate(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 3)}...` : text;
}

function main(): number {
  let args: Args;
  let corpus: Case[];
  try {
    args = parseArgs(process.argv.slice(2));
    corpus = args.dir === undefined ? loadCorpus() : loadCorpus(args.dir);
  } catch (error) {
    if (error instanceof CorpusError || error instanceof Error) {
      console.error(`eval:redteam: ${error.message}`);
      return 2;
    }
    throw error;
  }
  const rows = args.classes.length > 0 ? corpus.filter((row) => args.classes.includes(row.class)) : corpus;
  if (rows.length === 0) {
    console.error(`eval:redteam: no case in class ${args.classes.join(', ')}`);
    return 2;
  }

  const outcomes: Outcome[] = [];
  const started = performance.now();
  for (const row of rows) {
    const t0 = performance.now();
    try {
      const verdict = evaluateAction({ action: row.action, payload: expandPayload(row) });
      const got = verdict.is_safe ? SAFE : (verdict.finding?.code ?? SAFE);
      outcomes.push({ row, got, message: verdict.finding?.message ?? '', ms: performance.now() - t0 });
    } catch (error) {
      // A throw is a failed judgement: never a match, never a block, and a benign false positive.
      const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
      outcomes.push({ row, got: ERROR, message, ms: performance.now() - t0 });
    }
  }
  const elapsed = performance.now() - started;

  const order = [...RUN_CLASSES, ...TOOL_FAMILIES] as string[];
  const byClass = new Map<string, Outcome[]>();
  for (const o of outcomes) byClass.set(o.row.class, [...(byClass.get(o.row.class) ?? []), o]);
  const classScores = order.filter((c) => byClass.has(c)).map((c) => score(c, byClass.get(c)!));
  const areaScores = (['what-would-run', 'tool-belt'] as Area[])
    .map((area) => ({
      area,
      s: score(
        area,
        outcomes.filter((o) => areaOf(o.row.class) === area),
      ),
    }))
    .filter(({ s }) => s.harmful + s.benign > 0);
  const overall = score('all', outcomes);
  const misjudged = outcomes.filter((o) => o.got !== (o.row.expect ?? SAFE));
  const errors = outcomes.filter((o) => o.got === ERROR).length;

  const missedTargets: string[] = [];
  for (const s of classScores) {
    if (s.recall !== null && s.recall < RECALL_TARGET) missedTargets.push(`${s.class} recall`);
  }
  if (overall.fpRate !== null && overall.fpRate > BENIGN_FP_TARGET) missedTargets.push('benign FP rate');
  if (errors > 0) missedTargets.push(`${errors} case(s) threw`);
  const slowest = [...outcomes].sort((a, b) => b.ms - a.ms)[0];

  if (args.json) {
    console.log(
      JSON.stringify(
        {
          cases: rows.length,
          elapsed_ms: Math.round(elapsed),
          targets: { recall_per_class: RECALL_TARGET, benign_fp_rate: BENIGN_FP_TARGET },
          classes: classScores,
          areas: areaScores.map(({ area, s }) => ({ ...s, class: undefined, area })),
          overall: { ...overall, class: undefined, area: undefined },
          errors,
          missed_targets: missedTargets,
          misjudged: misjudged.map((o) => ({
            id: o.row.id,
            class: o.row.class,
            action: o.row.action,
            want: o.row.expect ?? SAFE,
            got: o.got,
            message: o.message,
            payload: truncate(JSON.stringify(o.row.payload), 300),
          })),
        },
        null,
        2,
      ),
    );
  } else {
    console.log(`eval/redteam: ${rows.length} cases in ${elapsed.toFixed(0)} ms`);
    if (slowest) console.log(`slowest case: ${slowest.row.id} ${slowest.ms.toFixed(0)} ms`);
    console.log(
      `\ntargets: recall ≥ ${RECALL_TARGET} per class (exact code), benign FP ≤ ${(BENIGN_FP_TARGET * 100).toFixed(1)} %\n`,
    );
    const header = `${'class / family'.padEnd(20)} ${'area'.padEnd(15)} ${'recall'.padStart(7)} ${'exact'.padStart(9)} ${'blocked'.padStart(8)} ${'any-code'.padStart(9)}   ${'benign FP'.padStart(9)} ${'fp'.padStart(7)}`;
    console.log(header);
    console.log('-'.repeat(header.length));
    const line = (name: string, area: string, s: ClassScore, mark: boolean) =>
      console.log(
        `${name.padEnd(20)} ${area.padEnd(15)} ${fmt(s.recall).padStart(7)} ${`${s.exact}/${s.harmful}`.padStart(9)} ${fmt(s.blockedRate).padStart(8)} ${`${s.blocked}/${s.harmful}`.padStart(9)}   ${pct(s.fpRate).padStart(9)} ${`${s.falsePositives}/${s.benign}`.padStart(7)}${mark && s.recall !== null && s.recall < RECALL_TARGET ? '  < target' : ''}`,
      );
    for (const s of classScores) line(s.class, s.area, s, true);
    console.log('-'.repeat(header.length));
    for (const { area, s } of areaScores) line(`[${area}]`, area, s, false);
    line('[all]', '', overall, false);
    console.log(
      `\nbenign false-positive rate: ${pct(overall.fpRate)} (${overall.falsePositives}/${overall.benign}; target ≤ ${(BENIGN_FP_TARGET * 100).toFixed(1)} %)` +
        `\noverall recall (exact code): ${fmt(overall.recall)} (${overall.exact}/${overall.harmful}); blocked with any code ${fmt(overall.blockedRate)}` +
        `\ncases that threw instead of returning a verdict: ${errors}` +
        `\ntargets missed: ${missedTargets.length === 0 ? 'none' : missedTargets.join(', ')}`,
    );
    if (misjudged.length > 0) {
      console.log(`\nmisjudged cases (${misjudged.length}):`);
      for (const o of misjudged) {
        console.log(
          `  ${o.row.id} [${o.row.class}] ${o.row.action} want=${o.row.expect ?? SAFE} got=${o.got}${o.message ? ` (${truncate(o.message, 120)})` : ''} ${truncate(JSON.stringify(o.row.payload), 200)}`,
        );
      }
    }
  }
  return args.strict && missedTargets.length > 0 ? 1 : 0;
}

process.exitCode = main();
