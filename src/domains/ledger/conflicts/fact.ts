import {
  AUX,
  BOUNDS,
  bareVerb,
  COPULAS,
  DETERMINERS,
  type FactBound,
  FUNCTIONAL_VERBS,
  GENERIC_HEADS,
  inflectedVerb,
  isNameToken,
  isVerb,
  MAX_FACT_WORDS,
  MONTHS,
  NEGATORS,
  PAST_COPULAS,
  PREPOSITIONS,
  PRONOUNS,
  phraseKey,
  RELATIVE_TIMES,
  relationKey,
  relationLemma,
  SCOPE_OPENERS,
  slice,
  TIME_PREPOSITIONS,
  TIME_UNITS,
  TIME_WORDS,
  type Tok,
  tokens,
  verbLemma,
  verbTagOf,
  WEEKDAYS,
} from './fact-words.ts';
import { IRREGULAR, NUMBER_WORDS } from './lexicon.ts';

/**
 * A claim read as a fact: subject, relation, object and qualifiers (time, negation, quantity
 * bound, scope). Contradictions, supersede and the text check compare only facts about the same
 * subject and relation (ledger README, "Facts").
 *
 * Read from the shapes short factual statements take, over tokens (linear, no parse):
 *
 * | shape | example | subject / relation / object |
 * |---|---|---|
 * | the R of S is O | The capital of Peru is Lima. | Peru / capital / Lima |
 * | O is the R of S | Lima is the capital of Peru. | Peru / capital / Lima |
 * | S's R is O | Peru's capital is Lima. | Peru / capital / Lima |
 * | S is V-ed by O | svc-4 is owned by the data team. | svc-4 / own / data team |
 * | S V [prep] O | Ann lives in Lyon. The Pro plan costs $9. | Ann / live in / Lyon; Pro plan / price / $9 |
 * | S is O | The office is closed. | office / be / closed |
 *
 * An agent noun is its verb ("the owner of" = "owned by"), and a few relations have one name
 * (cost = price, reside = live). What is not of these shapes has no reading and is compared
 * as before, with the subject test where a subject is found.
 */

export interface FactReading {
  /** As written (scrubbed), for the API. */
  subject: string;
  relation: string;
  object: string;
  /** Names in the object (capitalised words, identifiers, pseudonyms), canonical, generic heads dropped. */
  objectNames: readonly string[];
  /** Names in the subject (capitalised words other than a common word opening the sentence, identifiers, pseudonyms). */
  subjectNames: readonly string[];
  /** The subject's last word in lower case, for WordNet ("man" in "A young man"). */
  subjectHead: string;
  /** Canonical words of the subject: determiners dropped, lower case, stemmed. */
  subjectKey: readonly string[];
  /** Canonical words of the relation, its head last. */
  relationKey: readonly string[];
  /** The relation's head as a dictionary word ("own", "capital"), for WordNet. */
  relationHead: string;
  negated: boolean;
  /** `past` / `future` from the verb, plus a time phrase ("in 2019", "since May"), or undefined. */
  time: string | undefined;
  /** A trailing restriction ("for students", "on weekends"), canonical, or undefined. */
  scope: string | undefined;
  /** How many of the subject ("Three engineers …" → `3`), or undefined. */
  count: string | undefined;
  /** `min` ("at least 5"), `max` ("up to 5"), `about` ("about 5"), or undefined for an exact value. */
  bound: FactBound;
  /**
   * One value at a time: a definite noun relation ("the capital of"), a passive with its agent,
   * or a verb of the `FUNCTIONAL_VERBS` list. Another object for such a relation contradicts;
   * for others ("Ann visited Rome") only an opposite, a negation or another quantity does.
   */
  functional: boolean;
}

interface Qualified {
  object: Tok[];
  time: string | undefined;
  scope: string | undefined;
  bound: FactReading['bound'];
}

function isTimeWord(t: Tok): boolean {
  return MONTHS.has(t.low) || WEEKDAYS.has(t.low) || /^(1[89]|20)\d\d$/.test(t.low) || TIME_WORDS.has(t.low);
}

