import { answers, factOf } from '../conflicts/fact.ts';
import type { LexicalHit } from './lexical.ts';
import { entityShare, holdsAnswerType, isNegated, type QueryAnalysis } from './question.ts';

/**
 * Hybrid ranking as pure functions over candidate lists, shared by the in-memory index below
 * and the storage adapters (sqlite-vec / pgvector k-NN + FTS5 / tsvector):
 *
 * 1. each side returns its top candidates (vector: exact cosine; lexical: BM25 or the database's
 *    full-text rank);
 * 2. the relevance floor drops candidates that are not about the query at all;
 * 3. reciprocal rank fusion merges the two rankings (ranks only, so scales never need aligning);
 * 4. the final order is relevance × confidence.
 */

export interface VectorHit {
  id: string;
  /** Cosine similarity in [-1, 1]. */
  cosine: number;
}

export interface FusedHit {
  id: string;
  /** RRF score divided by its maximum, in (0, 1]: 1 = first in both rankings. */
  relevance: number;
  cosine: number;
  /** Share of the query's content words found in the claim, in [0, 1]. */
  overlap: number;
  vectorRank: number | null;
  lexicalRank: number | null;
}

/** The constant of Cormack et al. (2009); damps the gap between the first ranks. */
export const RRF_K = 60;

/** Candidates each side contributes before fusion. */
export const CANDIDATES_PER_SIDE = 50;

/**
 * A candidate is relevant when its meaning is close enough, or when it is moderately close and
 * shares at least `minOverlap` of the query's content words (short queries worded like the claim).
 * The floor is judged per candidate on raw cosine and word overlap, not on fused scores: RRF says
 * how candidates rank against each other, never whether anything relevant exists at all.
 */
export interface RelevanceFloor {
  cosine: number;
  cosineWithOverlap: number;
  minOverlap: number;
  /**
   * Questions only (a question and its answer embed further apart than two paraphrases): a
   * claim at or above `questionCosine` is relevant when it holds `minOverlap` of the question's
   * content words, or one of its names or numbers and a strong full-text match; at or above
   * `answerCosine` when it holds the kind of answer asked for (a place for "where", a duration
   * for "how long"…; not a time for "when", which nearly every chatty claim holds).
   */
  questionCosine?: number;
  answerCosine?: number;
}

/**
 * Tuned on vault/retrieval.dev.json with USE lite (`npx tsx scripts/eval-vault.ts`): the relevant
 * claim of an answerable query has cosine >= 0.56 in 99 % of queries (median 0.88); the best
 * claim for an unrelated query has median 0.39, 95th percentile 0.54, max 0.65. Between 0.54 and
 * 0.62 top-3 recall stays at 98.6 % while abstention rises from 94 % to 98 %; 0.58 sits in the
 * middle of that plateau so that the held-out split has margin on both sides.
 */
export const LOCAL_RELEVANCE_FLOOR: RelevanceFloor = {
  cosine: 0.58,
  cosineWithOverlap: 0.4,
  minOverlap: 0.5,
  // Measured with `npm run eval:memory-qa` (ledger README, "Questions"): the question rules
  // take answerable LoCoMo questions that come back empty from 13.8 % to ~2 %, while questions
  // of one conversation asked of another's claims come back empty ~89 % of the time and the
  // vault's unrelated statements are untouched (the rules never apply to statements).
  questionCosine: 0.3,
  answerCosine: 0.4,
};

/**
 * The `hash` embedder measures shared words only: its cosines are lower for paraphrases (median
 * 0.64 for the relevant claim) and unrelated queries top out at 0.30 (95th percentile), so its
 * floor is lower and the overlap rule rescues paraphrases that share a few exact words.
 */
export const HASH_RELEVANCE_FLOOR: RelevanceFloor = { cosine: 0.33, cosineWithOverlap: 0.2, minOverlap: 0.4 };

/**
 * The floor for an embedder. Other models (`openai`, `onnx:`) have their own cosine scales: the
 * USE floor is the starting point, and `cosine` (`ARBITER_RELEVANCE_FLOOR`, measured with
 * `eval:vault -- --floor`) replaces its statement cosine, the question and overlap cosines scaled
 * by the same factor.
 */
