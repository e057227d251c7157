import { type FactReading, sameRelation, sameSubject } from './fact.ts';
import { NEGATING_PREFIXES } from './lexicon.ts';
import { ANTONYM_INDEX, type Analysis, analysis, HYPERNYM_INDEX, PHRASES } from './statement-analysis.ts';
import { isKindOf, type KindProfile, kindProfile } from './wordnet.ts';

/**
 * Contradiction checking between two short statements about the same subject: the claim being
 * stored and one already in the ledger (found by similarity), or a sentence an agent wants to
 * say and a verified fact. Rules, not a model: each finding names its kind and the words behind
 * it, so a user can see why two claims were reported.
 */

export type ConflictKind = 'negation' | 'antonym' | 'value_mismatch' | 'entity_mismatch';

export interface Conflict {
  kind: ConflictKind;
  /** Human-readable grounds, the stored claim's side first, e.g. `"open" vs "closed"`. */
  reason: string;
}

export interface ConflictOptions {
  /**
   * Statements less similar than this are about different things and never conflict. The
   * default suits the lexical checks themselves, which demand aligned wording anyway.
   */
  minSimilarity?: number;
}

/** Share of the negated statement's content that the other must contain to be denied by it. */
export const NEGATION_MIN_CONTAINMENT = 0.75;
/** Share of the remaining content two statements must share besides an opposite pair. */
export const ANTONYM_MIN_CONTAINMENT = 0.6;
/** Share of non-numeric content two statements must share for differing numbers to clash. */
export const VALUE_MIN_CONTAINMENT = 0.8;
export const DEFAULT_MIN_SIMILARITY = 0.2;

/** Terms of each side that have no counterpart, looked up in WordNet for opposites and siblings. */
export const MAX_UNMATCHED_LOOKUPS = 12;

/** Same term, or one a kind of the other (the word list, then WordNet's hypernyms). */
function related(
  a: string,
  b: string,
  la?: KindProfile,
  lb?: KindProfile,
  direction: Direction = 'either',
): boolean {
  if (a === b || HYPERNYM_INDEX.get(a)?.has(b) === true || HYPERNYM_INDEX.get(b)?.has(a) === true)
    return true;
  if (la === undefined || lb === undefined) return false;
  return isKindOf(lb, la) || (direction === 'either' && isKindOf(la, lb));
}

/**
 * How a term of one statement may be matched by a term of the other: `either` way up or down
 * the hierarchy (aligning two statements), or only by a more specific term (`specific`: what a
 * negation denies is denied of its kinds too: "no man is cutting" denies "a man is slicing",
 * not "a person is cutting").
 */
type Direction = 'either' | 'specific';

/** Terms of `from` that `to` also speaks about (same word or a hypernym either way). */
function matched(
  from: Analysis,
  to: Analysis,
  ignore: ReadonlySet<string> = new Set(),
  direction: Direction = 'either',
): {
  shared: number;
  total: number;
  unmatched: string[];
} {
  let shared = 0;
  let total = 0;
  const unmatched: string[] = [];
  for (const a of from.terms) {
    if (ignore.has(a)) continue;
    total++;
    let hit = to.terms.has(a);
    if (!hit) {
      const la = from.lemmas.get(a);
      for (const b of to.terms) {
        if (!ignore.has(b) && related(a, b, la, to.lemmas.get(b), direction)) {
          hit = true;
          break;
        }
      }
    }
    if (hit) shared++;
    else unmatched.push(a);
  }
  return { shared, total, unmatched };
}

const NEGATING_PREFIX_SET: ReadonlySet<string> = new Set(NEGATING_PREFIXES);

/** One word is the other with a negating prefix ("able" / "unable"): `p + b === a` without building strings. */
function negatedPrefix(a: string, b: string): boolean {
  if (Math.min(a.length, b.length) < 3 || a.length === b.length) return false;
  const [long, short] = a.length > b.length ? [a, b] : [b, a];
  return long.endsWith(short) && NEGATING_PREFIX_SET.has(long.slice(0, long.length - short.length));
}

