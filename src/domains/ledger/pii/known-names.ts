import { isStopword } from '../search/lexical.ts';
import { pseudonyms } from './scrubber.ts';

/** A word of a text that may be a name, with the pseudonym it would have and that pseudonym as a full-text term. */
export interface NameCandidate {
  start: number;
  end: number;
  pseudonym: string;
  term: string;
}

/** Words checked per text: a query or a claim names only so many people. */
const MAX_CANDIDATES = 32;

/**
 * The words of `text` that could be a person's name the scrubber did not recognise here (a name
 * is told from context, and a question gives little): letters only, not a stop word, outside the
 * scrubber's placeholders. Each comes with its pseudonym under `key`, so the caller can keep those
 * the account's claims already hold as a name.
 */
export function nameCandidates(text: string, key: string): NameCandidate[] {
  const out: NameCandidate[] = [];
  const re = /<[A-Z_]+[0-9a-f]*>|(\p{L}[\p{L}'’-]*)/gu;
  for (let m = re.exec(text); m && out.length < MAX_CANDIDATES; m = re.exec(text)) {
    const word = m[1];
    if (word === undefined) continue;
    const bare = word.replace(/['’](?:s|S)?$/, '');
    if (bare.length < 2 || isStopword(bare.toLowerCase())) continue;
    const pseudonym = pseudonyms(word, key);
    const term = /<PERSON([0-9a-f]{8})>/.exec(pseudonym);
    if (!term) continue;
    out.push({ start: m.index, end: m.index + word.length, pseudonym, term: `person${term[1]}` });
  }
  return out;
}

/** `text` with the candidates whose term is in `known` replaced by their pseudonym. */
export function withKnownNames(
  text: string,
  candidates: readonly NameCandidate[],
  known: ReadonlySet<string>,
): string {
  let out = '';
  let last = 0;
  for (const c of candidates) {
    if (!known.has(c.term)) continue;
    out += text.slice(last, c.start) + c.pseudonym;
    last = c.end;
  }
  return out + text.slice(last);
}
