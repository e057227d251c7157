import { describe, expect, it } from 'vitest';
import { cosine } from './embedder.ts';
import { LocalUseEmbedder } from './local.ts';

// The only tests that load the model (about 30 MB of weights, about a second each on a shared core):
// once in a worker thread (the default) and once in-process.
describe.each([1, 0])('LocalUseEmbedder with %i worker(s)', (workers) => {
  it('embeds paraphrases closer than unrelated sentences, in order, blank text as zeros', {
    timeout: 60_000,
  }, async () => {
    const embedder = new LocalUseEmbedder({ workers });
    const texts = [
      'A man is playing a guitar.',
      'Someone strums an acoustic guitar.',
      '',
      'The central bank raised interest rates.',
    ];
    const vectors = await embedder.embed(texts);
    expect(vectors).toHaveLength(4);
    for (const v of vectors) expect(v).toHaveLength(512);
    const [guitar, strum, blank, bank] = vectors;
    expect(cosine(guitar!, strum!)).toBeGreaterThan(cosine(guitar!, bank!) + 0.2);
    expect(cosine(blank!, blank!)).toBe(0);
    const [again] = await embedder.embed([texts[0]!]);
    expect(cosine(again!, guitar!)).toBeCloseTo(1, 4);
    // A megabyte-long claim is embedded from its beginning instead of stalling the tokenizer.
    const started = performance.now();
    const [long] = await embedder.embed([`${texts[0]} ${'and it keeps playing '.repeat(50_000)}`]);
    expect(performance.now() - started).toBeLessThan(10_000);
    expect(cosine(long!, long!)).toBeCloseTo(1, 4);
    await embedder.close();
  });
});
