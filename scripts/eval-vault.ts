import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadConfig } from '../src/config.ts';
import { createContainer } from '../src/container.ts';
import { detectConflict } from '../src/domains/ledger/conflicts.ts';
import { cosine, type Embedder } from '../src/domains/ledger/embeddings/embedder.ts';
import { createEmbedder } from '../src/domains/ledger/embeddings/factory.ts';
import { detectPii, type PiiType } from '../src/domains/ledger/pii/scrubber.ts';
import { relevanceFloorFor } from '../src/domains/ledger/search/hybrid.ts';
import { createLogger } from '../src/logger.ts';
import { InMemoryHybridIndex } from './lib/memory-index.ts';
import { scratchDatabase } from './lib/scratch-database.ts';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const arg = (name: string, fallback: string): string => {
  const at = process.argv.indexOf(name);
  return at >= 0 && process.argv[at + 1] ? process.argv[at + 1]! : fallback;
};
const dataDir = resolve(arg('--data', join(repoRoot, '../shared/data')));
const embedderKind = arg('--embedder', 'local');
const only = new Set(arg('--only', 'retrieval,conflicts,pii').split(','));
const showErrors = process.argv.includes('--errors');
const storage = arg('--storage', 'memory');
if (embedderKind !== 'local' && embedderKind !== 'hash' && !embedderKind.startsWith('onnx:'))
  throw new Error('--embedder must be local, hash or onnx:<folder>');
// A statement cosine floor to try for another model (ARBITER_RELEVANCE_FLOOR once chosen).
const floorArg = process.argv.includes('--floor') ? Number(arg('--floor', '')) : undefined;
if (!['memory', 'sqlite', 'postgres'].includes(storage))
  throw new Error('--storage must be memory, sqlite or postgres');

const pct = (x: number): string => `${(100 * x).toFixed(1)} %`;
const ratio = (a: number, b: number): number => (b === 0 ? Number.NaN : a / b);

interface RetrievalData {
  claims: { id: string; text: string }[];
  queries: { text: string; relevant_id: string }[];
  unrelated_queries: { text: string }[];
}

interface RetrievalOutcome {
  /** Dataset claim ids of the top 3 results, best first, per answerable query. */
  answered: string[][];
  /** Per unrelated query: the top result's text and relevance, or undefined when nothing came back. */
  unrelated: Array<{ text: string; relevance: number } | undefined>;
  sentences: number;
  seconds: number;
}

function readRetrieval(): RetrievalData {
  return JSON.parse(readFileSync(join(dataDir, 'vault/retrieval.dev.json'), 'utf8')) as RetrievalData;
}

function printRetrieval(label: string, data: RetrievalData, outcome: RetrievalOutcome): void {
  let at1 = 0;
  let at3 = 0;
  let empty = 0;
  data.queries.forEach((q, i) => {
    const hits = outcome.answered[i]!;
    const rank = hits.indexOf(q.relevant_id);
    if (rank === 0) at1++;
    if (rank >= 0) at3++;
    if (hits.length === 0) empty++;
    if (showErrors && rank < 0) console.log(`  miss: ${q.text}`);
  });
  let abstained = 0;
  data.unrelated_queries.forEach((q, i) => {
    const top = outcome.unrelated[i];
    if (!top) abstained++;
    else if (showErrors)
      console.log(`  answered unrelated: ${q.text} -> ${top.text} (${top.relevance.toFixed(3)})`);
  });
  const n = data.queries.length;
  console.log(`(a) retrieval, ${label}, ${data.claims.length} claims`);
  console.log(
    `    recall@1 ${pct(at1 / n)}  recall@3 ${pct(at3 / n)}  (answerable queries: ${n}; answered nothing: ${empty})`,
  );
  console.log(
    `    unrelated queries returning nothing: ${pct(abstained / data.unrelated_queries.length)} of ${data.unrelated_queries.length}`,
  );
  console.log(
    `    ${outcome.sentences} sentences (claims + queries) in ${outcome.seconds.toFixed(1)} s = ${(outcome.sentences / outcome.seconds).toFixed(0)} sentences/s`,
  );
}

/** A scratch database for the storage modes, dropped by `drop()`. */

/**
 * Stores every claim through the ledger service (one account, confidence 1) and searches through
 * it. Stored text can differ from the input (scrubbing), so results map back to dataset ids by the
 * uuid `store` returned.
 */
