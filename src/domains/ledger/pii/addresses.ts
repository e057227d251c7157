/**
 * Street addresses, by the shapes postal addresses take rather than by a place list:
 *
 * - a house number and a street whose name ends in a street type ("615 Benedum Drive",
 *   "22 Pollen Crescent", "35 Pentelis Str.") or starts with one ("31 Rue Al Imam Al Bakri",
 *   "Avda. Rio Nalon 58", "ul. Północna 73");
 * - a street name whose last word carries a street type as a suffix, then a house number
 *   ("Koskikatu 25", "Pfarrgasse 91", "Populierenstraat 374", "Trenerys gate 232");
 * - a number, capitalised words and a number on one line, the continental order with a
 *   building number in front ("0138 Brisas 6802", "20789 Allika 46");
 * - US military addresses ("PSC 5420, Box 2708", "Unit 5146 Box 1772", "USS Mahler", then
 *   "APO AE 91410");
 * - unit designators ("Apt. 864", "Suite 501").
 *
 * A found street extends over the lines of the same address block that follow it (unit,
 * city, region, country, postcode: short lines without sentence punctuation), so the whole
 * block is scrubbed. Each pattern is bounded (at most six words, five lines), so the scan is
 * linear in the text.
 */

export interface AddressSpan {
  start: number;
  end: number;
}

/** Street types that follow the name (USPS suffixes and their British and Commonwealth kin). */
const SUFFIX_TYPES =
  'street|st|road|rd|avenue|ave|av|lane|ln|drive|dr|court|ct|place|pl|boulevard|blvd|way|crescent|cres|close|terrace|' +
  'square|sq|parkway|pkwy|highway|hwy|circle|cir|trail|trl|mall|lodge|turnpike|tpke|greens?|gardens?|park|row|hill|' +
  'grove|walk|mews|alley|plaza|path|pike|loop|ridge|heights|crossing|junction|manor|parade|quay|wharf|rise|vale|' +
  'u|view|expressway|freeway|causeway|esplanade|promenade|str|straße|strasse|gate|vej|gade|gata|gatan|vegen|veien|' +
  'vägen|väg|tie|katu|kuja|utca|út|tér|körút|sokak|caddesi|ulica';
/** Street types that come first ("Rue …", "Calle …", "ul. …"). */
const PREFIX_TYPES =
  'rue|avenue|av|avda|avenida|calle|c/|carrer|via|viale|piazza|corso|rua|travessa|estrada|ul|ulica|al|aleja|' +
  'plac|bd|boulevard|chemin|route|place|allée|impasse|quai|strada|odos|odós|leoforos|ulitsa|prospekt';
/** Street types written as the end of one word ("Koskikatu", "Pfarrgasse", "Ringvej"). */
const COMPOUND_SUFFIXES =
  'straße|strasse|str\\.|gasse|weg|platz|allee|damm|straat|laan|plein|gracht|dreef|kade|singel|vej|gade|' +
  'gata|gatan|vägen|väg|veien|vegen|stien|katu|tie|kuja|polku|tori|utca|tér|út|sokak|caddesi|ulica|ulice|tänav|iela|gatve';

/** An alternation matching each word lower-case, capitalised or upper-case (no `i` flag: names must start upper-case). */
const anyCase = (words: string): string =>
  words
    .split('|')
    .flatMap((w) => [w, w[0]!.toUpperCase() + w.slice(1), w.toUpperCase()])
    .join('|');

const NUM = '\\d{1,6}[A-Za-z]?';
const NAME_WORD = "[\\p{Lu}\\d][\\p{L}\\p{M}'.’-]{0,30}";
const ANY_WORD = "[\\p{L}\\p{M}\\d][\\p{L}\\p{M}'.’-]{0,30}";

/**
 * Where a pattern's matches can start, so that it is tried there alone, as a sticky expression:
 * that finds what a scan of every position finds, at a fraction of the cost (a scan tries each
 * position's look-behind and long alternations). Most street shapes start at a number (the start
 * of a digit run). The others end in " <number>" with at most four spaces and 300 characters
 * before it: they are tried where a word may start in that stretch before each such number
 * (only the numbers `anchor` accepts). The rest are scanned.
 */
type Start = 'number' | { before: 'number'; anchor?: (text: string, space: number) => boolean } | 'scan';

interface StreetPattern {
  re: RegExp;
  start: Start;
  /** A cheap test that fails only on texts the pattern cannot match. */
  possible?: (text: string) => boolean;
}

/** Spaces and characters a "before a number" match holds at most ahead of the space before the number. */
const MAX_SPACES_BEFORE_NUMBER = 4;
const MAX_CHARS_BEFORE_NUMBER = 300;

