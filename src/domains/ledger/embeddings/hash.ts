import type { Embedder } from './embedder.ts';
import { l2Normalize } from './embedder.ts';

/**
 * Deterministic lexical embedding without a model: signed feature hashing of normalised word
 * unigrams, bigrams and character trigrams. Similar wording gives similar vectors; paraphrases
 * with different words do not, which is why `local` is the default.
 */

const STOPWORDS = new Set(
  'a an the and or but of to in on at by for with from as is are was were be been being it its this that these those there here has have had do does did not no'.split(
    ' ',
  ),
);

export function normaliseWords(text: string): string[] {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w.length > 0);
}

/** FNV-1a, 32 bit. */
function fnv1a(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

const UNIGRAM_WEIGHT = 1;
const BIGRAM_WEIGHT = 0.6;
const TRIGRAM_WEIGHT = 0.25;

export class HashEmbedder implements Embedder {
  readonly id: string;
  readonly sparse = true;

  constructor(readonly dimension = 512) {
    this.id = `hash-v1-${dimension}`;
  }

  async embed(texts: string[]): Promise<Float32Array[]> {
    return texts.map((t) => this.embedOne(t));
  }

  embedOne(text: string): Float32Array {
    const v = new Float32Array(this.dimension);
    const add = (feature: string, weight: number): void => {
      const h = fnv1a(feature);
      // The top bit picks the sign so that colliding features cancel out on average.
      v[h % this.dimension]! += h & 0x80000000 ? -weight : weight;
    };
    const words = normaliseWords(text);
    const content = words.filter((w) => !STOPWORDS.has(w));
    for (const w of content) add(`w:${w}`, UNIGRAM_WEIGHT);
    for (let i = 1; i < content.length; i++) add(`b:${content[i - 1]} ${content[i]}`, BIGRAM_WEIGHT);
    for (const w of content) {
      const padded = `^${w}$`;
      for (let i = 0; i + 3 <= padded.length; i++) add(`c:${padded.slice(i, i + 3)}`, TRIGRAM_WEIGHT);
    }
    return l2Normalize(v);
  }
}
