import { HashEmbedder } from '../embeddings/hash.ts';
import { type Conflict, type ConflictOptions, conflictBetween, DEFAULT_MIN_SIMILARITY } from './checker.ts';
import { type Analysis, analyse, analysis } from './statement-analysis.ts';

/**
 * What an agent proposes to say or send, checked sentence by sentence against verified facts.
 * The work is linear in the text and bounded (see "Budgets" in the ledger README):
 *
 * - Sentences are found by `Intl.Segmenter` over windows of `SEGMENT_WINDOW` characters: V8's
 *   segmenter is quadratic in its input (100 kB: 0.1 s, 1 MB: 18 s), a window is not.
 * - A sentence is embedded once, not once per fact, and compared through posting lists with
 *   only the facts it shares a feature with; the rules run only where the similarity gate lets
 *   them, and a sentence seen before in the same text is not compared again.
 * - Every comparison step is counted against `TEXT_CHECK_MAX_WORK`, so the same text and facts
 *   always need the same work and either finish or are refused the same way.
 */

/** Longest text checked at all (1 MiB, the default HTTP body limit); longer is refused unread. */
export const TEXT_CHECK_MAX_CHARS = 1_048_576;
/**
 * Work one text may take, in steps of about 40 ns on the reference 2-core machine when quiet:
 * scrubbing (names and addresses included) is `SCRUB_CHAR_WORK` a character and `PHONE_WORK` a phone number found (its
 * numbering-plan check is the costliest detector); a new sentence is `SENTENCE_WORK` plus 4 a
 * character (segmenting, embedding, analysing it), a repeated one 1 a character; a feature a
 * sentence shares with a fact is 1; a rule check of a pair that passed the similarity gate is
 * `RULE_CHECK_WORK` (about 10 µs). 25 M steps are about 1 s. 1 MiB of prose (17,000 sentences)
 * against 40 facts takes about 14 M, against 1,000 facts about 22 M.
 */
export const TEXT_CHECK_MAX_WORK = 25_000_000;
export const RULE_CHECK_WORK = 250;
export const SENTENCE_WORK = 300;
export const SCRUB_CHAR_WORK = 4;
export const PHONE_WORK = 1000;
/** Characters the sentence segmenter sees at once (and the first passage a search looks at). */
export const SEGMENT_WINDOW = 4096;

export interface Fact {
  id: string;
  text: string;
}

export interface TextConflict<F extends Fact = Fact> {
  sentence: string;
  /** Offsets of the sentence in the checked text. */
  start: number;
  end: number;
  fact: F;
  similarity: number;
  conflict: Conflict;
}

/** A text check's answer: the contradictions, or why the text could not be checked in full. */
export interface TextCheckOutcome<F extends Fact = Fact> {
  conflicts: TextConflict<F>[];
  /** Set when the text exceeded a budget; `conflicts` then holds what was found before it. */
  unchecked?: string;
}

export interface TextCheckOptions extends ConflictOptions {
  /** Similarity of a sentence and a fact; defaults to the lexical `hash` embedding cosine. */
  similarity?: (sentence: string, fact: string) => number;
  /** Comparison steps allowed (default `TEXT_CHECK_MAX_WORK`). */
  maxWork?: number;
}

const lexicalEmbedder = new HashEmbedder(512);
const DIMENSION = lexicalEmbedder.dimension;
const sentenceSegmenter = new Intl.Segmenter('en', { granularity: 'sentence' });
const WHITESPACE = /\s/;

/**
 * Consecutive ranges of `text` (offsets `[start, end)`) that end at sentence boundaries, each at
 * most `SEGMENT_WINDOW` long. A window is cut before its last sentence, which may run past the
 * window and is segmented again with the next one. A window without any boundary
 * (one "sentence" longer than a window) is cut after its last white space, or at its end.
 */