/** An opposite pair: one word (or phrase) only in A whose opposite is only in B. */
function findOpposites(a: Analysis, b: Analysis): { x: string; y: string } | null {
  const aWords = a.wordSet;
  const bWords = b.wordSet;
  for (const x of aWords) {
    if (bWords.has(x)) continue;
    for (const y of ANTONYM_INDEX.get(x) ?? []) {
      if (bWords.has(y) && !aWords.has(y)) return { x, y };
    }
    for (const y of bWords) {
      if (!aWords.has(y) && negatedPrefix(x, y)) return { x, y };
    }
  }
  // A pair counts when A holds one side and not the other, and B the other and not the first.
  for (const i of a.phrases) {
    const inA = a.phraseSides.get(i)!;
    const inB = b.phraseSides.get(i) ?? 0;
    const [p, q] = PHRASES[i]!;
    if (inA === 1 && inB === 2) return { x: p, y: q };
    if (inA === 2 && inB === 1) return { x: q, y: p };
  }
  return wordNetOpposites(a, b);
}

/**
 * WordNet's antonyms ("asleep" / "awake", "wet" / "dry") among the terms each side has no
 * counterpart for, outside the subjects: "A man is riding" and "A woman is riding" are two
 * statements about two people. (Two different kinds of one thing, "guitar" / "piano", were
 * tried too and dropped: on SICK they were mostly not contradictions, someone plays both.)
 */
function wordNetOpposites(a: Analysis, b: Analysis): { x: string; y: string } | null {
  const onlyA = matched(a, b).unmatched.slice(0, MAX_UNMATCHED_LOOKUPS);
  if (onlyA.length === 0) return null;
  const onlyB = matched(b, a).unmatched.slice(0, MAX_UNMATCHED_LOOKUPS);
  // Different subjects ("A dog is running" / "A cat is running") are two statements about two
  // things, not a contradiction: a pair is only opposed outside the subject.
  const inSubjects = (x: string, y: string): boolean => a.subject.has(x) && b.subject.has(y);
  for (const x of onlyA) {
    const px = a.lemmas.get(x)!;
    for (const y of onlyB) {
      const py = b.lemmas.get(y)!;
      const opposed = py.forms.some((f) => px.antonyms.has(f)) || px.forms.some((f) => py.antonyms.has(f));
      if (opposed && !inSubjects(x, y)) return { x, y };
    }
  }
  return null;
}

/**
 * Whether storing `newClaim` while `existingClaim` is held would contradict it. `similarity` is
 * the score that made the existing claim a candidate (cosine of the two embeddings).
 */
export function detectConflict(
  newClaim: string,
  existingClaim: string,
  similarity: number,
  options: ConflictOptions = {},
): Conflict | null {
  if (similarity < (options.minSimilarity ?? DEFAULT_MIN_SIMILARITY)) return null;
  return conflictBetween(analysis(existingClaim), analysis(newClaim));
}

/**
 * `detectConflict` on analysed statements: `a` the existing one, `b` the new one. Two facts
 * (statements with a reading) conflict only about the same subject and relation; a statement
 * without one is compared word by word, unless both subjects are found and are different things.
 */
export function conflictBetween(a: Analysis, b: Analysis): Conflict | null {
  if (a.fact && b.fact) return factConflict(a, b, a.fact, b.fact);
  if (differentSubjects(a, b)) return null;
  return wordConflict(a, b);
}

/** Names, identifiers and pseudonyms among a statement's subject words (the reading's, else those before the verb). */
function subjectNames(x: Analysis): readonly string[] {
  if (x.fact) return x.fact.subjectNames;
  return [...x.subject].filter((t) => isName(t) || x.proper.has(t));
}

/** A name, an identifier or a pseudonym: two of them are two things unless they are the same. */
function isName(term: string): boolean {
  return term.startsWith('<') || /\d/.test(term) || /[-_]/.test(term);
}

/**
 * Whether two statements are about different things though one has no reading: both subjects
 * hold names (people, identifiers, places) and they share none ("svc-1" / "svc-2", two people).
 * Common nouns are left to the word-by-word rules ("A man" / "Nobody").
 */
function differentSubjects(a: Analysis, b: Analysis): boolean {
  const x = subjectNames(a);
  const y = subjectNames(b);
  return x.length > 0 && y.length > 0 && !x.some((t) => y.includes(t));
}

/**
 * How two readings' topics compare: `same` subject and relation; `different` (another named
 * subject, or another relation of a named subject); `loose` when the subjects are common nouns
 * of one kind ("A young man" / "A person") but the relations differ ("is sitting" / "is
 * standing"): such statements are compared word by word.
 */