/** Before " 25" in "Koskikatu 25": one of the compound street types ends the word. */
const COMPOUND_BEFORE_NUMBER = new RegExp(`(?:${anyCase(COMPOUND_SUFFIXES)})$`, 'u');
const compoundBefore = (text: string, space: number): boolean =>
  COMPOUND_BEFORE_NUMBER.test(text.slice(Math.max(0, space - 10), space));

const STREET_PATTERNS: StreetPattern[] = [
  // 615 Benedum Drive; 3369 24 Clarke Avenue
  {
    re: new RegExp(
      `(?<![\\p{L}\\p{N}])${NUM}(?:[ ]${NUM})?[ ](?:${NAME_WORD}[ ]){1,4}(?:${anyCase(SUFFIX_TYPES)})\\.?(?![\\p{L}\\p{N}])`,
      'uy',
    ),
    start: 'number',
  },
  // 26 rue des lieutenants Thomazo; 31 Rue Al Imam Al Bakri
  {
    re: new RegExp(
      `(?<![\\p{L}\\p{N}])${NUM}[ ](?:${anyCase(PREFIX_TYPES)})\\.?(?:[ ]${ANY_WORD}){0,3}[ ]${NAME_WORD}(?![\\p{L}\\p{N}])`,
      'uy',
    ),
    start: 'number',
  },
  // Avda. Rio Nalon 58; ul. Północna 73
  {
    re: new RegExp(
      `(?<![\\p{L}\\p{N}])(?:${anyCase(PREFIX_TYPES)})\\.?[ ](?:${NAME_WORD}[ ]){1,4}${NUM}(?![\\p{L}\\p{N}])`,
      'uy',
    ),
    start: { before: 'number' },
  },
  // Koskikatu 25; Trenerys gate 232; Rákóczi út 66.
  {
    re: new RegExp(
      `(?<![\\p{L}\\p{N}])(?:${NUM}[ ])?(?:${NAME_WORD}[ ]){0,3}(?:\\p{Lu}[\\p{L}\\p{M}-]{2,30})?(?:${anyCase(COMPOUND_SUFFIXES)})[ ]${NUM}(?![\\p{L}\\p{N}])`,
      'uy',
    ),
    start: { before: 'number', anchor: compoundBefore },
  },
  // 0138 Brisas 6802; 20789 Allika 46; 10252 Μεγάλη Άμμος 184
  {
    re: new RegExp(
      `(?<![\\p{L}\\p{N}.,:/-])${NUM}[ ](?:\\p{Lu}[\\p{Ll}\\p{M}'.’-]{1,30}[ ]){1,4}${NUM}(?=[ ]*(?:$|[,\\n]))`,
      'muy',
    ),
    start: 'number',
  },
  // PSC 5420, Box 2708; Unit 5146 Box 1772; USS Mahler (then FPO)
  { re: /\b(?:PSC|Unit|CMR)[ ]\d{3,5},?[ ]Box[ ]\d{3,5}\b/gi, start: 'scan' },
  { re: /\bUS(?:S|NS|NV|CGC)[ ]\p{Lu}[\p{L}]{1,30}(?=\s{1,3}FPO\b)/gu, start: 'scan' },
  // the corner of Dalbraut 99 and Frederikke Coves
  {
    re: /\b(?:the )?corner of [^.,;!?\n]{3,60}? and [^.,;!?\n]{3,60}(?=[.,;!?\n]|$)/gu,
    start: 'scan',
    possible: (text) => text.includes('corner of '),
  },
  { re: /\b[AFD]PO[ ]A[AEP][ ]\d{5}\b/gi, start: 'scan' },
  // Apt. 864; Suite 501
  { re: /\b(?:Apt\.?|Apartment|Suite|Ste\.)[ ]#?\d{1,5}[A-Z]?\b/gi, start: 'scan' },
];

const isDigit = (c: number): boolean => c >= 48 && c <= 57;
const isAsciiAlnum = (c: number): boolean => isDigit(c) || ((c | 32) >= 97 && (c | 32) <= 122);

/** Where the text's numbers start, and the spaces right before a digit ("Koskikatu| 25"). */
interface Numbers {
  starts: number[];
  spaces: number[];
}

function numbersOf(text: string): Numbers {
  const starts: number[] = [];
  const spaces: number[] = [];
  let previous = -1;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (isDigit(c)) {
      if (!isDigit(previous)) starts.push(i);
      if (previous === 32) spaces.push(i - 1);
    }
    previous = c;
  }
  return { starts, spaces };
}

/** Tries `re` at `at`; the end of its match, or -1. */
function stickyAt(re: RegExp, text: string, at: number, out: AddressSpan[]): number {
  re.lastIndex = at;
  const m = re.exec(text);
  if (m === null) return -1;
  out.push({ start: at, end: at + m[0].length });
  return at + m[0].length;
}

