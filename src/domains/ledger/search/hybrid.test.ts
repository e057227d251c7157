import { describe, expect, it } from 'vitest';
import { InMemoryHybridIndex } from '../../../../scripts/lib/memory-index.ts';
import { HashEmbedder } from '../embeddings/hash.ts';
import {
  exactNearest,
  fuseRankings,
  HASH_RELEVANCE_FLOOR,
  LOCAL_RELEVANCE_FLOOR,
  passesFloor,
  RRF_K,
  rankByRelevanceAndConfidence,
  relevanceFloorFor,
} from './hybrid.ts';
import { Bm25Index, lexicalOverlap, stem } from './lexical.ts';

const details = (cosines: Record<string, number>) => (id: string) => ({
  cosine: cosines[id] ?? 0,
  overlap: 0,
});

describe('fuseRankings', () => {
  it('rewards agreement between the two rankings and normalises to (0, 1]', () => {
    const fused = fuseRankings(
      [
        { id: 'a', cosine: 0.9 },
        { id: 'b', cosine: 0.8 },
      ],
      [
        { id: 'b', score: 7 },
        { id: 'c', score: 3 },
      ],
      details({ a: 0.9, b: 0.8, c: 0.1 }),
    );
    expect(fused.map((h) => h.id)).toEqual(['b', 'a', 'c']);
    expect(fused[0]!.relevance).toBeCloseTo((1 / (RRF_K + 2) + 1 / (RRF_K + 1)) / (2 / (RRF_K + 1)), 10);
    expect(fused.find((h) => h.id === 'c')).toMatchObject({ vectorRank: null, lexicalRank: 2, cosine: 0.1 });
    for (const h of fused) expect(h.relevance).toBeGreaterThan(0);
  });

  it('gives relevance 1 to a candidate first in both rankings', () => {
    const [top] = fuseRankings([{ id: 'x', cosine: 1 }], [{ id: 'x', score: 1 }], details({ x: 1 }));
    expect(top!.relevance).toBe(1);
  });
});

describe('relevance floor and final order', () => {
  const floor = { cosine: 0.6, cosineWithOverlap: 0.4, minOverlap: 0.5 };
  it.each([
    [0.61, 0, true],
    [0.59, 0, false],
    [0.45, 0.5, true],
    [0.45, 0.49, false],
    [0.39, 1, false],
  ])('cosine %s overlap %s passes: %s', (cosine, overlap, ok) => {
    expect(passesFloor({ cosine, overlap }, floor)).toBe(ok);
  });

  it('drops what is under the floor and orders by relevance × confidence', () => {
    const fused = fuseRankings(
      [
        { id: 'sure', cosine: 0.7 },
        { id: 'doubtful', cosine: 0.9 },
        { id: 'noise', cosine: 0.3 },
      ],
      [],
      details({ sure: 0.7, doubtful: 0.9, noise: 0.3 }),
    );
    const confidence: Record<string, number> = { sure: 0.95, doubtful: 0.2, noise: 1 };
    const ranked = rankByRelevanceAndConfidence(fused, (id) => confidence[id]!, floor, 10);
    expect(ranked.map((r) => r.id)).toEqual(['sure', 'doubtful']);
    expect(ranked[0]!.score).toBeCloseTo(ranked[0]!.relevance * 0.95, 10);
  });

  it('uses the lexical floor for the hash embedder', () => {
    expect(relevanceFloorFor('hash-v1-512')).toBe(HASH_RELEVANCE_FLOOR);
  });
});

describe('exactNearest', () => {
  it('returns exactly the brute-force top k', () => {
    const vectors: [string, Float32Array][] = Array.from({ length: 50 }, (_, i) => [
      `v${i}`,
      Float32Array.from([Math.cos(i / 10), Math.sin(i / 10)]),
    ]);
    const q = Float32Array.from([1, 0]);
    const top = exactNearest(q, vectors, 3);
    expect(top.map((h) => h.id)).toEqual(['v0', 'v1', 'v2']);
    expect(top[1]!.cosine).toBeCloseTo(Math.cos(0.1), 6);
  });
});

describe('lexical side', () => {
  it.each([
    ['plays', 'played', 'playing', 'play'],
    ['invoice', 'invoices', 'invoiced', 'invoicing'],
    ['run', 'runs', 'running'],
    ['glass', 'glasses'],
    ['party', 'parties'],
    ['fall', 'falls', 'falling'],
  ])('stems %s together', (...forms) => {
    expect(new Set(forms.map(stem)).size).toBe(1);
  });

  it('measures overlap on content words', () => {
    expect(lexicalOverlap('the invoices of Acme', 'Acme sent an invoice')).toBe(1);
    expect(lexicalOverlap('weather in Oslo', 'Acme sent an invoice')).toBe(0);
  });

  it('ranks documents with rarer shared terms higher, and forgets removed ones', () => {
    const index = new Bm25Index();
    index.add('1', 'the cat sat on the mat');
    index.add('2', 'the dog sat on the log');
    index.add('3', 'a cat and a dog');
    expect(index.search('cat mat', 3).map((h) => h.id)).toEqual(['1', '3']);
    index.remove('1');
    expect(index.search('cat mat', 3).map((h) => h.id)).toEqual(['3']);
    expect(index.size).toBe(2);
  });
});

describe('InMemoryHybridIndex', () => {
  it('answers known subjects and returns nothing for unrelated queries', async () => {
    const index = new InMemoryHybridIndex(new HashEmbedder(512), HASH_RELEVANCE_FLOOR);
    await index.addAll([
      { id: 'db', text: 'The orders database runs on PostgreSQL 16 in eu-west-1', confidence: 0.9 },
      { id: 'oncall', text: 'Maria is the on-call engineer for payments this week', confidence: 0.8 },
      { id: 'refund', text: 'Customers can request a refund within 30 days of purchase', confidence: 1 },
    ]);
    expect((await index.search('which database do orders use?'))[0]?.id).toBe('db');
    expect((await index.search('who is on call for payments'))[0]?.id).toBe('oncall');
    expect(await index.search('best hiking trails near the lake')).toEqual([]);
  });
});

describe('relevanceFloorFor with a measured cosine', () => {
  it('replaces the statement cosine and scales the other cosines by the same factor', () => {
    const floor = relevanceFloorFor('onnx-all-MiniLM-L6-v2', 0.29);
    expect(floor.cosine).toBe(0.29);
    expect(floor.cosineWithOverlap).toBeCloseTo(0.2, 3);
    expect(floor.questionCosine).toBeCloseTo(0.15, 3);
    expect(floor.minOverlap).toBe(0.5);
    expect(relevanceFloorFor('onnx-all-MiniLM-L6-v2')).toBe(LOCAL_RELEVANCE_FLOOR);
  });
});