function topicOf(fa: FactReading, fb: FactReading): 'same' | 'different' | 'loose' {
  const named = fa.subjectNames.length > 0 || fb.subjectNames.length > 0;
  const subject =
    sameSubject(fa, fb) ||
    (!named &&
      related(fa.subjectHead, fb.subjectHead, kindProfile(fa.subjectHead), kindProfile(fb.subjectHead)));
  if (!subject) return 'different';
  const ra = fa.relationHead;
  const rb = fb.relationHead;
  if (sameRelation(fa, fb) || related(ra, rb, kindProfile(ra), kindProfile(rb))) return 'same';
  return named ? 'different' : 'loose';
}

/**
 * Two facts about the same subject and relation, at the same time and in the same scope: one
 * denies the other's object, or gives another object where the relation holds one value (a
 * different capital, owner or price), or an opposite or another quantity where it may hold
 * several. Statements at different times ("lived" / "lives", "in 2019") or for different scopes
 * ("for students") do not contradict.
 */
function factConflict(a: Analysis, b: Analysis, fa: FactReading, fb: FactReading): Conflict | null {
  const topic = topicOf(fa, fb);
  if (topic === 'different' || (fa.scope ?? '') !== (fb.scope ?? '')) return null;
  if (topic === 'loose') return wordConflict(a, b);
  const oa = analysis(fa.object);
  const ob = analysis(fb.object);
  const agree = objectsAgree(fa, fb, oa, ob) && findOpposites(a, b) === null;
  // At different times another object is no contradiction; the same object at another time may be ("opened in 2019" / "in 2021").
  if ((fa.time ?? '') !== (fb.time ?? '')) return agree ? wordConflict(a, b) : null;
  if ((fa.count ?? '') !== (fb.count ?? '')) {
    return agree && fa.negated === fb.negated && fa.count !== undefined && fb.count !== undefined
      ? { kind: 'value_mismatch', reason: `${fa.count} vs ${fb.count}` }
      : null;
  }
  if (fa.negated !== fb.negated) {
    return agree ? { kind: 'negation', reason: 'one statement denies what the other asserts' } : null;
  }
  if (fa.negated || agree) return null;
  if (!fa.functional && !fb.functional) return wordConflict(a, b);
  if (fa.bound !== undefined || fb.bound !== undefined) return null;
  const onlyA = [...oa.quantities].filter((q) => !ob.quantities.has(q));
  const onlyB = [...ob.quantities].filter((q) => !oa.quantities.has(q));
  if (onlyA.length > 0 && onlyB.length > 0) {
    const show = (qs: string[]) => qs.map((q) => q.replace('|', '')).join(', ');
    return { kind: 'value_mismatch', reason: `${show(onlyA)} vs ${show(onlyB)}` };
  }
  const opposites = findOpposites(a, b);
  if (opposites) return { kind: 'antonym', reason: `"${opposites.x}" vs "${opposites.y}"` };
  return { kind: 'entity_mismatch', reason: `${fa.object} vs ${fb.object}` };
}

/**
 * Two objects say the same: the same quantities, and the same names when both name something
 * ("Kabul" / "New Kabul" differ, "Djibouti City" / "Djibouti" do not; a city is not the same as
 * another city because both are cities), else every word of one matched by the other. A name the
 * scrubber replaced and a word it left cannot be compared, and are not taken for a difference.
 */
function objectsAgree(fa: FactReading, fb: FactReading, a: Analysis, b: Analysis): boolean {
  if (a.quantities.size !== b.quantities.size || [...a.quantities].some((q) => !b.quantities.has(q)))
    return false;
  const x = fa.objectNames;
  const y = fb.objectNames;
  if (x.length > 0 && y.length > 0) {
    const pseudonymous = (names: readonly string[]) => names.every((n) => n.startsWith('<'));
    if (pseudonymous(x) !== pseudonymous(y)) return true;
    return x.every((n) => y.includes(n)) && y.every((n) => x.includes(n));
  }
  if (a.terms.size === 0 || b.terms.size === 0) return a.terms.size === b.terms.size;
  return matched(a, b).unmatched.length === 0 || matched(b, a).unmatched.length === 0;
}

