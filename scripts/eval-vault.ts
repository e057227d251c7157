/**
 * Evaluates the claim ledger's pure core on the development data:
 *   npx tsx scripts/eval-vault.ts [--data DIR] [--embedder local|hash] [--only retrieval,conflicts,pii] [--errors]
 * DIR defaults to ../shared/data relative to the repository root. Prints (a) retrieval recall@1/@3
 * and abstention on unrelated queries, (b) contradiction precision/recall per corpus, (c) PII
 * recall/precision per type on the presidio-research synthetic sentences and the presidio tests.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { detectConflict } from '../src/domains/ledger/conflicts.ts';
import { cosine, type Embedder } from '../src/domains/ledger/embeddings/embedder.ts';
import { createEmbedder } from '../src/domains/ledger/embeddings/factory.ts';
import { detectPii, type PiiType } from '../src/domains/ledger/pii/scrubber.ts';
import { relevanceFloorFor } from '../src/domains/ledger/search/hybrid.ts';
import { InMemoryHybridIndex } from '../src/domains/ledger/search/memory-index.ts';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const arg = (name: string, fallback: string): string => {
  const at = process.argv.indexOf(name);
  return at >= 0 && process.argv[at + 1] ? process.argv[at + 1]! : fallback;
};
const dataDir = resolve(arg('--data', join(repoRoot, '../shared/data')));
const embedderKind = arg('--embedder', 'local');
const only = new Set(arg('--only', 'retrieval,conflicts,pii').split(','));
const showErrors = process.argv.includes('--errors');
if (embedderKind !== 'local' && embedderKind !== 'hash') throw new Error('--embedder must be local or hash');

const pct = (x: number): string => `${(100 * x).toFixed(1)} %`;
const ratio = (a: number, b: number): number => (b === 0 ? Number.NaN : a / b);

async function evalRetrieval(embedder: Embedder): Promise<void> {
  interface RetrievalData {
    claims: { id: string; text: string }[];
    queries: { text: string; relevant_id: string }[];
    unrelated_queries: { text: string }[];
  }
  const data = JSON.parse(readFileSync(join(dataDir, 'vault/retrieval.dev.json'), 'utf8')) as RetrievalData;
  const floor = relevanceFloorFor(embedder.id);
  const index = new InMemoryHybridIndex(embedder, floor);
  const started = performance.now();
  await index.addAll(data.claims.map((c) => ({ ...c, confidence: 1 })));
  const queryVectors = await embedder.embed(data.queries.map((q) => q.text));
  const unrelatedVectors = await embedder.embed(data.unrelated_queries.map((q) => q.text));
  const embedSeconds = (performance.now() - started) / 1000;
  let at1 = 0;
  let at3 = 0;
  let empty = 0;
  data.queries.forEach((q, i) => {
    const hits = index.searchWithVector(q.text, queryVectors[i]!, 3);
    const rank = hits.findIndex((h) => h.id === q.relevant_id);
    if (rank === 0) at1++;
    if (rank >= 0) at3++;
    if (hits.length === 0) empty++;
    if (showErrors && rank < 0) console.log(`  miss: ${q.text}`);
  });
  let abstained = 0;
  data.unrelated_queries.forEach((q, i) => {
    const hits = index.searchWithVector(q.text, unrelatedVectors[i]!, 3);
    if (hits.length === 0) abstained++;
    else if (showErrors)
      console.log(`  answered unrelated: ${q.text} -> ${hits[0]!.id} (cos ${hits[0]!.cosine.toFixed(3)})`);
  });
  const n = data.queries.length;
  console.log(`(a) retrieval, ${embedder.id}, ${data.claims.length} claims, floor ${JSON.stringify(floor)}`);
  console.log(
    `    recall@1 ${pct(at1 / n)}  recall@3 ${pct(at3 / n)}  (answerable queries: ${n}; answered nothing: ${empty})`,
  );
  console.log(
    `    unrelated queries returning nothing: ${pct(abstained / data.unrelated_queries.length)} of ${data.unrelated_queries.length}`,
  );
  const sentences = data.claims.length + n + data.unrelated_queries.length;
  console.log(
    `    embedding: ${sentences} sentences in ${embedSeconds.toFixed(1)} s = ${(sentences / embedSeconds).toFixed(0)} sentences/s`,
  );
}

async function evalConflicts(embedder: Embedder): Promise<void> {
  interface Row {
    premise: string;
    hypothesis: string;
    label: string;
    source: string;
  }
  const rows = readFileSync(join(dataDir, 'vault/conflicts.dev.jsonl'), 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as Row);
  const texts = [...new Set(rows.flatMap((r) => [r.premise, r.hypothesis]))];
  const vectors = await embedder.embed(texts);
  const vectorOf = new Map(texts.map((t, i) => [t, vectors[i]!]));
  console.log(`(b) contradictions (premise stored, hypothesis stored after), similarity from ${embedder.id}`);
  for (const corpus of ['sick', 'snli']) {
    const subset = rows.filter((r) => r.source.startsWith(`${corpus}:`));
    let tp = 0;
    let fp = 0;
    let fn = 0;
    const kinds = new Map<string, number>();
    for (const r of subset) {
      const sim = cosine(vectorOf.get(r.premise)!, vectorOf.get(r.hypothesis)!);
      const found = detectConflict(r.hypothesis, r.premise, sim);
      const gold = r.label === 'contradiction';
      if (found) kinds.set(found.kind, (kinds.get(found.kind) ?? 0) + 1);
      if (found && gold) tp++;
      else if (found) {
        fp++;
        if (showErrors)
          console.log(`  FP ${r.label} [${found.kind}: ${found.reason}] ${r.premise} || ${r.hypothesis}`);
      } else if (gold) {
        fn++;
        if (showErrors) console.log(`  FN ${r.premise} || ${r.hypothesis}`);
      }
    }
    console.log(
      `    ${corpus.toUpperCase()} (${subset.length} pairs, ${tp + fn} contradictions): precision ${ratio(tp, tp + fp).toFixed(3)}  recall ${ratio(tp, tp + fn).toFixed(3)}  reported by kind ${JSON.stringify(Object.fromEntries(kinds))}`,
    );
  }
}

const PRESIDIO_TYPES: Record<string, PiiType> = {
  EMAIL_ADDRESS: 'EMAIL',
  PHONE_NUMBER: 'PHONE',
  CREDIT_CARD: 'CARD',
  IBAN_CODE: 'IBAN',
  US_SSN: 'SSN',
  IP_ADDRESS: 'IP',
};

function evalPii(): void {
  interface Sample {
    full_text: string;
    spans: { entity_type: string; start_position: number; end_position: number }[];
  }
  const samples = JSON.parse(readFileSync(join(dataDir, 'pii/synth.dev.json'), 'utf8')) as Sample[];
  const stats = new Map<PiiType, { tp: number; fn: number; fp: number }>();
  const stat = (t: PiiType) => {
    let s = stats.get(t);
    if (!s) {
      s = { tp: 0, fn: 0, fp: 0 };
      stats.set(t, s);
    }
    return s;
  };
  const overlaps = (a: { start: number; end: number }, b: { start_position: number; end_position: number }) =>
    a.start < b.end_position && a.end > b.start_position;
  for (const sample of samples) {
    const found = detectPii(sample.full_text);
    const gold = sample.spans.filter((s) => PRESIDIO_TYPES[s.entity_type]);
    for (const g of gold) {
      const type = PRESIDIO_TYPES[g.entity_type]!;
      if (found.some((f) => f.type === type && overlaps(f, g))) stat(type).tp++;
      else {
        stat(type).fn++;
        if (showErrors)
          console.log(`  FN ${type}: ${sample.full_text.slice(g.start_position, g.end_position)}`);
      }
    }
    for (const f of found) {
      if (!gold.some((g) => PRESIDIO_TYPES[g.entity_type] === f.type && overlaps(f, g))) {
        stat(f.type).fp++;
        if (showErrors) console.log(`  FP ${f.type}: ${sample.full_text.slice(f.start, f.end)}`);
      }
    }
  }
  console.log(
    `(c) PII on pii/synth.dev.json (${samples.length} sentences; a hit = overlapping span of the same type)`,
  );
  for (const [type, s] of [...stats].sort()) {
    console.log(
      `    ${type.padEnd(6)} gold ${String(s.tp + s.fn).padStart(3)}  recall ${ratio(s.tp, s.tp + s.fn).toFixed(3)}  precision ${ratio(s.tp, s.tp + s.fp).toFixed(3)}  (fp ${s.fp})`,
    );
  }
  evalPresidioTests();
}

/**
 * The presidio recogniser tests list `(text, expected_len, …)` tuples; a case passes when the
 * scrubber finds as many values of the type as presidio expects (0 for the invalid examples).
 */
