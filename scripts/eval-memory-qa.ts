import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadConfig } from '../src/config.ts';
import { createContainer } from '../src/container.ts';
import { createEmbedder } from '../src/domains/ledger/embeddings/factory.ts';
import { relevanceFloorFor } from '../src/domains/ledger/search/hybrid.ts';
import { Bm25Index } from '../src/domains/ledger/search/lexical.ts';
import { createLogger } from '../src/logger.ts';
import { InMemoryHybridIndex } from './lib/memory-index.ts';
import { scratchDatabase } from './lib/scratch-database.ts';

/**
 * Question → memory retrieval on LoCoMo conversations (shared/data/memory-qa, README there):
 * every turn is stored as a claim ("<speaker>: <text>", source = its dia_id), each question of
 * categories 1–4 is searched with top_k 5, and a question counts as found when any of its
 * evidence turns is among the results. Plain BM25 over the same turns (no relevance floor) runs
 * in the same process as the baseline. Also reported: answerable questions that come back empty,
 * and how often a question of one conversation gets an answer from the next conversation's
 * claims (nothing there is about it: a proxy for unrelated questions, which should come back
 * empty).
 *
 *   npm run eval:memory-qa -- [--data ../shared/data] [--storage sqlite|postgres|memory]
 *                             [--embedder local|hash] [--only 26,30] [--errors]
 */

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const arg = (name: string, fallback: string): string => {
  const at = process.argv.indexOf(name);
  return at >= 0 && process.argv[at + 1] ? process.argv[at + 1]! : fallback;
};
const dataDir = resolve(arg('--data', join(repoRoot, '../shared/data')), 'memory-qa');
const storage = arg('--storage', 'sqlite');
const embedderKind = arg('--embedder', 'local');
const only = arg('--only', '');
const showErrors = process.argv.includes('--errors');
if (!['memory', 'sqlite', 'postgres'].includes(storage))
  throw new Error('--storage must be memory, sqlite or postgres');
if (embedderKind !== 'local' && embedderKind !== 'hash') throw new Error('--embedder must be local or hash');

interface Turn {
  speaker: string;
  dia_id: string;
  text: string;
}
interface Qa {
  question: string;
  evidence: string[];
  category: number;
}
interface Conversation {
  name: string;
  turns: Turn[];
  questions: Qa[];
}

function readConversations(): Conversation[] {
  return readdirSync(dataDir)
    .filter((f) => /^locomo-\d+\.json$/.test(f))
    .filter((f) => only === '' || only.split(',').some((o) => f === `locomo-${o}.json`))
    .sort()
    .map((f) => {
      const data = JSON.parse(readFileSync(join(dataDir, f), 'utf8')) as Record<string, unknown>;
      const sessions = Object.keys(data)
        .filter((k) => /^session_\d+$/.test(k))
        .sort((a, b) => Number(a.slice(8)) - Number(b.slice(8)));
      return {
        name: f.replace(/\.json$/, ''),
        turns: sessions.flatMap((k) => data[k] as Turn[]),
        questions: (data.qa as Qa[]).filter((q) => q.category >= 1 && q.category <= 4),
      };
    });
}

const claimText = (t: Turn) => `${t.speaker}: ${t.text}`;

/** Searches one conversation's claims: the dia_ids of the top 5, best first. */
type Searcher = (question: string) => Promise<string[]>;

interface Tally {
  found: number;
  empty: number;
  questions: number;
  crossAnswered: number;
  byCategory: Map<number, { found: number; n: number }>;
}

async function evaluate(
  label: string,
  conversations: Conversation[],
  searchers: Searcher[],
  seconds: () => number,
): Promise<void> {
  const t: Tally = { found: 0, empty: 0, questions: 0, crossAnswered: 0, byCategory: new Map() };
  for (let c = 0; c < conversations.length; c++) {
    const conv = conversations[c]!;
    const text = new Map(conv.turns.map((turn) => [turn.dia_id, claimText(turn)]));
    for (const q of conv.questions) {
      const hits = await searchers[c]!(q.question);
      const found = hits.some((id) => q.evidence.includes(id));
      t.questions++;
      if (found) t.found++;
      if (hits.length === 0) t.empty++;
      const cat = t.byCategory.get(q.category) ?? { found: 0, n: 0 };
      cat.n++;
      if (found) cat.found++;
      t.byCategory.set(q.category, cat);
      if (showErrors && !found)
        console.log(
          `  miss [${q.category}] ${q.question}${hits.length === 0 ? ' (empty)' : ''}\n    evidence: ${q.evidence.map((e) => text.get(e)?.slice(0, 100)).join(' | ')}`,
        );
      if (conversations.length > 1) {
        const other = searchers[(c + 1) % conversations.length]!;
        if ((await other(q.question)).length > 0) t.crossAnswered++;
      }
    }
  }
  const pct = (a: number, b: number) => `${((100 * a) / b).toFixed(1)} %`;
  const cats = [...t.byCategory]
    .sort((a, b) => a[0] - b[0])
    .map(([k, v]) => `cat ${k} ${pct(v.found, v.n)} (${v.n})`)
    .join(', ');
  console.log(`${label}`);
  console.log(
    `  evidence in top 5: ${pct(t.found, t.questions)} of ${t.questions} questions (${cats}); empty: ${pct(t.empty, t.questions)}`,
  );
  if (conversations.length > 1)
    console.log(
      `  questions answered from another conversation's claims: ${pct(t.crossAnswered, t.questions)}`,
    );
  console.log(`  ${seconds().toFixed(1)} s`);
}