/** Splits trailing time phrases and restrictions off an object, and reads a leading bound. */
function qualify(object: Tok[]): Qualified {
  let obj = [...object];
  let time: string | undefined;
  let scope: string | undefined;
  let bound: FactReading['bound'];
  for (const [words, kind] of BOUNDS) {
    if (words.every((w, i) => obj[i]?.low === w) && /\d/.test(obj[words.length]?.raw ?? '')) {
      bound = kind;
      obj = obj.slice(words.length);
      break;
    }
  }
  // Cut from the end: "… in Lyon since 2019", "… $10 for students", "… currently".
  for (let guard = 0; guard < 3 && obj.length > 1; guard++) {
    const last = obj[obj.length - 1]!;
    const before = obj[obj.length - 2]!;
    if (obj.length > 2 && RELATIVE_TIMES.has(before.low) && TIME_UNITS.has(last.low)) {
      time = [`${before.low} ${last.low}`, time].filter(Boolean).join(' ');
      obj = obj.slice(0, -2);
      continue;
    }
    if (TIME_WORDS.has(last.low)) {
      time = [last.low, time].filter(Boolean).join(' ');
      obj = obj.slice(0, -1);
      continue;
    }
    let cut = -1;
    for (let i = obj.length - 2; i >= 1; i--) {
      const t = obj[i]!;
      const rest = obj.slice(i + 1);
      if (TIME_PREPOSITIONS.has(t.low) && rest.length <= 4 && rest.some(isTimeWord)) {
        time = [phraseKey(obj.slice(i)).join(' '), time].filter(Boolean).join(' ');
        cut = i;
        break;
      }
      if (SCOPE_OPENERS.has(t.low) && !(t.low === 'per')) {
        scope = [phraseKey(obj.slice(i)).join(' '), scope].filter(Boolean).join(' ');
        cut = i;
        break;
      }
      if (t.low === 'on' && rest.length <= 2 && rest.some((r) => WEEKDAYS.has(r.low.replace(/s$/, '')))) {
        scope = [phraseKey(obj.slice(i)).join(' '), scope].filter(Boolean).join(' ');
        cut = i;
        break;
      }
    }
    if (cut < 0) break;
    obj = obj.slice(0, cut);
  }
  if (obj.length > 0 && TIME_WORDS.has(obj[0]!.low) && obj.length > 1) {
    time = [obj[0]!.low, time].filter(Boolean).join(' ');
    obj = obj.slice(1);
  }
  return { object: obj, time, scope, bound };
}

function build(
  text: string,
  subjectToks: Tok[],
  relationWords: string[],
  relationShown: string,
  object: Tok[],
  negated: boolean,
  tense: 'past' | 'future' | undefined,
  functional: boolean,
): FactReading | null {
  const q = qualify(object);
  let subject = subjectToks;
  let count: string | undefined;
  const first = subject[0];
  if (first && subject.length > 1 && (NUMBER_WORDS[first.low] !== undefined || /^\d+$/.test(first.low))) {
    count = String(NUMBER_WORDS[first.low] ?? Number(first.low));
    subject = subject.slice(1);
  }
  const subjectKey = phraseKey(subject);
  const rel = relationKey(relationWords);
  if (subjectKey.length === 0 || rel.length === 0 || q.object.length === 0) return null;
  if (subject.length === 1 && PRONOUNS.has(subject[0]!.low)) return null;
  if (subject.length > 8) return null;
  const time = [tense, q.time].filter(Boolean).join(' ') || undefined;
  return {
    subject: slice(text, subject),
    relation: relationShown,
    object: slice(text, q.object),
    subjectNames: phraseKey(subject.filter((t) => isNameToken(t))).filter((w) => !GENERIC_HEADS.has(w)),
    subjectHead: IRREGULAR[subject.at(-1)!.low] ?? subject.at(-1)!.low,
    objectNames: phraseKey(q.object.filter((t) => /^[\p{Lu}<]|\d/u.test(t.raw))).filter(
      (w) => !GENERIC_HEADS.has(w),
    ),
    subjectKey,
    relationKey: rel,
    relationHead: relationLemma(
      relationWords.filter((w) => !DETERMINERS.has(w) && !PREPOSITIONS.has(w)).at(-1)!,
    ),
    negated,
    time,
    scope: q.scope,
    count,
    bound: q.bound,
    functional: functional || FUNCTIONAL_VERBS.has(rel[rel.length - 1]!),
  };
}

