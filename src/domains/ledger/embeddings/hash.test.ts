import { describe, expect, it } from 'vitest';
import { cosine } from './embedder.ts';
import { HashEmbedder, normaliseWords } from './hash.ts';

describe('HashEmbedder', () => {
  const embedder = new HashEmbedder(256);

  it('is deterministic and unit length', async () => {
    const [a, b] = await embedder.embed(['The café opens at nine.', 'The café opens at nine.']);
    expect(a).toEqual(b);
    expect(a).toHaveLength(256);
    expect(cosine(a!, a!)).toBeCloseTo(1, 5);
  });

  it.each([
    ['A man is playing a guitar.', 'The man plays the guitar.', 'Stock markets fell sharply on Monday.'],
    ['The invoice total is 42 euros.', 'Invoice total: 42 EUR', 'The cat sleeps on the sofa.'],
    ['Kubernetes cluster upgrade failed', 'the kubernetes upgrade of the cluster failed', 'Lunch is served'],
  ])('ranks shared wording above unrelated text: %s', async (query, near, far) => {
    const [q, n, f] = await embedder.embed([query, near, far]);
    expect(cosine(q!, n!)).toBeGreaterThan(cosine(q!, f!) + 0.2);
  });

  it('gives an all-zero vector for text without words', async () => {
    const [v] = await embedder.embed(['  ...  ']);
    expect(cosine(v!, v!)).toBe(0);
  });

  it('normalises case and accents', () => {
    expect(normaliseWords('Élan, CAFÉ-au-lait!')).toEqual(['elan', 'cafe', 'au', 'lait']);
  });
});
