import { stem } from '../search/lexical.ts';
import { type FactReading, factOf } from './fact.ts';
import {
  ANTONYM_PAIRS,
  FUNCTION_WORDS,
  HYPERNYMS,
  IRREGULAR,
  NEGATORS,
  NUMBER_WORDS,
  PARTICLES,
  PHRASE_ANTONYMS,
} from './lexicon.ts';
import { type KindProfile, kindProfile } from './wordnet.ts';

/**
 * One statement as the contradiction rules read it (`checker.ts`): negation, canonical content
 * terms with their WordNet profiles, quantities and names, and the word indexes the rules use.
 */

interface Token {
  /** Canonical form: lower-case, irregular forms mapped, lightly stemmed. */
  canon: string;
  raw: string;
  /** Capitalised inside the sentence, or an identifier mixing letters and digits. */
  proper: boolean;
}

/** What the rules need of one statement; made by `analyse`, never modified afterwards. */
export interface Analysis {
  negated: boolean;
  /** Canonical content terms: no function words, particles, negators or numbers. */
  terms: Set<string>;
  /** Each content term's WordNet profile (its word as written, irregular forms mapped). */
  lemmas: Map<string, KindProfile>;
  /**
   * Content terms of the subject: those before the first verb ("A talented man | is playing"),
   * and in a passive those after "by" ("A horse is being ridden | by a woman").
   */
  subject: Set<string>;
  /** Every canonical word in order (particles included), for opposite pairs and phrases. */
  words: string[];
  /** Numeric values with their unit, as `value|unit`. */
  quantities: Set<string>;
  proper: Set<string>;
  /** `words` as a set, and joined with a space on each side (phrase look-ups). */
  wordSet: Set<string>;
  text: string;
  /**
   * Indexes into PHRASES of the pairs with a side in `text`, ascending, and per index which
   * sides (1: first, 2: second): found once per statement instead of once per pair compared.
   */
  phrases: number[];
  phraseSides: Map<number, number>;
  /** The statement read as subject, relation and object (`fact.ts`), or null when it has no such reading. */
  fact: FactReading | null;
}

export function canonical(word: string): string {
  const w = word.toLowerCase();
  return stem(IRREGULAR[w] ?? w);
}

export const ANTONYM_INDEX: ReadonlyMap<string, ReadonlySet<string>> = (() => {
  const index = new Map<string, Set<string>>();
  const link = (a: string, b: string): void => {
    const set = index.get(a) ?? new Set<string>();
    set.add(b);
    index.set(a, set);
  };
  for (const [a, b] of ANTONYM_PAIRS) {
    link(canonical(a), canonical(b));
    link(canonical(b), canonical(a));
  }
  return index;
})();

export const PHRASES: [string, string][] = PHRASE_ANTONYMS.map(([a, b]) => [
  a.split(' ').map(canonical).join(' '),
  b.split(' ').map(canonical).join(' '),
]);

export const HYPERNYM_INDEX: ReadonlyMap<string, ReadonlySet<string>> = new Map(
  Object.entries(HYPERNYMS).map(([k, v]) => [canonical(k), new Set(v.map(canonical))]),
);