async function retrievalThroughStorage(kind: 'sqlite' | 'postgres', data: RetrievalData) {
  const scratch = await scratchDatabase(kind, {
    adminUrl: process.env.TEST_DATABASE_URL || process.env.DATABASE_URL,
    prefix: 'arbiter_eval',
  });
  const container = await createContainer(
    loadConfig({
      ...scratch.env,
      ARBITER_EMBEDDER: embedderKind,
      ...(floorArg === undefined ? {} : { ARBITER_RELEVANCE_FLOOR: String(floorArg) }),
    }),
    createLogger('warn'),
  );
  try {
    const { account } = await container.services.accounts.create({
      email: 'eval@example.com',
      name: 'eval-vault',
    });
    const ledger = container.services.ledger;
    const started = performance.now();
    const datasetId = new Map<string, string>();
    let merged = 0;
    for (const c of data.claims) {
      const stored = await ledger.store(account.id, 'eval', { claim: c.text, source: 'sts', confidence: 1 });
      if (datasetId.has(stored.id)) merged++;
      datasetId.set(stored.id, c.id);
    }
    const answered: string[][] = [];
    for (const q of data.queries) {
      const hits = await ledger.search(account.id, q.text, 3);
      answered.push(hits.map((h) => datasetId.get(h.id) ?? h.id));
    }
    const unrelated: RetrievalOutcome['unrelated'] = [];
    for (const q of data.unrelated_queries) {
      const [top] = await ledger.search(account.id, q.text, 3);
      unrelated.push(top && { text: top.claim, relevance: top.relevance });
    }
    const seconds = (performance.now() - started) / 1000;
    const label = `${kind} (${container.ledger.vectors.kind}), ${container.ledger.embedder.id}, floor ${JSON.stringify(relevanceFloorFor(container.ledger.embedder.id, floorArg))}`;
    if (merged > 0) console.log(`    note: ${merged} claims normalised to an already stored claim`);
    const sentences = data.claims.length + data.queries.length + data.unrelated_queries.length;
    return { label, outcome: { answered, unrelated, sentences, seconds } };
  } finally {
    await container.close();
    await scratch.drop();
  }
}

async function evalRetrievalInMemory(embedder: Embedder): Promise<void> {
  const data = readRetrieval();
  const floor = relevanceFloorFor(embedder.id, floorArg);
  const index = new InMemoryHybridIndex(embedder, floor);
  const started = performance.now();
  await index.addAll(data.claims.map((c) => ({ ...c, confidence: 1 })));
  const queryVectors = await embedder.embed(data.queries.map((q) => q.text));
  const unrelatedVectors = await embedder.embed(data.unrelated_queries.map((q) => q.text));
  const seconds = (performance.now() - started) / 1000;
  const answered = data.queries.map((q, i) =>
    index.searchWithVector(q.text, queryVectors[i]!, 3).map((h) => h.id),
  );
  const unrelated = data.unrelated_queries.map((q, i) => {
    const [top] = index.searchWithVector(q.text, unrelatedVectors[i]!, 3);
    return top && { text: data.claims.find((c) => c.id === top.id)!.text, relevance: top.cosine };
  });
  const sentences = data.claims.length + data.queries.length + data.unrelated_queries.length;
  printRetrieval(`memory, ${embedder.id}, floor ${JSON.stringify(floor)}`, data, {
    answered,
    unrelated,
    sentences,
    seconds,
  });
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
  PERSON: 'PERSON',
  STREET_ADDRESS: 'ADDRESS',
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
  let falseSpans = 0;
  for (const [type, s] of [...stats].sort()) {
    falseSpans += s.fp;
    console.log(
      `    ${type.padEnd(7)} gold ${String(s.tp + s.fn).padStart(3)}  recall ${ratio(s.tp, s.tp + s.fn).toFixed(3)}  precision ${ratio(s.tp, s.tp + s.fp).toFixed(3)}  (fp ${s.fp})`,
    );
  }
  console.log(
    `    false spans (found, overlapping no gold span of their type): ${falseSpans} = ${((100 * falseSpans) / samples.length).toFixed(2)} per 100 texts`,
  );
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

const needsEmbedder = (only.has('retrieval') && storage === 'memory') || only.has('conflicts');
const embedder = needsEmbedder
  ? await createEmbedder(
      embedderKind.startsWith('onnx:')
        ? { kind: 'onnx', folder: embedderKind.slice('onnx:'.length) }
        : { kind: embedderKind as 'local' | 'hash' },
    )
  : undefined;
console.log(`data: ${dataDir}`);
if (only.has('retrieval')) {
  if (storage === 'memory') await evalRetrievalInMemory(embedder!);
  else {
    const data = readRetrieval();
    const { label, outcome } = await retrievalThroughStorage(storage as 'sqlite' | 'postgres', data);
    printRetrieval(label, data, outcome);
  }
}
if (only.has('conflicts')) await evalConflicts(embedder!);
if (only.has('pii')) evalPii();