/** The word-by-word check (today's rules): negation, opposites, quantities, names. */
function wordConflict(a: Analysis, b: Analysis): Conflict | null {
  const opposites = findOpposites(a, b);

  if (a.negated !== b.negated) {
    // "is not open" and "is closed" say the same thing: a negation and an opposite cancel out.
    if (opposites) return null;
    const [neg, pos] = a.negated ? [a, b] : [b, a];
    const m = matched(neg, pos, new Set(), 'specific');
    if (m.total > 0 && m.shared / m.total >= NEGATION_MIN_CONTAINMENT && quantitiesAgree(neg, pos)) {
      return { kind: 'negation', reason: `one statement denies what the other asserts` };
    }
    return null;
  }

  if (opposites) {
    const ignore = new Set([opposites.x, opposites.y, ...opposites.x.split(' '), ...opposites.y.split(' ')]);
    const [small, large] = a.terms.size <= b.terms.size ? [a, b] : [b, a];
    const m = matched(small, large, ignore);
    if (m.total > 0 && m.shared / m.total >= ANTONYM_MIN_CONTAINMENT) {
      return { kind: 'antonym', reason: `"${opposites.x}" vs "${opposites.y}"` };
    }
  }

  const onlyA = [...a.quantities].filter((q) => !b.quantities.has(q));
  const onlyB = [...b.quantities].filter((q) => !a.quantities.has(q));
  if (onlyA.length > 0 && onlyB.length > 0) {
    const unitsA = new Set(onlyA.map((q) => q.split('|')[1]));
    if (onlyB.some((q) => unitsA.has(q.split('|')[1]))) {
      const [small, large] = a.terms.size <= b.terms.size ? [a, b] : [b, a];
      const m = matched(small, large);
      if (m.total > 0 && m.shared / m.total >= VALUE_MIN_CONTAINMENT) {
        const show = (qs: string[]) => qs.map((q) => q.replace('|', '')).join(', ');
        return { kind: 'value_mismatch', reason: `${show(onlyA)} vs ${show(onlyB)}` };
      }
    }
  }

  // Every unmatched term must be a proper noun, and there must be some on both sides.
  if (a.proper.size === 0 || b.proper.size === 0) return null;
  const fromA = matched(a, b);
  const fromB = matched(b, a);
  if (
    fromA.unmatched.length > 0 &&
    fromB.unmatched.length > 0 &&
    fromA.unmatched.length <= 2 &&
    fromB.unmatched.length <= 2 &&
    fromA.shared > 0 &&
    fromA.unmatched.every((t) => a.proper.has(t)) &&
    fromB.unmatched.every((t) => b.proper.has(t))
  ) {
    return {
      kind: 'entity_mismatch',
      reason: `${fromA.unmatched.join(' ')} vs ${fromB.unmatched.join(' ')}`,
    };
  }
  return null;
}

/**
 * How similar an existing claim must be to be checked against a new one, per embedder. On the
 * SICK pairs the checker reports, USE lite similarity is >= 0.59 for 99 % of true contradictions
 * and the lexical hash >= 0.39; below these gates only noise is left to check.
 */
export function conflictCandidateFloor(embedderId: string): number {
  return embedderId.startsWith('hash-') ? 0.3 : 0.5;
}

export interface ConflictCandidate {
  id: string;
  text: string;
  /** Similarity to the new claim from the search that found it. */
  similarity: number;
}

export interface FoundConflict<C extends ConflictCandidate> extends Conflict {
  claim: C;
  similarity: number;
}

/**
 * The candidates (claims found by similarity to `newClaim`) that it contradicts, most similar
 * first: what a store reports, rejects or supersedes depending on `on_conflict`.
 */
export function findConflicts<C extends ConflictCandidate>(
  newClaim: string,
  candidates: readonly C[],
  options: ConflictOptions = {},
): FoundConflict<C>[] {
  const found: FoundConflict<C>[] = [];
  const minSimilarity = options.minSimilarity ?? DEFAULT_MIN_SIMILARITY;
  let b: Analysis | undefined;
  for (const claim of candidates) {
    if (claim.similarity < minSimilarity) continue;
    b ??= analysis(newClaim);
    const conflict = conflictBetween(analysis(claim.text), b);
    if (conflict) found.push({ ...conflict, claim, similarity: claim.similarity });
  }
  return found.sort((a, b) => b.similarity - a.similarity || (a.claim.id < b.claim.id ? -1 : 1));
}

/** A negation does not deny a statement about different quantities ("no two cats" / "three cats"). */
function quantitiesAgree(neg: Analysis, pos: Analysis): boolean {
  for (const q of neg.quantities) if (!pos.quantities.has(q)) return false;
  return true;
}
