import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cosine } from '../../src/domains/ledger/embeddings/embedder.ts';
import {
  createOnnxEmbedder,
  loadOnnxRuntime,
  ONNX_RUNTIME_MISSING,
  WordPieceTokenizer,
} from '../../src/domains/ledger/embeddings/onnx.ts';
import { createOnnxReranker } from '../../src/domains/ledger/search/reranker.ts';
import { bearer, createTestApp } from '../helpers/app.ts';
import { TINY_DIMENSION, writeTinyCrossEncoder, writeTinyModel } from './fixtures/tiny-onnx.ts';

/** onnxruntime-node is an optional peer dependency: where it is not installed, these say so and skip. */
const runtime = await loadOnnxRuntime().catch(() => undefined);
if (!runtime)
  console.warn('onnxruntime-node is not installed: the onnx embedder tests with the tiny model are skipped.');

describe('the onnx embedder', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'arbiter-onnx-'));
  writeTinyModel(dir);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('says how to install the runtime when it is missing', async () => {
    await expect(loadOnnxRuntime('onnxruntime-node-not-installed')).rejects.toThrow(ONNX_RUNTIME_MISSING);
  });

  it('reads a WordPiece tokenizer.json: lower case, ## continuations, [CLS] … [SEP], unknown words', () => {
    const tokenizer = new WordPieceTokenizer(
      {
        normalizer: { lowercase: true },
        model: {
          type: 'WordPiece',
          vocab: { '[UNK]': 1, '[CLS]': 2, '[SEP]': 3, cat: 4, '##s': 10, '.': 12 },
        },
      },
      8,
    );
    expect(tokenizer.encode('Cats.')).toEqual([2, 4, 10, 12, 3]);
    expect(tokenizer.encode('zebra')).toEqual([2, 1, 3]);
    expect(tokenizer.encode('cat cat cat cat cat cat cat cat')).toHaveLength(8);
  });

  it.skipIf(!runtime)('embeds with the tiny model: mean pooled, normalised, like texts closer', async () => {
    const embedder = await createOnnxEmbedder(dir, runtime);
    expect(embedder.id).toBe('onnx-tiny-gather');
    expect(embedder.dimension).toBe(TINY_DIMENSION);
    const [cat, dog, truck, cats] = await embedder.embed([
      'The cat sat.',
      'A dog sat.',
      'The truck.',
      'Cats',
    ]);
    expect(cosine(cat!, cat!)).toBeCloseTo(1, 5);
    expect(cosine(cat!, dog!)).toBeGreaterThan(cosine(cat!, truck!));
    expect(cosine(cats!, cat!)).toBeGreaterThan(cosine(cats!, truck!));
    // Batched or one by one, the same vectors.
    const [alone] = await embedder.embed(['A dog sat.']);
    for (let i = 0; i < TINY_DIMENSION; i++) expect(alone![i]).toBeCloseTo(dog![i]!, 5);
  });

  it.skipIf(!runtime)('serves the vault with ARBITER_EMBEDDER=onnx:<folder>', async () => {
    const t = await createTestApp('sqlite', { env: { ARBITER_EMBEDDER: `onnx:${dir}` } });
    try {
      const key = (await t.newAccount()).key;
      const post = (url: string, payload: object) =>
        t.app.inject({ method: 'POST', url, headers: bearer(key), payload });
      for (const claim of ['The cat sat.', 'The truck.'])
        expect((await post('/v2/vault/store', { claim, source: 's', confidence: 1 })).statusCode).toBe(201);
      const found = (await post('/v2/vault/search', { query: 'the cat sat', top_k: 1 })).json();
      expect(found.results[0].claim).toBe('The cat sat.');
    } finally {
      await t.close();
    }
  });

  it('names the file a folder lacks', async () => {
    const empty = mkdtempSync(path.join(tmpdir(), 'arbiter-onnx-empty-'));
    try {
      await expect(createOnnxEmbedder(empty, runtime ?? ({} as never))).rejects.toThrow(
        /config\.json is missing/,
      );
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });
});

describe('the onnx cross-encoder', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'arbiter-onnx-rerank-'));
  writeTinyCrossEncoder(dir);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('reads a pair as [CLS] a [SEP] b [SEP] with segments 0 and 1', () => {
    const tokenizer = new WordPieceTokenizer(
      { model: { type: 'WordPiece', vocab: { '[UNK]': 1, '[CLS]': 2, '[SEP]': 3, which: 4, desk: 5 } } },
      16,
    );
    expect(tokenizer.encodePair('which', 'desk')).toEqual({ ids: [2, 4, 3, 5, 3], typeIds: [0, 0, 0, 1, 1] });
  });

  it.skipIf(!runtime)('scores each pair with the model, in the order of the texts', async () => {
    const reranker = await createOnnxReranker(dir, runtime);
    expect(reranker.id).toBe('onnx-tiny-cross-encoder');
    expect(await reranker.rerank('which desk', ['desk one', 'desk two', 'desk three'])).toEqual([1, 0.5, 2]);
  });

  it.skipIf(!runtime)('orders search results with ARBITER_RERANKER=onnx:<folder>', async () => {
    const t = await createTestApp('sqlite', { env: { ARBITER_RERANKER: `onnx:${dir}` } });
    try {
      const key = (await t.newAccount()).key;
      const post = (url: string, payload: object) =>
        t.app.inject({ method: 'POST', url, headers: bearer(key), payload });
      for (const n of ['one', 'two', 'three'])
        await post('/v2/vault/store', {
          claim: `Refunds go to desk ${n} in Lyon.`,
          source: 's',
          confidence: 1,
        });
      const found = (
        await post('/v2/vault/search', { query: 'Which desk do refunds go to in Lyon?', top_k: 3 })
      ).json();
      expect(found.results.map((r: { claim: string }) => r.claim.split(' ')[4])).toEqual([
        'three',
        'one',
        'two',
      ]);
    } finally {
      await t.close();
    }
  });
});