export function relevanceFloorFor(embedderId: string, cosine?: number): RelevanceFloor {
  if (cosine === undefined)
    return embedderId.startsWith('hash-') ? HASH_RELEVANCE_FLOOR : LOCAL_RELEVANCE_FLOOR;
  const base = embedderId.startsWith('hash-') ? HASH_RELEVANCE_FLOOR : LOCAL_RELEVANCE_FLOOR;
  const f = cosine / base.cosine;
  const scaled = (x: number | undefined) => (x === undefined ? undefined : Math.round(x * f * 1000) / 1000);
  return {
    ...base,
    cosine,
    cosineWithOverlap: scaled(base.cosineWithOverlap)!,
    ...(base.questionCosine === undefined ? {} : { questionCosine: scaled(base.questionCosine)! }),
    ...(base.answerCosine === undefined ? {} : { answerCosine: scaled(base.answerCosine)! }),
  };
}

export function passesFloor(hit: { cosine: number; overlap: number }, floor: RelevanceFloor): boolean {
  return (
    hit.cosine >= floor.cosine || (hit.cosine >= floor.cosineWithOverlap && hit.overlap >= floor.minOverlap)
  );
}

/** One candidate of a search, as both sides of the hybrid search see it. */
export interface Candidate {
  id: string;
  text: string;
  cosine: number;
  /** Full-text score over the best full-text score of the query, in [0, 1]; 0 when full text did not find it. */
  lexical: number;
  /** Share of the query's content words in the claim. */
  overlap: number;
}

export interface ScoredClaim extends Candidate {
  /** The weighted sum below over its largest possible value, in [0, 1]. */
  relevance: number;
  confidence: number;
  /** relevance × confidence, the order results are returned in. */
  score: number;
}

/**
 * Weights of the relevance sum, measured on the LoCoMo dev conversations and the vault retrieval
 * set (ledger README, "Questions"): cosine + 0.5 × full text + 0.2 × share of the query's names
 * and numbers + 0.1 if the claim holds the kind of answer asked for − 0.1 if it is negated and
 * the question asks where, when, who, how long or how many. Full text weighs half of the cosine
 * (rather than one rank against the other, as reciprocal rank fusion did): on questions, the
 * model's cosine alone finds the evidence in the top 5 for 33 % of them and BM25 alone for 59 %.
 */
export const RELEVANCE_WEIGHTS = {
  lexical: 0.5,
  entities: 0.2,
  answerType: 0.1,
  negated: 0.1,
  /** A claim whose reading has the subject and relation the question asks about. */
  fact: 0.3,
} as const;
const MAX_RELEVANCE =
  1 + RELEVANCE_WEIGHTS.lexical + RELEVANCE_WEIGHTS.entities + RELEVANCE_WEIGHTS.answerType;

export function passesQueryFloor(
  query: QueryAnalysis,
  c: Candidate & { entities: number; answers: boolean },
  floor: RelevanceFloor,
): boolean {
  if (passesFloor(c, floor)) return true;
  if (!query.question) return false;
  if (
    floor.answerCosine !== undefined &&
    c.answers &&
    query.answerType !== 'time' &&
    c.cosine >= floor.answerCosine
  )
    return true;
  return (
    floor.questionCosine !== undefined &&
    c.cosine >= floor.questionCosine &&
    (c.overlap >= floor.minOverlap || (c.entities > 0 && c.lexical > 0.5))
  );
}

/**
 * Drops the candidates under the floor, scores the rest (see `RELEVANCE_WEIGHTS`) and orders
 * them by relevance × confidence (ties: higher cosine, then id).
 */