export function* passagesOf(text: string): Generator<{ start: number; end: number }> {
  let pos = 0;
  while (pos < text.length) {
    const end = Math.min(text.length, pos + SEGMENT_WINDOW);
    if (end === text.length) {
      yield { start: pos, end };
      return;
    }
    const window = text.slice(pos, end);
    // The start of the window's last sentence (the segmenter looks it up from the end).
    let cut = sentenceSegmenter.segment(window).containing(window.length - 1)?.index ?? 0;
    if (cut === 0) {
      cut = window.length;
      while (cut > 1 && !WHITESPACE.test(window[cut - 1]!)) cut--;
      if (cut <= 1) {
        cut = window.length;
        // Never split a surrogate pair.
        const code = window.charCodeAt(cut - 1);
        if (code >= 0xd800 && code <= 0xdbff) cut--;
      }
    }
    yield { start: pos, end: pos + cut };
    pos += cut;
  }
}

/** The sentences of `text`, trimmed, with their offsets; linear in the length of `text`. */
export function* sentencesOf(text: string): Generator<{ sentence: string; start: number; end: number }> {
  for (const passage of passagesOf(text)) {
    const part =
      passage.start === 0 && passage.end === text.length ? text : text.slice(passage.start, passage.end);
    for (const seg of sentenceSegmenter.segment(part)) {
      const sentence = seg.segment.trim();
      if (sentence.length === 0) continue;
      const start = passage.start + seg.index + seg.segment.indexOf(sentence);
      yield { sentence, start, end: start + sentence.length };
    }
  }
}

interface Match {
  fact: number;
  similarity: number;
  conflict: Conflict;
}

/**
 * Checks sentences against a fixed set of facts. Each fact's lexical vector is kept as posting
 * lists (dimension → facts with a non-zero component there), so a sentence costs one step per
 * feature it shares with a fact instead of a full vector product per fact. Sums run over the
 * dimensions in ascending order, as `cosine` does, so the similarities are the same numbers.
 */
export class TextFactChecker<F extends Fact> {
  readonly conflicts: TextConflict<F>[] = [];
  private readonly facts: readonly F[];
  private readonly analyses: Analysis[];
  private readonly norms: Float64Array;
  private readonly postingFacts: Int32Array[];
  private readonly postingValues: Float32Array[];
  private readonly dots: Float64Array;
  private readonly touched: Uint8Array;
  private readonly seen = new Map<string, Match[]>();
  private readonly minSimilarity: number;
  private readonly maxWork: number;
  private readonly similarity: TextCheckOptions['similarity'];
  private work = 0;

  constructor(facts: readonly F[], options: TextCheckOptions = {}) {
    this.facts = facts;
    this.minSimilarity = options.minSimilarity ?? DEFAULT_MIN_SIMILARITY;
    this.maxWork = options.maxWork ?? TEXT_CHECK_MAX_WORK;
    this.similarity = options.similarity;
    this.analyses = facts.map((f) => analysis(f.text));
    this.norms = new Float64Array(facts.length);
    this.dots = new Float64Array(facts.length);
    this.touched = new Uint8Array(facts.length);
    const lists: Array<{ facts: number[]; values: number[] }> = Array.from({ length: DIMENSION }, () => ({
      facts: [],
      values: [],
    }));
    facts.forEach((fact, f) => {
      const v = lexicalEmbedder.embedOne(fact.text);
      let norm = 0;
      for (let i = 0; i < DIMENSION; i++) {
        const y = v[i]!;
        norm += y * y;
        if (y !== 0) {
          lists[i]!.facts.push(f);
          lists[i]!.values.push(y);
        }
      }
      this.norms[f] = norm;
    });
    this.postingFacts = lists.map((l) => Int32Array.from(l.facts));
    this.postingValues = lists.map((l) => Float32Array.from(l.values));
  }

  /** Counts the scrubbing of `length` characters that found `phones` phone numbers. */
  scrubbed(length: number, phones: number): void {
    this.work += SCRUB_CHAR_WORK * length + PHONE_WORK * phones;
  }

  /** Whether the work budget ran out; no sentence is checked after that. */
  get exhausted(): boolean {
    return this.work > this.maxWork;
  }

