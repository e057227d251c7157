import { describe, expect, it } from 'vitest';
import { pseudonyms } from '../pii/scrubber.ts';
import type { Embedder } from './embedder.ts';
import { HashEmbedder } from './hash.ts';
import { SURROGATE_NAMES, withSurrogateNames, withSurrogateNamesFor } from './surrogate-names.ts';

/** A dense embedder over the hash features: what the wrapper is for (the local model is slow to load here). */
function dense(inner: HashEmbedder): Embedder & { seen: string[] } {
  const seen: string[] = [];
  return {
    id: 'dense-test',
    dimension: inner.dimension,
    seen,
    embed: async (texts) => {
      seen.push(...texts);
      return inner.embed(texts);
    },
  };
}

describe('surrogate names', () => {
  const melanie = pseudonyms('Melanie', 'account-1');
  const caroline = pseudonyms('Caroline', 'account-1');

  it('reads one pseudonym as the same given name wherever it stands, and two as two', () => {
    const claim = withSurrogateNames(`${melanie}: I painted a lake with ${caroline}'s kids.`);
    const question = withSurrogateNames(`What did ${melanie} paint?`);
    const name = /^(\p{Lu}\p{Ll}+): /u.exec(claim)![1]!;
    expect(SURROGATE_NAMES).toContain(name);
    expect(question).toBe(`What did ${name} paint?`);
    expect(claim).not.toMatch(/<PERSON/);
    expect(claim).toMatch(/with \p{Lu}\p{Ll}+'s kids\.$/u);
    expect(withSurrogateNames(caroline)).not.toBe(name);
  });

  it('depends on the pseudonym only: another account gives the same person another name', () => {
    const names = new Set(
      Array.from({ length: 20 }, (_, i) => withSurrogateNames(pseudonyms('Melanie', `account-${i}`))),
    );
    expect(names.size).toBeGreaterThan(10);
  });

  it('reads a bare placeholder as "someone" and leaves the other placeholders alone', () => {
    expect(withSurrogateNames('<PERSON> mailed <EMAIL> from <ADDRESS>')).toBe(
      'someone mailed <EMAIL> from <ADDRESS>',
    );
  });

  it('holds 200 distinct names', () => {
    expect(new Set(SURROGATE_NAMES).size).toBe(200);
  });

  it('gives a dense model the names, under an id that says so', async () => {
    const inner = dense(new HashEmbedder(256));
    const wrapped = withSurrogateNamesFor(inner);
    expect(wrapped.id).toBe('dense-test+names-1');
    const [a] = await wrapped.embed([`${melanie} paints lakes.`]);
    const [b] = await inner.embed([withSurrogateNames(`${melanie} paints lakes.`)]);
    expect(inner.seen[0]).toBe(withSurrogateNames(`${melanie} paints lakes.`));
    expect(a).toEqual(b);
  });

  it('leaves a sparse embedder as it is: a pseudonym is already one distinct word to it', () => {
    const hash = new HashEmbedder(256);
    expect(withSurrogateNamesFor(hash)).toBe(hash);
  });
});