function evalPresidioTests(): void {
  const dir = join(dataDir, 'pii/presidio-tests');
  if (!existsSync(dir)) return;
  const files: Record<string, PiiType> = {
    'test_credit_card_recognizer.py': 'CARD',
    'test_email_recognizer.py': 'EMAIL',
    'test_iban_recognizer.py': 'IBAN',
    'test_ip_recognizer.py': 'IP',
    'test_phone_recognizer.py': 'PHONE',
    'test_us_ssn_recognizer.py': 'SSN',
  };
  console.log('    presidio recogniser tests (count of values found == expected):');
  for (const file of readdirSync(dir)) {
    const type = files[file];
    if (!type) continue;
    const source = readFileSync(join(dir, file), 'utf8');
    // Only plain single-line cases: ("text", n, ...) with a literal string and count.
    const cases = [...source.matchAll(/^\s*\(\s*(["'])((?:(?!\1)[^\\\n]|\\.){1,300})\1\s*,\s*(\d+)\s*,/gm)];
    let pass = 0;
    let total = 0;
    for (const c of cases) {
      const text = c[2]!.replace(/\\(["'\\])/g, '$1').replace(/\\n/g, '\n');
      const expected = Number(c[3]);
      const got = detectPii(text).filter((s) => s.type === type).length;
      total++;
      if (got === expected) pass++;
      else if (showErrors) console.log(`      ${type} expected ${expected} got ${got}: ${text}`);
    }
    console.log(`      ${file.padEnd(34)} ${pass}/${total}`);
  }
}

const needsEmbedder = only.has('retrieval') || only.has('conflicts');
const embedder = needsEmbedder ? await createEmbedder({ kind: embedderKind }) : undefined;
console.log(`data: ${dataDir}`);
if (only.has('retrieval')) await evalRetrieval(embedder!);
if (only.has('conflicts')) await evalConflicts(embedder!);
if (only.has('pii')) evalPii();