  /**
   * Checks every sentence of `text` (whose offsets in the whole checked text start at `offset`).
   * Returns false once the work budget is spent.
   */
  check(text: string, offset = 0): boolean {
    for (const { sentence, start, end } of sentencesOf(text)) {
      if (this.exhausted) return false;
      let matches = this.seen.get(sentence);
      if (matches === undefined) {
        matches = this.match(sentence);
        this.seen.set(sentence, matches);
      } else {
        this.work += sentence.length;
      }
      for (const m of matches) {
        this.conflicts.push({
          sentence,
          start: offset + start,
          end: offset + end,
          fact: this.facts[m.fact]!,
          similarity: m.similarity,
          conflict: m.conflict,
        });
      }
    }
    return !this.exhausted;
  }

  private match(sentence: string): Match[] {
    this.work += SENTENCE_WORK + 4 * sentence.length;
    if (this.similarity || this.minSimilarity <= 0) return this.matchEveryFact(sentence);
    const v = lexicalEmbedder.embedOne(sentence);
    const { dots, touched, postingFacts, postingValues } = this;
    const hits: number[] = [];
    let norm = 0;
    for (let i = 0; i < DIMENSION; i++) {
      const x = v[i]!;
      if (x === 0) continue;
      norm += x * x;
      const ids = postingFacts[i]!;
      const values = postingValues[i]!;
      this.work += ids.length;
      for (let k = 0; k < ids.length; k++) {
        const f = ids[k]!;
        if (touched[f] === 0) {
          touched[f] = 1;
          hits.push(f);
        }
        dots[f]! += x * values[k]!;
      }
    }
    hits.sort((a, b) => a - b);
    const matches: Match[] = [];
    let analysed: Analysis | undefined;
    for (const f of hits) {
      const dot = dots[f]!;
      dots[f] = 0;
      touched[f] = 0;
      const nb = this.norms[f]!;
      const similarity = norm === 0 || nb === 0 ? 0 : dot / Math.sqrt(norm * nb);
      if (similarity < this.minSimilarity) continue;
      this.work += RULE_CHECK_WORK;
      analysed ??= analyse(sentence);
      const conflict = conflictBetween(this.analyses[f]!, analysed);
      if (conflict) matches.push({ fact: f, similarity, conflict });
    }
    return matches;
  }

  /** Every fact through the given similarity: for a caller's own measure (or no gate at all). */
  private matchEveryFact(sentence: string): Match[] {
    const measure =
      this.similarity ??
      ((a: string, b: string) => {
        const x = lexicalEmbedder.embedOne(a);
        const y = lexicalEmbedder.embedOne(b);
        let dot = 0;
        let na = 0;
        let nb = 0;
        for (let i = 0; i < DIMENSION; i++) {
          dot += x[i]! * y[i]!;
          na += x[i]! * x[i]!;
          nb += y[i]! * y[i]!;
        }
        return na === 0 || nb === 0 ? 0 : dot / Math.sqrt(na * nb);
      });
    const matches: Match[] = [];
    const analysed = analyse(sentence);
    this.facts.forEach((fact, f) => {
      this.work += RULE_CHECK_WORK;
      const similarity = measure(sentence, fact.text);
      if (similarity < this.minSimilarity) return;
      const conflict = conflictBetween(this.analyses[f]!, analysed);
      if (conflict) matches.push({ fact: f, similarity, conflict });
    });
    return matches;
  }
}

/**
 * Sentences of `text` (what an agent proposes to say or send) that contradict one of `facts`
 * (the verified ledger facts the caller selected). Pure; no I/O; linear in the text. Without
 * `maxWork` it checks every sentence; the ledger's `checkText` is the bounded, yielding caller.
 */
export function checkTextAgainstFacts<F extends Fact>(
  text: string,
  facts: readonly F[],
  options: TextCheckOptions = {},
): TextConflict<F>[] {
  const checker = new TextFactChecker(facts, { maxWork: Number.POSITIVE_INFINITY, ...options });
  checker.check(text);
  return checker.conflicts;
}
