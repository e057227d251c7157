import { createHmac } from 'node:crypto';
import ipaddr from 'ipaddr.js';
import { type CountryCode, findPhoneNumbersInText, isSupportedCountry } from 'libphonenumber-js/max';
import { secretScanner, shannonEntropy } from '../../../shared/secrets/secret-rules.ts';
import { findAddresses } from './addresses.ts';
import { IBAN_LENGTHS, ibanValid, luhnValid, ssnValid } from './checksums.ts';
import { findNames } from './names.ts';

/**
 * Personal data and secrets are replaced by typed placeholders before a claim is stored or
 * embedded. Every detector is linear in the text: patterns have bounded quantifiers or
 * consume whole runs, and the heavier checks (phone metadata, secret rules) only see short
 * windows around candidates.
 *
 * Person names (`names.ts`: compromise's name lexicon, WordNet's English words, the words
 * around a name) and street addresses (`addresses.ts`: the shapes of postal addresses) are
 * scrubbed too; the measurements behind them are in the ledger README ("PII").
 */

export interface ScrubOptions {
  /**
   * Region whose national phone formats are read without a country code (ISO 3166 alpha-2,
   * the account's `phone_region` setting); `US` when not given. Numbers with a `+` country
   * code are read in every region.
   */
  region?: CountryCode;
  /**
   * When set (the ledger sets the account id), each word of a person's name becomes a pseudonym
   * `<PERSON1a2b3c4d>`: the first 8 hex digits of HMAC-SHA256(key, the word in lower case), one
   * word to full-text indexes (a separate "PERSON" would match every scrubbed claim).
   * The same name gets the same pseudonym in a claim and in a query of the same account, so
   * "When did Caroline…" still finds Caroline's claims, and no name is stored. Without it a
   * name is `<PERSON>`. Pseudonyms are not anonymous: whoever knows the key can test guesses.
   */
  pseudonymKey?: string;
  /** Person names and street addresses are scrubbed unless these are false (bench:pii's baseline). */
  names?: boolean;
  addresses?: boolean;
}

export const DEFAULT_PHONE_REGION: CountryCode = 'US';

/** Whether `code` names a region libphonenumber has a numbering plan for. */
export function isPhoneRegion(code: string): code is CountryCode {
  return /^[A-Z]{2}$/.test(code) && isSupportedCountry(code);
}

export const PII_TYPES = [
  'EMAIL',
  'PHONE',
  'CARD',
  'IBAN',
  'SSN',
  'IP',
  'SECRET',
  'ADDRESS',
  'PERSON',
] as const;
export type PiiType = (typeof PII_TYPES)[number];

export interface PiiSpan {
  type: PiiType;
  start: number;
  end: number;
}

export interface ScrubResult {
  text: string;
  /** How many values of each type were replaced; values themselves are never reported. */
  found: Record<PiiType, number>;
  /**
   * With a pseudonym key: each pseudonym made and the word it stands for, as written, for the
   * ledger's encrypted name mapping (revealed to the owning account only). Never logged or stored
   * in plain text.
   */
  names: Array<{ pseudonym: string; word: string }>;
}

export const placeholder = (type: PiiType): string => `<${type}>`;

/** Accepted spans, kept sorted and disjoint so that an earlier (stronger) detector wins. */
class SpanSet {
  /** The spans of the detectors before the current one. */
  private settled: PiiSpan[] = [];
  /**
   * The current detector's: kept apart so that adding one stays cheap (a detector adds in order
   * of position, after all of the earlier ones' spans), and merged in when it is done.
   */
  private recent: PiiSpan[] = [];

  overlaps(start: number, end: number): boolean {
    return overlapsIn(this.settled, start, end) || overlapsIn(this.recent, start, end);
  }

  add(span: PiiSpan): boolean {
    if (span.end <= span.start || this.overlaps(span.start, span.end)) return false;
    const recent = this.recent;
    if (recent.length === 0 || recent[recent.length - 1]!.end <= span.start) recent.push(span);
    else recent.splice(firstEndingAfter(recent, span.start), 0, span);
    return true;
  }

