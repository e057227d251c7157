import { readFileSync } from 'node:fs';
import { stem } from '../search/lexical.ts';
import { IRREGULAR } from './lexicon.ts';
import { wordNet } from './wordnet.ts';

/** How a quantity is bounded: `at least`, `up to`, `about`, or exact (undefined). */
export type FactBound = 'min' | 'max' | 'about' | undefined;

/**
 * The words a fact is read from (`fact.ts`): tokens, the word lists of the statement shapes, verb
 * forms and the canonical keys of subjects and relations.
 */

export interface Tok {
  raw: string;
  low: string;
  start: number;
  end: number;
}

const TOKEN = /<[A-Z_]+[0-9a-f]*>|[$€£]?\d[\d,]*(?:\.\d+)?%?|[\p{L}\p{N}]+(?:[-.'’][\p{L}\p{N}]+)*|['’]s\b/gu;
export const COPULAS = new Set(['is', 'are', 'was', 'were']);
export const PAST_COPULAS = new Set(['was', 'were']);
export const DETERMINERS = new Set([
  'the',
  'a',
  'an',
  'this',
  'that',
  'these',
  'those',
  'its',
  'their',
  'our',
  'my',
  'your',
]);
export const AUX = new Set([
  'do',
  'does',
  'did',
  'will',
  'would',
  'can',
  'could',
  'has',
  'have',
  'had',
  'shall',
  'should',
  'may',
  'might',
  'must',
  'be',
  'been',
  'being',
]);
export const NEGATORS = new Set(['not', 'never', 'no']);
export const PREPOSITIONS = new Set([
  'in',
  'at',
  'on',
  'to',
  'for',
  'from',
  'with',
  'of',
  'by',
  'into',
  'near',
  'under',
  'over',
  'as',
]);
export const MONTHS = new Set(
  'january february march april may june july august september october november december jan feb mar apr jun jul aug sep sept oct nov dec'.split(
    ' ',
  ),
);
export const WEEKDAYS = new Set(
  'monday tuesday wednesday thursday friday saturday sunday weekday weekdays weekend weekends'.split(' '),
);
export const RELATIVE_TIMES = new Set(['this', 'next', 'last']);
export const TIME_UNITS = new Set([
  'week',
  'month',
  'year',
  'quarter',
  'weekend',
  'morning',
  'afternoon',
  'evening',
  'night',
  'season',
  'summer',
  'winter',
  'spring',
  'autumn',
]);
export const TIME_WORDS = new Set([
  'today',
  'yesterday',
  'tomorrow',
  'now',
  'currently',
  'formerly',
  'previously',
  'recently',
  'nowadays',
]);
export const TIME_PREPOSITIONS = new Set([
  'in',
  'since',
  'until',
  'till',
  'before',
  'after',
  'during',
  'as',
  'from',
  'by',
]);
export const SCOPE_OPENERS = new Set([
  'for',
  'except',
  'outside',
  'inside',
  'within',
  'when',
  'if',
  'unless',
  'per',
]);
export const BOUNDS: ReadonlyArray<[string[], FactBound]> = [
  [['at', 'least'], 'min'],
  [['more', 'than'], 'min'],
  [['over'], 'min'],
  [['up', 'to'], 'max'],
  [['at', 'most'], 'max'],
  [['less', 'than'], 'max'],
  [['under'], 'max'],
  [['about'], 'about'],
  [['around'], 'about'],
  [['approximately'], 'about'],
  [['roughly'], 'about'],
  [['nearly'], 'about'],
  [['almost'], 'about'],
];
/** Relations that hold one value at a time for a subject (a thing is owned, priced, located once). */
export const FUNCTIONAL_VERBS: ReadonlySet<string> = new Set(
  (
    'own manage maintain operate lead head found create author invent chair host locate base bear live reside ' +
    'price cost marry govern belong weigh measure employ'
  )
    .split(' ')
    .map(stem),
);
/** Relations with one name: the key every spelling of them reads as. */
const RELATION_SYNONYMS: Readonly<Record<string, string>> = {
  cost: 'price',
  costs: 'price',
  reside: 'live',
  home: 'live',
  base: 'live',
  locate: 'location',
  situate: 'location',
  bear: 'birth',
  born: 'birth',
  birthplace: 'birth',
  manage: 'manage',
};
/** Generic heads a subject may carry or drop ("the Pro plan" / "Pro"); nothing else may differ. */
export const GENERIC_HEADS = new Set([
  'plan',
  'team',
  'service',
  'company',
  'product',
  'project',
  'system',
  'app',
  'city',
  'country',
  'tier',
]);
/** Subjects that say nothing by themselves ("There is", "It is"): no reading. */
export const PRONOUNS = new Set([
  'there',
  'it',
  'this',
  'that',
  'he',
  'she',
  'they',
  'we',
  'i',
  'you',
  'someone',
  'something',
  'nobody',
  'everyone',
]);
/** A reading is attempted on statements of at most this many words. */
export const MAX_FACT_WORDS = 40;

export function tokens(text: string): Tok[] {
  const out: Tok[] = [];
  for (const m of text.matchAll(TOKEN)) {
    const raw = m[0];
    const possessive = /^(.+)(['’]s)$/u.exec(raw);
    if (possessive && !raw.startsWith('<')) {
      const word = possessive[1]!;
      out.push({ raw: word, low: word.toLowerCase(), start: m.index, end: m.index + word.length });
      out.push({ raw: possessive[2]!, low: "'s", start: m.index + word.length, end: m.index + raw.length });
      continue;
    }
    out.push({ raw, low: raw.toLowerCase(), start: m.index, end: m.index + raw.length });
  }
  return out;
}

/** compromise's tags of the words that are verb forms, as `verb-tags.json` holds them. */
export interface VerbTags {
  source: string;
  tags: Record<string, string>;
}

let verbTags: Map<string, string> | undefined;

/**
 * compromise's lexicon: which words are verb forms (present, past, infinitive, participle). Read
 * from `verb-tags.json` (scripts/build-lexicons.ts), so that the server does not load compromise.
 */
export function verbTagOf(word: string): string | undefined {
  if (!verbTags) {
    const file = JSON.parse(readFileSync(new URL('./verb-tags.json', import.meta.url), 'utf8')) as VerbTags;
    verbTags = new Map(Object.entries(file.tags));
  }
  return verbTags.get(word);
}

const lemmas = new Map<string, string | null>();
const AUX_LEMMAS: Readonly<Record<string, string>> = { has: 'have', had: 'have', does: 'do', did: 'do' };

/** Whether WordNet lists `form` itself (not a form of it) as a verb. */
export function isVerb(form: string): boolean {
  return (wordNet().senses('v', form)?.length ?? 0) > 0;
}

/** The verb a form is of ("lives" → "live", "owned" → "own", "ran" → "run"), or null. */
export function verbLemma(word: string): string | null {
  const w = word.toLowerCase();
  const cached = lemmas.get(w);
  if (cached !== undefined) return cached;
  const candidates = [AUX_LEMMAS[w] ?? IRREGULAR[w] ?? w];
  if (w.endsWith('ies')) candidates.push(`${w.slice(0, -3)}y`);
  if (w.endsWith('es')) candidates.push(w.slice(0, -2));
  if (w.endsWith('s') && !w.endsWith('ss')) candidates.push(w.slice(0, -1));
  for (const suffix of ['ing', 'ed', 'd', 'en', 'n']) {
    if (!w.endsWith(suffix) || w.length - suffix.length < 2) continue;
    const base = w.slice(0, -suffix.length);
    candidates.push(base, `${base}e`);
    if (base.length > 2 && base.at(-1) === base.at(-2)) candidates.push(base.slice(0, -1));
    if (base.endsWith('i')) candidates.push(`${base.slice(0, -1)}y`);
  }
  let found: string | null = null;
  for (const c of candidates) {
    if (c.length > 1 && isVerb(c)) {
      found = c;
      break;
    }
  }
  if (lemmas.size > 16_384) lemmas.clear();
  lemmas.set(w, found);
  return found;
}

/** A word written as a verb form: a present or past inflection, or a known irregular past. */
export function inflectedVerb(t: Tok): boolean {
  if (!/^\p{Ll}+$/u.test(t.raw)) return false;
  const tag = verbTagOf(t.low);
  if (tag && /PresentTense|PastTense/.test(tag)) return true;
  if (/(?:[^s]s|ed)$/.test(t.low) && !DETERMINERS.has(t.low)) {
    const base = verbLemma(t.low);
    return base !== null && base !== t.low;
  }
  return false;
}

export function bareVerb(t: Tok): boolean {
  return /^\p{Ll}+$/u.test(t.raw) && verbTagOf(t.low)?.includes('Infinitive') === true;
}

/** Canonical words of a phrase: determiners and possessive marks dropped, stemmed. */
export function phraseKey(toks: readonly Tok[]): string[] {
  return toks
    .filter((t) => !DETERMINERS.has(t.low) && !/^['’]s$/.test(t.low))
    .map((t) => (t.low.startsWith('<') ? t.low : stem(IRREGULAR[t.low] ?? t.low)));
}

/** A relation word as its verb where it is an agent noun ("owner" → "own"), synonyms joined. */
export function relationLemma(w: string): string {
  let base = w;
  const agent = /^(.{3,}?)(?:er|or|r)$/.exec(w);
  if (agent && verbLemma(w) === null) base = [agent[1]!, `${agent[1]}e`, w.slice(0, -1)].find(isVerb) ?? w;
  base = verbLemma(base) ?? base;
  return RELATION_SYNONYMS[base] ?? base;
}

/** The relation's canonical words, its head last. */
export function relationKey(words: readonly string[]): string[] {
  return words.filter((w) => !DETERMINERS.has(w) && !PREPOSITIONS.has(w)).map((w) => stem(relationLemma(w)));
}

/** A name: an identifier, a pseudonym, or a capitalised word (opening the sentence: one that is no common English word). */
export function isNameToken(t: Tok): boolean {
  if (t.raw.startsWith('<') || /\d/.test(t.raw) || /[-_]/.test(t.raw)) return true;
  if (!/^\p{Lu}/u.test(t.raw) || DETERMINERS.has(t.low)) return false;
  return t.start > 0 || !wordNet().isCommon(t.low);
}

export function slice(text: string, toks: readonly Tok[]): string {
  return toks.length === 0 ? '' : text.slice(toks[0]!.start, toks[toks.length - 1]!.end);
}