/** What a scan of `text` with `p` finds, each match as a span. */
function matchesOf(p: StreetPattern, text: string, numbers: Numbers, out: AddressSpan[]): void {
  if (p.possible && !p.possible(text)) return;
  const { start } = p;
  if (start === 'scan') {
    for (const m of text.matchAll(p.re)) out.push({ start: m.index, end: m.index + m[0].length });
    return;
  }
  let from = 0;
  if (start === 'number') {
    for (const at of numbers.starts) if (at >= from) from = Math.max(from, stickyAt(p.re, text, at, out));
    return;
  }
  for (const space of numbers.spaces) {
    if (space < from || (start.anchor && !start.anchor(text, space))) continue;
    // Back over at most MAX_SPACES_BEFORE_NUMBER spaces: a match holds no more before the number.
    let first = space;
    for (let spaces = 0; first > 0 && space - first < MAX_CHARS_BEFORE_NUMBER; first--) {
      if (text.charCodeAt(first - 1) === 32 && ++spaces > MAX_SPACES_BEFORE_NUMBER) break;
    }
    // Every place a word may start (a superset: the expression's look-behind decides). A place
    // before `first` starts no match: it is in no later number's stretch either.
    for (let at = Math.max(first, from); at < space; at++) {
      const c = text.charCodeAt(at);
      if (at > 0 && isAsciiAlnum(text.charCodeAt(at - 1))) continue;
      if (c < 128 && !isAsciiAlnum(c)) continue;
      const end = stickyAt(p.re, text, at, out);
      if (end >= 0) {
        from = end;
        at = end - 1;
      }
    }
    from = Math.max(from, space);
  }
}

/** A following line that belongs to the same address block. */
const BLOCK_LINE =
  /^[ \t]{0,8}(?:[>?]{1,3}[ \t]{0,4})?(?:,[ ]?)?(?:(?:Apt\.?|Suite|Unit|Box|Ste\.)[ ]#?\d{1,5}|[\p{L}\p{M}'.’ -]{2,40}(?:,?[ ]{1,3}[A-Z]{2})?(?:[ ]{1,3}\d{4,6}(?:-\d{4})?)?|\d{4,6})[ \t]*$/u;

/**
 * The first line break at or after a position, for positions asked in ascending order: each
 * break is searched for once, so a long text without one is not read again for every street.
 */
function lineBreaks(text: string): (at: number) => number {
  let from = 0;
  let found = text.indexOf('\n');
  return (at) => {
    if (at < from || (found >= 0 && at > found)) {
      from = at;
      found = text.indexOf('\n', at);
    }
    return found;
  };
}

function extendBlock(text: string, end: number, lineBreakFrom: (at: number) => number): number {
  let at = end;
  // The rest of the street's own line when it goes on with a unit, or with a comma into the
  // city, region and country ("…, Beder, Denmark 56905").
  const restEnd = lineBreakFrom(at);
  const rest = text.slice(at, restEnd < 0 ? text.length : restEnd);
  const unit = /^[ ,]{1,3}(?:Apt\.?|Apartment|Suite|Unit|Ste\.)[ ]#?\d{1,5}[A-Z]?/.exec(rest);
  if (unit) at += unit[0].length;
  const tail =
    /^(?:,[ ]{0,2}[\p{L}\p{M}][\p{L}\p{M}'’.-]*(?:[ ][\p{L}\p{M}\d][\p{L}\p{M}\d'’.-]*){0,3}){1,4}/u.exec(
      text.slice(at, restEnd < 0 ? text.length : restEnd),
    );
  if (tail) at += tail[0].length;
  for (let lines = 0, blank = 0; lines < 5 && at < text.length; ) {
    if (text[at] !== '\n') break;
    const next = lineBreakFrom(at + 1);
    const line = text.slice(at + 1, next < 0 ? text.length : next);
    if (line.trim() === '') {
      if (++blank > 1) break;
      at = next < 0 ? text.length : next;
      continue;
    }
    if (line.length > 60 || !BLOCK_LINE.test(line)) break;
    at = at + 1 + line.trimEnd().length;
    lines++;
  }
  return at;
}

export function findAddresses(text: string): AddressSpan[] {
  const spans: AddressSpan[] = [];
  const numbers = numbersOf(text);
  for (const pattern of STREET_PATTERNS) matchesOf(pattern, text, numbers, spans);
  spans.sort((a, b) => a.start - b.start || b.end - a.end);
  const merged: AddressSpan[] = [];
  for (const s of spans) {
    const last = merged[merged.length - 1];
    if (last && s.start <= last.end) last.end = Math.max(last.end, s.end);
    else merged.push({ ...s });
  }
  const lineBreakFrom = lineBreaks(text);
  for (const s of merged) s.end = Math.max(s.end, extendBlock(text, s.end, lineBreakFrom));
  // Extension can reach the next span: merge again.
  const out: AddressSpan[] = [];
  for (const s of merged) {
    const last = out[out.length - 1];
    if (last && s.start <= last.end) last.end = Math.max(last.end, s.end);
    else out.push(s);
  }
  return out;
}
