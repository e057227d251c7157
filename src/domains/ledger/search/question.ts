import { questionAbout } from '../conflicts/fact.ts';
import { normaliseWords } from '../embeddings/hash.ts';
import { isStopword } from './lexical.ts';

/**
 * Questions against statements. A question and the statement that answers it share little
 * wording ("where is the office?" / "The office is in Lyon.") and embed further apart than two
 * paraphrases, so search reads the query for three things a statement can be checked for:
 *
 * - what kind of answer it asks for (`where` → a place, `when` → a time, `how long` → a duration,
 *   `how many` / `how much` → a quantity, `who` → a person);
 * - the names and numbers it mentions (entities: "Caroline", "LGBTQ", "2023"), which a statement
 *   about the same thing repeats far more often than it repeats the rest of the wording;
 * - that a negated statement ("The office is not in Paris.") says where something is not, so it
 *   is not the answer to "where", "when" or "who".
 *
 * Pure and linear in the text; no lexicon beyond the few closed word classes below.
 */

export type AnswerType = 'place' | 'time' | 'duration' | 'quantity' | 'person';

export interface QueryAnalysis {
  /** Asks something (a question mark, or opens with a question word or an auxiliary). */
  question: boolean;
  /** The kind of answer a wh-question asks for; null for yes/no questions, open "what" and statements. */
  answerType: AnswerType | null;
  /** Names, acronyms and numbers of the query, lower-cased as `normaliseWords` spells them. */
  entities: string[];
  /** The subject and relation a question asks about ("What is the capital of Peru?" → Peru, capital), or null. */
  about: { subjectKey: string[]; relationKey: string[] } | null;
}

const WH = new Set(['what', 'which', 'where', 'when', 'who', 'whom', 'whose', 'why', 'how']);
const AUXILIARIES = new Set([
  'is',
  'are',
  'was',
  'were',
  'do',
  'does',
  'did',
  'can',
  'could',
  'will',
  'would',
  'should',
  'has',
  'have',
  'had',
  'may',
  'might',
  'must',
  'shall',
]);
const TIME_NOUNS = new Set([
  'time',
  'day',
  'date',
  'year',
  'month',
  'week',
  'hour',
  'hours',
  'days',
  'season',
]);
const PLACE_NOUNS = new Set([
  'city',
  'country',
  'town',
  'place',
  'state',
  'address',
  'location',
  'street',
  'office',
  'region',
  'continent',
]);

/** The answer type a question's opening asks for, e.g. "what city" → place, "how long" → duration. */
function answerTypeOf(words: readonly string[]): AnswerType | null {
  const at = words.findIndex((w) => WH.has(w));
  if (at < 0 || at > 2) return null;
  const wh = words[at]!;
  const next = words[at + 1] ?? '';
  if (wh === 'where') return 'place';
  if (wh === 'when') return 'time';
  if (wh === 'who' || wh === 'whom') return 'person';
  if (wh === 'how') {
    if (next === 'long' || next === 'soon') return 'duration';
    if (next === 'many' || next === 'much' || next === 'old' || next === 'often') return 'quantity';
    return null;
  }
  if (wh === 'what' || wh === 'which') {
    if (TIME_NOUNS.has(next)) return 'time';
    if (PLACE_NOUNS.has(next)) return 'place';
  }
  return null;
}

export function analyseQuery(query: string): QueryAnalysis {
  const words = normaliseWords(query);
  const first = words[0] ?? '';
  const question = /\?\s*$/.test(query) || WH.has(first) || AUXILIARIES.has(first);
  return {
    question,
    answerType: question ? answerTypeOf(words) : null,
    entities: entitiesOf(query),
    about: question ? questionAbout(query) : null,
  };
}

/**
 * Capitalised words that do not open a sentence, words in capitals ("HQ", "LGBTQ") and numbers,
 * lower-cased. "I" and the question and auxiliary words are never entities.
 */
