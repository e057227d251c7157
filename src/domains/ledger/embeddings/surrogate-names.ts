import type { Embedder } from './embedder.ts';

/**
 * What a dense model reads in place of the scrubber's pseudonyms.
 *
 * A pseudonym (`<PERSON` + 8 hex digits + `>`, see `pseudonyms` in pii/scrubber.ts) is one word
 * to full text, but a model's tokenizer cuts it into pieces, and every pseudonym shares the
 * pieces of "<PERSON": two claims that name anyone at all embed closer than their meaning says.
 * Through SQLite, with pseudonyms as written, 11 of the vault set's 189 unrelated queries found a
 * named claim (`npm run eval:vault -- --only retrieval --storage sqlite`); the ledger README has
 * the measurements.
 *
 * So the model reads each pseudonym as a given name picked by its digest: the same person is
 * the same name in every claim and query of the account (a question about "Melanie" still meets
 * her claims in meaning), two people are two names (1 in 200 pairs share one), and what the model
 * sees is an ordinary sentence about a person. The name says nothing about the real one: it
 * depends only on the pseudonym, which is a keyed digest. A bare `<PERSON>` (no key) reads as
 * "someone". Sparse embedders (`hash`) are left alone: to them a pseudonym is already one
 * distinct word.
 */

/** 200 given names the model knows as names. Fixed: vectors stored under this list depend on it. */
export const SURROGATE_NAMES: readonly string[] = (
  'Aaron Abigail Adam Adrian Aisha Alan Albert Alice Amanda Amelia Amir Amy Andrea Andrew Angela Anna ' +
  'Anthony Arthur Ava Barbara Benjamin Beth Brian Bruce Carl Carla Carlos Carmen Caroline Catherine ' +
  'Charles Charlotte Chloe Christian Claire Colin Daniel David Deborah Dennis Diana Diego Dominic Donna ' +
  'Dorothy Douglas Dylan Edward Elena Elijah Elizabeth Ella Emily Emma Eric Ethan Eva Evelyn Felix Fiona ' +
  'Frances Frank Gabriel George Grace Gregory Hannah Harold Harry Helen Henry Hugo Ian Isaac Isabel ' +
  'Jack Jacob James Jane Janet Jason Jasmine Jean Jeffrey Jennifer Jeremy Jessica Joan Joel John ' +
  'Jonathan Jose Joseph Joshua Joyce Judith Julia Julian Justin Karen Kate Keith Kenneth Kevin Laura ' +
  'Lauren Leo Leon Lily Linda Lisa Louis Lucas Lucy Luis Luke Madison Marco Margaret Maria Marie Mark ' +
  'Martha Martin Mary Matthew Maya Megan Melissa Michael Michelle Miguel Mila Nancy Natalie Nathan Nicole ' +
  'Noah Nora Oliver Olivia Omar Oscar Pamela Patricia Patrick Paul Peter Philip Rachel Rafael Ralph ' +
  'Raymond Rebecca Richard Robert Roger Rose Ruth Ryan Samuel Sandra Sara Scott Sean Sharon Simon Sofia ' +
  'Sophie Stephen Steven Susan Teresa Thomas Timothy Victor Victoria Vincent Walter Wayne William Zoe ' +
  'Anne Ben Clara Eleanor Gavin Ivan Jordan Kyle Lena Mason Naomi Owen Priya Quentin Rita Tara Ursula Yusuf'
).split(' ');

/** Names the text preparation in the recorded embedder id: change it when the list or the rule changes. */
export const SURROGATE_NAMES_VERSION = 'names-1';

/** `text` with each pseudonym as its given name and each bare `<PERSON>` as "someone". */
export function withSurrogateNames(text: string): string {
  return text
    .replace(
      /<PERSON([0-9a-f]{8})>/g,
      (_, hex: string) => SURROGATE_NAMES[Number.parseInt(hex, 16) % SURROGATE_NAMES.length]!,
    )
    .replaceAll('<PERSON>', 'someone');
}

/**
 * `inner` reading pseudonyms as names. Its id says so (`<model>+names-1`): vectors made without
 * the names are never mixed with these (`arbiter reindex` re-embeds them).
 */
export function withSurrogateNamesFor(inner: Embedder): Embedder {
  if (inner.sparse) return inner;
  const lifecycle = inner as Embedder & { warmUp?: () => Promise<void>; close?: () => Promise<void> };
  return {
    id: `${inner.id}+${SURROGATE_NAMES_VERSION}`,
    dimension: inner.dimension,
    embed: (texts) => inner.embed(texts.map(withSurrogateNames)),
    warmUp: async () => lifecycle.warmUp?.(),
    close: async () => lifecycle.close?.(),
  } as Embedder;
}