/** Negators right after position `i` (skipped), and whether there were any. */
function skipNegation(toks: readonly Tok[], i: number): { at: number; negated: boolean } {
  let at = i;
  let negated = false;
  while (
    toks[at] &&
    (NEGATORS.has(toks[at]!.low) || (toks[at]!.low === 'no' && toks[at + 1]?.low === 'longer'))
  ) {
    negated = true;
    at += toks[at]!.low === 'no' && toks[at + 1]?.low === 'longer' ? 2 : 1;
  }
  return { at, negated };
}

/** Splits "isn't" into "is" + "not" (and the other n't forms). */
function expandContractions(toks: Tok[]): Tok[] {
  const out: Tok[] = [];
  for (const t of toks) {
    const m = /^(.+?)n['’]t$/.exec(t.low);
    if (!m) {
      out.push(t);
      continue;
    }
    const base = t.low === "can't" || t.low === 'can’t' ? 'can' : t.low.startsWith('won') ? 'will' : m[1]!;
    out.push({ ...t, raw: base, low: base }, { ...t, raw: 'not', low: 'not' });
  }
  return out;
}

const readings = new Map<string, FactReading | null>();
const MAX_READINGS = 8192;

/** `readFact`, remembered for the last 8,192 texts (claims are read again on every store and search). */
export function factOf(text: string): FactReading | null {
  let r = readings.get(text);
  if (r !== undefined) return r;
  r = readFact(text);
  if (readings.size >= MAX_READINGS) readings.delete(readings.keys().next().value!);
  readings.set(text, r);
  return r;
}

/** The statement's reading, or null when it is not one short statement of a known shape. */
export function readFact(input: string): FactReading | null {
  const text = input.trim().replace(/[.!;]+$/u, '');
  if (/[.!?;]\s+\p{Lu}/u.test(text) || text.includes('?')) return null;
  const toks = expandContractions(tokens(text));
  if (toks.length < 3 || toks.length > MAX_FACT_WORDS) return null;
  const low = toks.map((t) => t.low);
  const copula = low.findIndex((w, i) => i > 0 && COPULAS.has(w));
  const tenseOf = (w: string | undefined): 'past' | undefined =>
    w && PAST_COPULAS.has(w) ? 'past' : undefined;

  if (copula > 0) {
    const { at: after, negated } = skipNegation(toks, copula + 1);
    const tense = tenseOf(low[copula]);
    const before = toks.slice(0, copula);
    // the R of S is O
    const ofBefore = low.indexOf('of');
    if (DETERMINERS.has(low[0]!) && ofBefore > 1 && ofBefore < copula - 1 && ofBefore <= 4) {
      return build(
        text,
        toks.slice(ofBefore + 1, copula),
        low.slice(1, ofBefore),
        slice(text, toks.slice(1, ofBefore)),
        toks.slice(after),
        negated,
        tense,
        low[0] === 'the',
      );
    }
    // S's R is O
    const possessive = low.findIndex((w, i) => i > 0 && i < copula - 1 && /^['’]s$/.test(w));
    if (possessive > 0) {
      return build(
        text,
        toks.slice(0, possessive),
        low.slice(possessive + 1, copula),
        slice(text, toks.slice(possessive + 1, copula)),
        toks.slice(after),
        negated,
        tense,
        true,
      );
    }
    // O is the R of S
    const ofAfter = low.indexOf('of', after);
    if (DETERMINERS.has(low[after] ?? '') && ofAfter > after + 1 && ofAfter <= after + 4) {
      return build(
        text,
        toks.slice(ofAfter + 1),
        low.slice(after + 1, ofAfter),
        slice(text, toks.slice(after + 1, ofAfter)),
        before,
        negated,
        tense,
        low[after] === 'the',
      );
    }
    // S is V-ed by O; S is V-ing [prep] O
    const verb = toks[after];
    if (verb && /^\p{Ll}+$/u.test(verb.raw)) {
      const lemma = verbLemma(verb.low);
      if (lemma && low[after + 1] === 'by' && /(?:ed|en|wn|ld|lt|nt|ne|un)$/.test(verb.low)) {
        return build(text, before, [lemma], verb.raw, toks.slice(after + 2), negated, tense, true);
      }
      if (
        lemma &&
        (verb.low.endsWith('ing') || ['based', 'located', 'situated', 'born'].includes(verb.low))
      ) {
        const prep = PREPOSITIONS.has(low[after + 1] ?? '') ? 1 : 0;
        return build(
          text,
          before,
          [lemma],
          slice(text, toks.slice(after, after + 1 + prep)),
          toks.slice(after + 1 + prep),
          negated,
          tense,
          false,
        );
      }
    }
    // S is O
    return build(text, before, ['be'], low[copula]!, toks.slice(after), negated, tense, false);
  }

  // S V [prep] O, with an auxiliary ("does not own", "will open") or an inflected verb.
  let verbAt = -1;
  let tense: 'past' | 'future' | undefined;
  let negated = false;
  for (let i = 1; i < toks.length; i++) {
    const t = toks[i]!;
    if (AUX.has(t.low)) {
      if (t.low === 'did' || t.low === 'had') tense = 'past';
      if (t.low === 'will') tense = 'future';
      const skipped = skipNegation(toks, i + 1);
      negated = skipped.negated;
      const next = toks[skipped.at];
      const perfect =
        !['has', 'have', 'had'].includes(t.low) || (next !== undefined && /(?:ed|en|wn|ne)$/.test(next.low));
      if (perfect && next && /^\p{Ll}+$/u.test(next.raw) && verbLemma(next.low)) verbAt = skipped.at;
      else if (!perfect) verbAt = i;
      break;
    }
    if (inflectedVerb(t)) {
      verbAt = i;
      if (verbTagOf(t.low)?.includes('PastTense') || t.low.endsWith('ed')) tense = 'past';
      break;
    }
  }
  if (verbAt < 0) verbAt = toks.findIndex((t, i) => i > 0 && bareVerb(t));
  if (verbAt < 1) return null;
  const verb = toks[verbAt]!;
  const lemma = verbLemma(verb.low) ?? verb.low;
  const { at: objectAt, negated: late } = skipNegation(toks, verbAt + 1);
  const bounded = BOUNDS.some(([words]) => words.every((w, i) => low[objectAt + i] === w));
  const prep = PREPOSITIONS.has(low[objectAt] ?? '') && !bounded ? 1 : 0;
  const subjectEnd = toks.slice(0, verbAt).findIndex((t) => AUX.has(t.low) || NEGATORS.has(t.low));
  return build(
    text,
    toks.slice(0, subjectEnd < 0 ? verbAt : subjectEnd),
    [lemma],
    slice(text, toks.slice(verbAt, objectAt + prep)),
    toks.slice(objectAt + prep),
    negated || late,
    tense,
    false,
  );
}

/**
 * Whether two readings are about the same subject: the same words, or the same but for a
 * generic head ("the Pro plan" / "Pro").
 */
export function sameSubject(a: FactReading, b: FactReading): boolean {
  return sameWords(a.subjectKey, b.subjectKey);
}

function sameWords(a: readonly string[], b: readonly string[]): boolean {
  const x = new Set(a);
  const y = new Set(b);
  const onlyX = [...x].filter((w) => !y.has(w));
  const onlyY = [...y].filter((w) => !x.has(w));
  if (onlyX.length === 0 && onlyY.length === 0) return true;
  const shared = [...x].some((w) => y.has(w));
  return shared && [...onlyX, ...onlyY].every((w) => GENERIC_HEADS.has(w));
}

/** Whether two readings name the same relation: the same head, or one's words within the other's. */
export function sameRelation(a: FactReading, b: FactReading): boolean {
  const x = a.relationKey;
  const y = b.relationKey;
  if (x.at(-1) === y.at(-1)) return true;
  return x.every((w) => y.includes(w)) || y.every((w) => x.includes(w));
}

/** What a question asks about: "What is the capital of Peru?" → Peru / capital. */
export function questionAbout(query: string): { subjectKey: string[]; relationKey: string[] } | null {
  const text = query.trim().replace(/\?+$/, '');
  const toks = expandContractions(tokens(text));
  const low = toks.map((t) => t.low);
  if (toks.length < 3) return null;
  const wh = low[0]!;
  if (!['what', 'which', 'who', 'where', 'when', 'how', 'whose'].includes(wh)) return null;
  let at = 1;
  if (wh === 'how' && ['much', 'many', 'old', 'long'].includes(low[1] ?? '')) at = 2;
  const word = low[at];
  if (word && COPULAS.has(word)) {
    // what is the R of S / what is S's R
    const of = low.indexOf('of', at + 1);
    if (of > at + 1) {
      return { subjectKey: phraseKey(toks.slice(of + 1)), relationKey: relationKey(low.slice(at + 1, of)) };
    }
    const possessive = low.findIndex((w, i) => i > at && /^['’]s$/.test(w));
    if (possessive > at + 1 && possessive < toks.length - 1) {
      return {
        subjectKey: phraseKey(toks.slice(at + 1, possessive)),
        relationKey: relationKey(low.slice(possessive + 1)),
      };
    }
    // who is X owned by / where is X based
    const last = toks[toks.length - 1]!;
    const lemma = /^\p{Ll}+$/u.test(last.raw) ? verbLemma(last.low) : null;
    if (lemma) return { subjectKey: phraseKey(toks.slice(at + 1, -1)), relationKey: relationKey([lemma]) };
    return null;
  }
  if (word && AUX.has(word)) {
    // where does S live / how much does S cost / when did S go to …
    let end = toks.length - 1;
    while (end > at + 1 && PREPOSITIONS.has(low[end]!)) end--;
    const bare = (i: number): boolean =>
      /^\p{Ll}+$/u.test(toks[i]!.raw) && !DETERMINERS.has(low[i]!) && isVerb(low[i]!);
    // The verb last ("where does Ann live") when what comes before it is a plain noun phrase.
    const plain = low.slice(at + 1, end).every((w) => !PREPOSITIONS.has(w)) && end - at <= 6;
    let verbAt = plain && end > at + 1 && bare(end) ? end : -1;
    for (let i = at + 2; verbAt < 0 && i < end; i++) if (bare(i) && !DETERMINERS.has(low[i - 1]!)) verbAt = i;
    if (verbAt < 0) return null;
    return { subjectKey: phraseKey(toks.slice(at + 1, verbAt)), relationKey: relationKey([low[verbAt]!]) };
  }
  // who owns S: the subject of the fact is what is owned
  if (word && /^\p{Ll}+$/u.test(toks[at]!.raw) && inflectedVerb(toks[at]!)) {
    const lemma = verbLemma(word) ?? word;
    const prep = PREPOSITIONS.has(low[at + 1] ?? '') ? 1 : 0;
    return { subjectKey: phraseKey(toks.slice(at + 1 + prep)), relationKey: relationKey([lemma]) };
  }
  return null;
}

/** Whether a reading answers what a question asks about. */
export function answers(
  about: { subjectKey: readonly string[]; relationKey: readonly string[] },
  fact: FactReading,
): { subject: boolean; relation: boolean } {
  const subject = about.subjectKey.length > 0 && sameWords(about.subjectKey, fact.subjectKey);
  const x = about.relationKey;
  const y = fact.relationKey;
  const relation =
    x.length > 0 && (x.at(-1) === y.at(-1) || x.every((w) => y.includes(w)) || y.every((w) => x.includes(w)));
  return { subject, relation };
}

/** What the API shows of a claim's reading. */
export interface FactView {
  subject: string;
  relation: string;
  object: string;
  negated: boolean;
  time?: string;
  scope?: string;
}

/** The reading of a claim as the API shows it (as written, scrubbed), or null. */
export function factView(text: string): FactView | null {
  const f = factOf(text);
  if (!f) return null;
  return {
    subject: f.subject,
    relation: f.relation,
    object: f.object,
    negated: f.negated,
    ...(f.time === undefined ? {} : { time: f.time }),
    ...(f.scope === undefined ? {} : { scope: f.scope }),
  };
}
