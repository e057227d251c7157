import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.ts';

describe('ARBITER_HEAP_GROWTH_PERCENT', () => {
  it('lets the heap grow to 1.5 times its live part unless told otherwise, and 0 leaves it to V8', () => {
    expect(loadConfig({}).heapGrowthPercent).toBe(50);
    expect(loadConfig({ ARBITER_HEAP_GROWTH_PERCENT: '0' }).heapGrowthPercent).toBe(0);
    expect(loadConfig({ ARBITER_HEAP_GROWTH_PERCENT: '100' }).heapGrowthPercent).toBe(100);
  });

  it.each(['-1', '301', '1.5', 'lots'])('refuses %s, naming the variable', (value) => {
    expect(() => loadConfig({ ARBITER_HEAP_GROWTH_PERCENT: value })).toThrow(ConfigError);
    expect(() => loadConfig({ ARBITER_HEAP_GROWTH_PERCENT: value })).toThrow(/ARBITER_HEAP_GROWTH_PERCENT/);
  });
});

describe('whole-number settings', () => {
  it.each([
    ['PORT', '80.5'],
    ['ARBITER_VECTOR_CACHE_MB', '16.5'],
    ['ARBITER_BODY_LIMIT', '1e6'],
    ['ARBITER_KEY_CACHE_MS', '500ms'],
  ])('refuses %s=%s rather than rounding it', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(`${name} must be a whole number (got "${value}")`);
  });

  it('reads whole numbers, signs and surrounding spaces included', () => {
    expect(loadConfig({ PORT: ' 8081 ' }).port).toBe(8081);
    expect(loadConfig({ ARBITER_VECTOR_CACHE_MB: '+64' }).vectorCacheBytes).toBe(64 * 2 ** 20);
  });
});

describe('ARBITER_RELEVANCE_FLOOR', () => {
  it('is unset by default, a cosine in (0, 1) otherwise', () => {
    expect(loadConfig({}).relevanceFloor).toBeUndefined();
    expect(loadConfig({ ARBITER_RELEVANCE_FLOOR: '0.29' }).relevanceFloor).toBe(0.29);
    expect(() => loadConfig({ ARBITER_RELEVANCE_FLOOR: '1.2' })).toThrow(ConfigError);
  });
});

describe('ARBITER_RERANKER', () => {
  it('is off unless set, and reads a TEI or Cohere-compatible endpoint', () => {
    expect(loadConfig({}).reranker).toBeUndefined();
    expect(loadConfig({ ARBITER_RERANKER: 'tei:http://127.0.0.1:8080' }).reranker).toEqual({
      api: 'tei',
      url: 'http://127.0.0.1:8080',
      apiKey: undefined,
      model: undefined,
    });
    expect(
      loadConfig({
        ARBITER_RERANKER: 'cohere:https://api.cohere.com',
        ARBITER_RERANKER_MODEL: 'rerank-v3.5',
        ARBITER_RERANKER_API_KEY: 'k',
      }).reranker,
    ).toMatchObject({ api: 'cohere', model: 'rerank-v3.5', apiKey: 'k' });
    expect(loadConfig({ ARBITER_RERANKER: 'onnx:/models/ms-marco' }).reranker).toEqual({
      api: 'onnx',
      folder: '/models/ms-marco',
    });
  });

  it.each([
    [{ ARBITER_RERANKER: 'http://127.0.0.1:8080' }],
    [{ ARBITER_RERANKER: 'tei:ftp://x' }],
    [{ ARBITER_RERANKER: 'cohere:https://api.cohere.com' }],
  ])('refuses %j with one line', (env) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
  });
});