export function rankCandidates(
  query: QueryAnalysis,
  candidates: readonly Candidate[],
  confidenceOf: (id: string) => number,
  floor: RelevanceFloor,
  limit: number,
): ScoredClaim[] {
  const out: ScoredClaim[] = [];
  const maxRelevance = MAX_RELEVANCE + (query.about ? RELEVANCE_WEIGHTS.fact : 0);
  for (const c of candidates) {
    const entities = entityShare(query.entities, c.text);
    const answers = query.answerType !== null && holdsAnswerType(c.text, query.answerType);
    if (!passesQueryFloor(query, { ...c, entities, answers }, floor)) continue;
    const negated = query.answerType !== null && isNegated(c.text);
    const sum =
      c.cosine +
      RELEVANCE_WEIGHTS.lexical * c.lexical +
      RELEVANCE_WEIGHTS.entities * entities +
      (answers ? RELEVANCE_WEIGHTS.answerType : 0) -
      (negated ? RELEVANCE_WEIGHTS.negated : 0) +
      factBonus(query, c.text);
    const relevance = Math.min(1, Math.max(0, sum / maxRelevance));
    const confidence = confidenceOf(c.id);
    out.push({ ...c, relevance, confidence, score: relevance * confidence });
  }
  return out
    .sort((a, b) => b.score - a.score || b.cosine - a.cosine || (a.id < b.id ? -1 : 1))
    .slice(0, limit);
}

/** What a claim's reading adds for a question about its subject and relation (`fact.ts`). */
function factBonus(query: QueryAnalysis, text: string): number {
  if (!query.about) return 0;
  const fact = factOf(text);
  if (!fact) return 0;
  const { subject, relation } = answers(query.about, fact);
  return subject && relation ? RELEVANCE_WEIGHTS.fact : 0;
}

/** Full-text scores over the best of them, in [0, 1] (only the order within one query means anything). */
export function normalisedLexical(hits: readonly LexicalHit[]): Map<string, number> {
  const best = hits.reduce((m, h) => Math.max(m, h.score), 0);
  return new Map(hits.map((h) => [h.id, best > 0 ? h.score / best : 0]));
}

/**
 * Reciprocal rank fusion of the vector and lexical rankings. Candidates found by only one side
 * still need their cosine and overlap (for the floor): the caller supplies them.
 */
export function fuseRankings(
  vector: readonly VectorHit[],
  lexical: readonly LexicalHit[],
  details: (id: string) => { cosine: number; overlap: number },
  k = RRF_K,
): FusedHit[] {
  const byId = new Map<string, { vectorRank: number | null; lexicalRank: number | null }>();
  vector.forEach((hit, i) => {
    byId.set(hit.id, { vectorRank: i + 1, lexicalRank: null });
  });
  lexical.forEach((hit, i) => {
    const entry = byId.get(hit.id);
    if (entry) entry.lexicalRank = i + 1;
    else byId.set(hit.id, { vectorRank: null, lexicalRank: i + 1 });
  });
  const best = 2 / (k + 1);
  const fused: FusedHit[] = [];
  for (const [id, ranks] of byId) {
    const rrf =
      (ranks.vectorRank === null ? 0 : 1 / (k + ranks.vectorRank)) +
      (ranks.lexicalRank === null ? 0 : 1 / (k + ranks.lexicalRank));
    fused.push({ id, relevance: rrf / best, ...details(id), ...ranks });
  }
  return fused.sort((a, b) => b.relevance - a.relevance || b.cosine - a.cosine || (a.id < b.id ? -1 : 1));
}

export interface RankedClaim extends FusedHit {
  confidence: number;
  /** relevance × confidence, the order results are returned in. */
  score: number;
}

/** Applies the floor, then orders by relevance × confidence (ties: higher cosine first). */
export function rankByRelevanceAndConfidence(
  fused: readonly FusedHit[],
  confidenceOf: (id: string) => number,
  floor: RelevanceFloor,
  limit: number,
): RankedClaim[] {
  return fused
    .filter((hit) => passesFloor(hit, floor))
    .map((hit) => {
      const confidence = confidenceOf(hit.id);
      return { ...hit, confidence, score: hit.relevance * confidence };
    })
    .sort((a, b) => b.score - a.score || b.cosine - a.cosine || (a.id < b.id ? -1 : 1))
    .slice(0, limit);
}

/** Exact k-NN by cosine over unit vectors (dot product), highest first. */
export function exactNearest(
  query: Float32Array,
  vectors: Iterable<[string, Float32Array]>,
  limit: number,
): VectorHit[] {
  const hits: VectorHit[] = [];
  for (const [id, v] of vectors) {
    let dot = 0;
    for (let i = 0; i < v.length; i++) dot += v[i]! * query[i]!;
    hits.push({ id, cosine: dot });
  }
  return hits.sort((a, b) => b.cosine - a.cosine || (a.id < b.id ? -1 : 1)).slice(0, limit);
}