// Bounded token shapes: words with inner apostrophes or hyphens, numbers with separators and units.
const TOKEN =
  /\d[\d,]{0,20}(?:\.\d{1,10})?(?:[a-zA-Z%]{1,4})?(?:[-/:]\d{1,4}){0,3}|[\p{L}\p{N}]+(?:['’-][\p{L}\p{N}]+){0,4}/gu;
const UNIT_NUMBER = /^(\d[\d,]*(?:\.\d+)?)([a-z%]*)$/i;

function tokenize(text: string): Token[] {
  const out: Token[] = [];
  let first = true;
  for (const m of text.matchAll(TOKEN)) {
    let raw = m[0];
    const lower = raw.toLowerCase();
    // "isn't" → "is" + "not"; "can't" / "won't" keep their verb.
    if (/n['’]t$/.test(lower)) {
      const base =
        lower === "can't" || lower === 'can’t'
          ? 'can'
          : lower === "won't" || lower === 'won’t'
            ? 'will'
            : lower.slice(0, -3);
      out.push({ canon: canonical(base), raw: base, proper: false });
      out.push({ canon: 'not', raw: 'not', proper: false });
      first = false;
      continue;
    }
    if (lower === 'cannot') {
      out.push({ canon: 'can', raw: 'can', proper: false }, { canon: 'not', raw: 'not', proper: false });
      first = false;
      continue;
    }
    raw = raw.replace(/['’]s$/, '');
    const proper =
      (!first && /^\p{Lu}/u.test(raw)) || (/\d/.test(raw) && /\p{L}/u.test(raw) && !UNIT_NUMBER.test(raw));
    out.push({ canon: canonical(raw), raw, proper });
    first = false;
  }
  return out;
}

function quantityOf(token: Token, next: Token | undefined): string | null {
  const lower = token.raw.toLowerCase();
  const word = NUMBER_WORDS[lower];
  if (word !== undefined) return `${word}|`;
  if (/^\d{4}-\d{1,2}-\d{1,2}$/.test(lower) || /^\d{1,2}[/:]\d{1,2}([/:]\d{2,4})?$/.test(lower))
    return `${lower}|`;
  const m = UNIT_NUMBER.exec(lower);
  if (!m) return null;
  const unit =
    m[2] ||
    (next && /^(%|percent|am|pm|ms|s|h|kg|km|gb|mb|tb|usd|eur|gbp|dollars?|euros?)$/i.test(next.raw)
      ? next.raw.toLowerCase()
      : '');
  return `${Number(m[1]!.replace(/,/g, ''))}|${unit}`;
}

export function analyse(text: string): Analysis {
  const tokens = tokenize(text);
  const terms = new Set<string>();
  const lemmas = new Map<string, KindProfile>();
  const quantities = new Set<string>();
  const proper = new Set<string>();
  const subject = new Set<string>();
  // 0: before the verb (subject), 1: after it, 2: after "by" in a passive (the agent: subject again).
  let part = 0;
  let passive = false;
  let negated = false;
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    const lower = t.raw.toLowerCase();
    if (part === 0 && subject.size > 0 && (AUXILIARIES.has(lower) || /(?:ing|ed)$/.test(lower))) part = 1;
    if (part === 1 && (lower === 'being' || lower === 'been')) passive = true;
    if (part === 1 && passive && lower === 'by') part = 2;
    if (NEGATORS.has(lower)) {
      negated = true;
      // "no one" is "nobody", not the number one.
      if (lower === 'no' && tokens[i + 1]?.raw.toLowerCase() === 'one') i++;
      continue;
    }
    const q = quantityOf(t, tokens[i + 1]);
    if (q !== null) {
      quantities.add(q);
      continue;
    }
    if (FUNCTION_WORDS.has(lower) || PARTICLES.has(lower)) continue;
    if (terms.size >= MAX_TERMS && !terms.has(t.canon)) continue;
    terms.add(t.canon);
    if (part !== 1) subject.add(t.canon);
    if (!lemmas.has(t.canon)) lemmas.set(t.canon, kindProfile(IRREGULAR[lower] ?? lower));
    if (t.proper) proper.add(t.canon);
  }
  const words = tokens.map((t) => t.canon);
  const joined = ` ${words.join(' ')} `;
  const phrases: number[] = [];
  const phraseSides = new Map<number, number>();
  PHRASES.forEach(([p, q], i) => {
    const sides = (joined.includes(` ${p} `) ? 1 : 0) | (joined.includes(` ${q} `) ? 2 : 0);
    if (sides === 0) return;
    phrases.push(i);
    phraseSides.set(i, sides);
  });
  return {
    negated,
    terms,
    lemmas,
    subject,
    words,
    quantities,
    proper,
    wordSet: new Set(words.slice(0, MAX_WORDS)),
    text: joined,
    phrases,
    phraseSides,
    fact: factOf(text),
  };
}

/** Analyses of recent texts: a store checks one claim against ten stored ones, often the same ones. */
const analysed = new Map<string, Analysis>();
const MAX_ANALYSED = 4096;

/** `analyse(text)`, remembered (an analysis is never modified once made). */
export function analysis(text: string): Analysis {
  let a = analysed.get(text);
  if (a) return a;
  a = analyse(text);
  if (analysed.size >= MAX_ANALYSED) analysed.delete(analysed.keys().next().value!);
  analysed.set(text, a);
  return a;
}

/**
 * Content terms a statement is analysed for: a claim's subject and what is said of it come
 * first, and a term past these is not compared, so that one long claim costs at most
 * MAX_TERMS² relation checks against each candidate (ledger README, "Budgets").
 */
export const MAX_TERMS = 64;
/** Words compared pairwise for opposites (the rest still count for phrases). */
export const MAX_WORDS = 128;
const AUXILIARIES = new Set([
  'is',
  'are',
  'was',
  'were',
  'be',
  'has',
  'have',
  'had',
  'does',
  'do',
  'did',
  'will',
  'can',
]);