async function bm25Baseline(conversations: Conversation[]): Promise<void> {
  const started = performance.now();
  const searchers = conversations.map((conv) => {
    const index = new Bm25Index();
    for (const turn of conv.turns) index.add(turn.dia_id, claimText(turn));
    return async (q: string) => index.search(q, 5).map((h) => h.id);
  });
  await evaluate(
    'plain BM25 (in memory, no floor)',
    conversations,
    searchers,
    () => (performance.now() - started) / 1000,
  );
}

async function inMemory(conversations: Conversation[]): Promise<void> {
  const embedder = await createEmbedder(
    embedderKind === 'local' ? { kind: 'local', workers: 1 } : { kind: 'hash' },
  );
  const started = performance.now();
  const searchers: Searcher[] = [];
  for (const conv of conversations) {
    const index = new InMemoryHybridIndex(embedder, relevanceFloorFor(embedder.id));
    await index.addAll(conv.turns.map((t) => ({ id: t.dia_id, text: claimText(t), confidence: 1 })));
    searchers.push(async (q) => (await index.search(q, 5)).map((h) => h.id));
  }
  await evaluate(
    `hybrid search, memory, ${embedder.id}`,
    conversations,
    searchers,
    () => (performance.now() - started) / 1000,
  );
}

/** Each conversation in its own account, stored through `store_batch`'s service call, searched through `search`. */
async function throughStorage(kind: 'sqlite' | 'postgres', conversations: Conversation[]): Promise<void> {
  const scratch = await scratchDatabase(kind, {
    adminUrl: process.env.TEST_DATABASE_URL || process.env.DATABASE_URL,
    prefix: 'arbiter_eval_qa',
  });
  const container = await createContainer(
    loadConfig({ ...scratch.env, ARBITER_EMBEDDER: embedderKind }),
    createLogger('warn'),
  );
  try {
    const ledger = container.services.ledger;
    const started = performance.now();
    const searchers: Searcher[] = [];
    for (const conv of conversations) {
      const { account } = await container.services.accounts.create({
        email: `${conv.name}@example.com`,
        name: conv.name,
      });
      const diaId = new Map<string, string>();
      for (let at = 0; at < conv.turns.length; at += 200) {
        const batch = conv.turns.slice(at, at + 200);
        const stored = await ledger.storeMany(
          account.id,
          'eval',
          batch.map((t) => ({ claim: claimText(t), source: t.dia_id, confidence: 1 })),
        );
        // A turn repeated word for word becomes a new version of the same claim: the last one names it.
        stored.forEach((s, i) => {
          diaId.set(s.id, batch[i]!.dia_id);
        });
      }
      searchers.push(async (q) =>
        (await ledger.search(account.id, q, 5)).map((h) => diaId.get(h.id) ?? h.source),
      );
    }
    await evaluate(
      `hybrid search, ${kind} (${container.ledger.vectors.kind}), ${container.ledger.embedder.id}`,
      conversations,
      searchers,
      () => (performance.now() - started) / 1000,
    );
  } finally {
    await container.close();
    await scratch.drop();
  }
}

const conversations = readConversations();
if (conversations.length === 0) throw new Error(`no locomo-*.json in ${dataDir}`);
console.log(
  `memory-qa: ${conversations.map((c) => `${c.name} (${c.turns.length} turns, ${c.questions.length} questions)`).join(', ')}`,
);
await bm25Baseline(conversations);
if (storage === 'memory') await inMemory(conversations);
else await throughStorage(storage as 'sqlite' | 'postgres', conversations);
process.exit(0);