export function entitiesOf(text: string): string[] {
  text = withoutPlaceholders(text);
  const found = new Set<string>();
  const re = /[\p{L}\p{N}][\p{L}\p{N}'’-]*/gu;
  let last = 0;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    const opening = last === 0 || /[.!?]/.test(text.slice(last, m.index));
    const word = m[0].replace(/['’](?:s|S)?$/, '');
    last = m.index + m[0].length;
    if (/\p{N}/u.test(word)) {
      for (const w of normaliseWords(word)) found.add(w);
      continue;
    }
    const lower = word.toLowerCase();
    if (lower === 'i' || WH.has(lower) || AUXILIARIES.has(lower)) continue;
    const capitals = /^\p{Lu}{2,}$/u.test(word);
    const capitalised = /^\p{Lu}/u.test(word);
    if (capitals || (capitalised && !opening && !isStopword(lower))) {
      for (const w of normaliseWords(word)) found.add(w);
    }
  }
  return [...found];
}

/**
 * The scrubber's placeholders ("<PERSON>", "<EMAIL>"…) stand for a different value in every
 * claim: as words they would match every scrubbed claim, so search reads them as blanks.
 */
export function withoutPlaceholders(text: string): string {
  return text.replace(/<[A-Z][A-Z_]*>/g, ' ');
}

const MONTHS =
  'january|february|march|april|may|june|july|august|september|october|november|december|jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec';
const WEEKDAYS = 'monday|tuesday|wednesday|thursday|friday|saturday|sunday|weekdays?|weekends?';
const UNITS = 'seconds?|minutes?|mins?|hours?|hrs?|days?|nights?|weeks?|months?|years?|decades?';
const NUMBER_WORDS =
  'one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|thirty|forty|fifty|hundred|thousand|million|billion|a few|several|a couple of|a dozen';

const TIME_RE = new RegExp(
  `\\b(?:${MONTHS}|${WEEKDAYS}|yesterday|today|tonight|tomorrow|morning|afternoon|evening|noon|midnight|ago|since|until|till|recently|lately|(?:last|next|this|past) (?:week|month|year|time|night|summer|winter|spring|fall|autumn|weekend)|\\d{1,2}(?::\\d{2})?\\s?(?:am|pm)|\\d{1,2}:\\d{2}|(?:19|20)\\d{2}|\\d{1,2}(?:st|nd|rd|th)|${UNITS})\\b`,
  'i',
);
const DURATION_RE = new RegExp(
  `\\b(?:\\d+(?:[.,]\\d+)?|${NUMBER_WORDS}|a|an)[\\s-]+(?:business |working |calendar )?(?:${UNITS})\\b|\\b(?:within|for|in|takes?|took|over|under|about) (?:a |an )?(?:${UNITS}|while|ages)\\b`,
  'i',
);
const QUANTITY_RE = new RegExp(`\\b(?:\\d+(?:[.,]\\d+)?|${NUMBER_WORDS}|a dozen|twice|once)\\b`, 'i');
const PLACE_RE =
  /\b(?:in|at|from|near|to|into|based|located|headquartered|lives?|moved)\s+(?:the\s+)?\p{Lu}|\b(?:city|country|town|street|road|avenue|office|building|abroad|downtown|overseas)\b/u;
const NEGATION_RE = /\b(?:not|never|no longer|nowhere|neither|nor)\b|n['’]t\b/i;

/** Whether a statement holds the kind of answer asked for (a date or time, a place, a number…). */
export function holdsAnswerType(text: string, type: AnswerType): boolean {
  switch (type) {
    case 'time':
      return TIME_RE.test(text);
    case 'duration':
      return DURATION_RE.test(text);
    case 'quantity':
      return QUANTITY_RE.test(text);
    case 'place':
      return PLACE_RE.test(text);
    case 'person':
      return entitiesOf(text).some((e) => !/\d/.test(e));
  }
}

/** A negated statement: what is not the case. */
export function isNegated(text: string): boolean {
  return NEGATION_RE.test(text);
}

/** Share of the query's entities found among the claim's words, in [0, 1]; 0 when the query has none. */
export function entityShare(entities: readonly string[], text: string): number {
  if (entities.length === 0) return 0;
  const words = new Set(normaliseWords(text));
  let found = 0;
  for (const e of entities) if (words.has(e)) found++;
  return found / entities.length;
}