  /** Every span so far, sorted; the current detector's are merged in. */
  settle(): PiiSpan[] {
    if (this.recent.length === 0) return this.settled;
    const [a, b] = [this.settled, this.recent];
    const merged: PiiSpan[] = [];
    let i = 0;
    let j = 0;
    while (i < a.length || j < b.length) {
      if (j >= b.length || (i < a.length && a[i]!.start < b[j]!.start)) merged.push(a[i++]!);
      else merged.push(b[j++]!);
    }
    this.settled = merged;
    this.recent = [];
    return merged;
  }
}

/** Whether a span of `spans` (sorted, disjoint) overlaps `[start, end)`. */
function overlapsIn(spans: readonly PiiSpan[], start: number, end: number): boolean {
  const s = spans[firstEndingAfter(spans, start)];
  return s !== undefined && s.start < end;
}

function firstEndingAfter(spans: readonly PiiSpan[], pos: number): number {
  let lo = 0;
  let hi = spans.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (spans[mid]!.end <= pos) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

const before = (text: string, start: number, n: number): string => text.slice(Math.max(0, start - n), start);
const after = (text: string, end: number, n: number): string => text.slice(end, end + n);

/** Identifiers that are not personal data even when their digits look like a card or phone. */
const REFERENCE_CONTEXT =
  /\b(?:order|invoice|inv|tracking|ref|reference|confirmation|booking|ticket|case|isbn|serial|sku|po|part|model|build|release)\b(?:\s{1,3}(?:number|num|no\.?|id))?[\s#:.-]{0,6}(?:is\s{1,3})?$/i;

// --- email -------------------------------------------------------------------------------

const LOCAL_CHAR = /[A-Za-z0-9._%+'-]/;
const DOMAIN_RUN = /[A-Za-z0-9.-]{1,253}/y;

function findEmails(text: string, out: SpanSet): void {
  for (let at = text.indexOf('@'); at >= 0; at = text.indexOf('@', at + 1)) {
    let start = at;
    while (start > 0 && at - start < 64 && LOCAL_CHAR.test(text[start - 1]!)) start--;
    while (start < at && text[start] === '.') start++;
    if (start === at) continue;
    DOMAIN_RUN.lastIndex = at + 1;
    const run = DOMAIN_RUN.exec(text);
    if (!run) continue;
    const domain = run[0].replace(/[.-]+$/, '');
    const labels = domain.split('.');
    const tld = labels[labels.length - 1] ?? '';
    if (labels.length < 2 || !/^(?:[A-Za-z]{2,63}|xn--[A-Za-z0-9-]{1,59})$/.test(tld)) continue;
    if (labels.some((l) => l === '' || l.startsWith('-') || l.endsWith('-'))) continue;
    out.add({ type: 'EMAIL', start, end: at + 1 + domain.length });
  }
}

// --- IBAN --------------------------------------------------------------------------------

const IBAN_START = /(?<![A-Za-z0-9])[A-Za-z]{2}\d{2}/g;

function findIbans(text: string, out: SpanSet): void {
  for (const m of text.matchAll(IBAN_START)) {
    const country = m[0].slice(0, 2).toUpperCase();
    const length = IBAN_LENGTHS[country];
    if (length === undefined) continue;
    // Printed IBANs are grouped by single spaces (or dashes); collect exactly `length` characters.
    let chars = m[0].toUpperCase();
    let i = m.index + 4;
    while (chars.length < length && i < text.length) {
      const c = text[i]!;
      if (/[A-Za-z0-9]/.test(c)) {
        chars += c.toUpperCase();
        i++;
      } else if ((c === ' ' || c === '-') && /[A-Za-z0-9]/.test(text[i + 1] ?? '')) {
        i++;
      } else {
        break;
      }
    }
    if (chars.length !== length || /[A-Za-z0-9]/.test(text[i] ?? '')) continue;
    if (ibanValid(chars)) out.add({ type: 'IBAN', start: m.index, end: i });
  }
}

// --- payment cards -------------------------------------------------------------------------

const CARD_CANDIDATE = /(?<![\d.,-])\d(?:[ -]?\d){11,18}(?![\d]|[.,]\d)/g;

function findCards(text: string, out: SpanSet): void {
  for (const m of text.matchAll(CARD_CANDIDATE)) {
    const digits = m[0].replace(/[ -]/g, '');
    // Issuer ranges in use: 2 (Mastercard 2-series, JCB 2131), 3-6, the JCB 1800 range and UATP (1, 15 digits).
    if (!/^[2-6]/.test(digits) && !digits.startsWith('1800') && !(digits[0] === '1' && digits.length === 15))
      continue;
    if (/^(\d)\1+$/.test(digits) || !luhnValid(digits)) continue;
    if (REFERENCE_CONTEXT.test(before(text, m.index, 24))) continue;
    out.add({ type: 'CARD', start: m.index, end: m.index + m[0].length });
  }
}

// --- US SSN --------------------------------------------------------------------------------

const SSN_CANDIDATE = /(?<![\d-])(\d{3})([-. ]?)(\d{2})\2(\d{4})(?![\d]|-\d)/g;
const SSN_CONTEXT = /\b(?:ssn|ssns|social\s+security|ss\s*#|ss\s+no|taxpayer|tin)\b/i;

function findSsns(text: string, out: SpanSet): void {
  for (const m of text.matchAll(SSN_CANDIDATE)) {
    const [whole, area, sep, group, serial] = m;
    if (!ssnValid(area!, group!, serial!)) continue;
    // Nine bare digits are as likely an order or account number: require the context to say SSN.
    if (sep === '' && !SSN_CONTEXT.test(before(text, m.index, 48))) continue;
    out.add({ type: 'SSN', start: m.index, end: m.index + whole.length });
  }
}

// --- IP addresses --------------------------------------------------------------------------

const IPV4_CANDIDATE = /(?<![\w.])\d{1,3}(?:\.\d{1,3}){3}(?!\w|\.\d)/g;
const IPV6_CANDIDATE =
  /(?<![\w:.])(?:[0-9A-Fa-f]{0,4}:){2,7}(?:\d{1,3}(?:\.\d{1,3}){3}|[0-9A-Fa-f]{0,4})(?:%[0-9A-Za-z]{1,15})?(?![\w:])/g;
const VERSION_CONTEXT = /(?:\bv|\bversion|\bver\.?|\brelease|\bbuild|\bupgrade[ds]?\s+to|@)\s*$/i;

function findIpv4s(text: string, out: SpanSet): void {
  for (const m of text.matchAll(IPV4_CANDIDATE)) {
    if (!ipaddr.IPv4.isValidFourPartDecimal(m[0])) continue;
    if (VERSION_CONTEXT.test(before(text, m.index, 16))) continue;
    out.add({ type: 'IP', start: m.index, end: m.index + m[0].length });
  }
}

function findIpv6s(text: string, out: SpanSet): void {
  for (const m of text.matchAll(IPV6_CANDIDATE)) {
    const bare = m[0].split('%')[0]!;
    if (!/[0-9A-Fa-f]/.test(bare) || !ipaddr.IPv6.isValid(bare)) continue;
    out.add({ type: 'IP', start: m.index, end: m.index + m[0].length });
  }
}

// --- phone numbers -------------------------------------------------------------------------

/** Phone-shaped runs: optional +CC, optional (area), digit groups, optional extension. */
const PHONE_SHAPE =
  /(?<![\w+./-])(?:\+\d{1,3}[ .-]?)?(?:\(\d{1,5}\)[ .-]?)?\d{1,12}(?:[ .-]\d{1,12}){0,5}(?:[ ]?(?:x|ext\.?)[ ]?\d{1,6})?(?![\w]|[.,/]\d)/g;
const PHONE_CONTEXT_BEFORE =
  /\b(?:(?:my|your|his|her|their|our)\s+(?:[a-z]+\s+){0,2}number|phone|tel|telephone|mobile|cell|cellphone|fax|desk|office|home|work|call|calls|calling|text|sms|whatsapp|contact|dial|reach|reached|answering|messages?|hotline|landline|registered)\b[^\n\d]{0,24}\n?[^\n\d]{0,4}$/i;
const PHONE_CONTEXT_AFTER = /^[\s-]{0,3}\(?(?:office|mobile|cell|fax|home|work|desk|phone|tel)\b/i;
const DATE_OR_TIME =
  /^(?:\d{4}[-./]\d{1,2}[-./]\d{1,2}|\d{1,2}[-./]\d{1,2}[-./]\d{2,4}|\d{1,2}:\d{2}(?::\d{2})?)$/;

/**
 * A national number with a trunk prefix, printed in groups: "020 7946 0958", "030 901820",
 * "06-12345678". Most regions outside North America dial national numbers with a leading 0,
 * and NANP numbers never start with one, so this shape is a phone number in whichever region
 * the text comes from (checking each region's plan would cost ~12 ms a number).
 */
const TRUNK_NATIONAL = /^\(?0[1-9]\d{0,4}\)?(?:[ .-]\d{2,8}){1,5}$/;

/**
 * Candidates one text hands to libphonenumber's matcher, which costs ~0.35 ms a call (~9 ms a KB
 * of digit groups: 10,000 characters of `12 12 12 …` held a store 137 ms). Past it a candidate of
 * 10 to 15 digits is taken for a number unread (scrubbing too much, never too little), and a
 * shorter one only with a phone word beside it. An ordinary text has a handful.
 */
export const MAX_PHONE_MATCHER_CALLS = 64;

function findPhones(text: string, out: SpanSet, region: CountryCode): void {
  let matcherCalls = 0;
  for (const m of text.matchAll(PHONE_SHAPE)) {
    const start = m.index;
    const end = start + m[0].length;
    const digitCount = m[0].replace(/\D/g, '').length;
    if (digitCount < 7 || digitCount > 15 || out.overlaps(start, end)) continue;
    if (DATE_OR_TIME.test(m[0]) || REFERENCE_CONTEXT.test(before(text, start, 24))) continue;
    if (matcherCalls >= MAX_PHONE_MATCHER_CALLS) {
      if (digitCount >= 10) {
        out.add({ type: 'PHONE', start, end });
        continue;
      }
    } else {
      matcherCalls++;
      // libphonenumber's matcher validates the number against each country's numbering plan;
      // a few characters either side let it see a leading '+' or '(' and the number's boundaries.
      const from = Math.max(0, start - 4);
      for (const f of findPhoneNumbersInText(text.slice(from, end + 4), { defaultCountry: region })) {
        out.add({ type: 'PHONE', start: from + f.startsAt, end: from + f.endsAt });
      }
      if (out.overlaps(start, end)) continue;
    }
    const national = m[0].replace(/\s*(?:x|ext\.?)\s*\d+$/, '');
    if (digitCount >= 9 && digitCount <= 12 && TRUNK_NATIONAL.test(national)) {
      out.add({ type: 'PHONE', start, end });
      continue;
    }
    // Local numbers without a country code fail plan validation; the surrounding words decide.
    if (
      PHONE_CONTEXT_BEFORE.test(before(text, start, 40)) ||
      PHONE_CONTEXT_AFTER.test(after(text, end, 12))
    ) {
      out.add({ type: 'PHONE', start, end });
    }
  }
}

// --- secrets -------------------------------------------------------------------------------

/** A character of a base62/64 token (what `[A-Za-z0-9+/_=-]` matches). */
const isTokenChar = (c: number): boolean =>
  (c >= 48 && c <= 57) ||
  ((c | 32) >= 97 && (c | 32) <= 122) ||
  c === 43 ||
  c === 47 ||
  c === 95 ||
  c === 61 ||
  c === 45;
/** Shortest token looked at. */
const MIN_TOKEN = 24;
/** Random base62/64 tokens of 24+ chars average over 4.2 bits per char; prose identifiers stay below. */
export const TOKEN_ENTROPY_THRESHOLD = 4.2;

function findSecrets(text: string, out: SpanSet): void {
  for (const m of secretScanner().scan(text)) out.add({ type: 'SECRET', start: m.start, end: m.end });
}

/** Whole runs of token characters, 24 or more: one pass, where a regular expression retried each word at each of its characters. */
function findHighEntropyTokens(text: string, out: SpanSet): void {
  for (let start = 0; start < text.length; ) {
    if (!isTokenChar(text.charCodeAt(start))) {
      start++;
      continue;
    }
    let end = start + 1;
    while (end < text.length && isTokenChar(text.charCodeAt(end))) end++;
    if (end - start >= MIN_TOKEN && end - start <= 4096) {
      const token = text.slice(start, end);
      if (
        /[a-z]/.test(token) &&
        /[A-Z]/.test(token) &&
        /\d/.test(token) &&
        shannonEntropy(token) >= TOKEN_ENTROPY_THRESHOLD
      )
        out.add({ type: 'SECRET', start, end });
    }
    start = end;
  }
}

// --- public API ----------------------------------------------------------------------------

type Detector = (text: string, out: SpanSet, options: ScrubOptions) => void;

/**
 * The detectors in order of priority (a span claimed by an earlier one is not reconsidered), each
 * with what a text must hold for it to find anything: most need a digit, IPv6 a colon. (E-mail
 * addresses are looked for at each "@", secrets near their rules' keywords, streets at numbers.)
 */
const DETECTORS: readonly { detect: Detector; needs?: 'digit' | 'colon' }[] = [
  { detect: findSecrets },
  { detect: findEmails },
  { detect: findIbans, needs: 'digit' },
  { detect: findCards, needs: 'digit' },
  { detect: findSsns, needs: 'digit' },
  { detect: findIpv4s, needs: 'digit' },
  { detect: findIpv6s, needs: 'colon' },
  {
    detect: (text, out, options) => {
      if (options.addresses !== false)
        for (const a of findAddresses(text)) out.add({ type: 'ADDRESS', ...a });
    },
  },
  {
    detect: (text, out, options) => findPhones(text, out, options.region ?? DEFAULT_PHONE_REGION),
    needs: 'digit',
  },
  { detect: findHighEntropyTokens, needs: 'digit' },
  {
    detect: (text, out, options) => {
      if (options.names !== false) for (const n of findNames(text)) out.add({ type: 'PERSON', ...n });
    },
  },
];

/** All detected spans in `text`, sorted by position, with offsets into `text`. */
export function detectPii(text: string, options: ScrubOptions = {}): PiiSpan[] {
  const spans = new SpanSet();
  const holds = { digit: /\d/.test(text), colon: text.includes(':') };
  for (const { detect, needs } of DETECTORS) {
    if (needs !== undefined && !holds[needs]) continue;
    detect(text, spans, options);
    spans.settle();
  }
  return spans.settle();
}

export function emptyCounts(): Record<PiiType, number> {
  const counts = {} as Record<PiiType, number>;
  for (const t of PII_TYPES) counts[t] = 0;
  return counts;
}

/** Each word of a name (initials dropped) with its `<PERSON…>` pseudonym, a possessive kept after it. */
export function pseudonymWords(
  name: string,
  key: string,
): Array<{ word: string; pseudonym: string; possessive: string }> {
  const out: Array<{ word: string; pseudonym: string; possessive: string }> = [];
  for (const word of name.split(/\s+/)) {
    const possessive = /['’]s$/.exec(word)?.[0] ?? '';
    const bare = word.slice(0, word.length - possessive.length).replace(/\.$/, '');
    if (bare.length < 2) continue;
    const digest = createHmac('sha256', key).update(bare.normalize('NFC').toLowerCase()).digest('hex');
    out.push({ word: bare, pseudonym: `<PERSON${digest.slice(0, 8)}>`, possessive });
  }
  return out;
}

/** `<PERSON…>` for each word of a name (initials dropped), a possessive kept after it. */
export function pseudonyms(name: string, key: string): string {
  const words = pseudonymWords(name, key);
  return words.length > 0 ? words.map((w) => w.pseudonym + w.possessive).join(' ') : placeholder('PERSON');
}

export function scrub(text: string, options: ScrubOptions = {}): ScrubResult {
  const found = emptyCounts();
  let result = '';
  let last = 0;
  const names: ScrubResult['names'] = [];
  for (const span of detectPii(text, options)) {
    let replacement = placeholder(span.type);
    if (span.type === 'PERSON' && options.pseudonymKey !== undefined) {
      const words = pseudonymWords(text.slice(span.start, span.end), options.pseudonymKey);
      for (const w of words) names.push({ pseudonym: w.pseudonym, word: w.word });
      if (words.length > 0) replacement = words.map((w) => w.pseudonym + w.possessive).join(' ');
    }
    result += text.slice(last, span.start) + replacement;
    found[span.type] += 1;
    last = span.end;
  }
  return { text: result + text.slice(last), found, names };
}
