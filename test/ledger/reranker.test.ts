import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHttpReranker, rerankUrl } from '../../src/domains/ledger/search/reranker.ts';
import { bearer, createTestApp, type TestApp } from '../helpers/app.ts';
import { DIALECTS } from '../helpers/databases.ts';
import { type Received, startReceiver } from '../helpers/receiver.ts';

/**
 * A fake rerank server speaking both real interfaces: Hugging Face TEI (`POST /rerank`
 * `{query, texts}` → `[{index, score}]`, best first) and Cohere (`POST /v1/rerank`
 * `{model, query, documents, top_n}` → `{results: [{index, relevance_score}]}`). It scores a
 * text by where its number appears in `preferred`: the order the tests expect back.
 */
const preferred = ['3', '1', '2'];
function fakeRerank(req: Received): { status: number; body: string; type: string } {
  const body = JSON.parse(req.body) as { texts?: string[]; documents?: string[] };
  const texts = req.path === '/rerank' ? body.texts! : body.documents!;
  const scored = texts
    .map((text, index) => {
      const rank = preferred.findIndex((p) => text.includes(`desk ${p}`));
      return { index, score: rank < 0 ? 0 : 1 - rank / 10 };
    })
    .sort((a, b) => b.score - a.score);
  const answer =
    req.path === '/rerank'
      ? scored
      : { id: 'r1', results: scored.map((s) => ({ index: s.index, relevance_score: s.score })) };
  return { status: 200, body: JSON.stringify(answer), type: 'application/json' };
}

describe('HTTP rerankers', () => {
  let server: Awaited<ReturnType<typeof startReceiver>>;
  beforeAll(async () => {
    server = await startReceiver(fakeRerank);
  });
  afterAll(() => server.close());

  it('builds each API’s URL', () => {
    expect(rerankUrl('tei', 'http://h:8080/')).toBe('http://h:8080/rerank');
    expect(rerankUrl('cohere', 'https://api.cohere.com')).toBe('https://api.cohere.com/v1/rerank');
    expect(rerankUrl('cohere', 'http://h/v1')).toBe('http://h/v1/rerank');
  });

  it.each(['tei', 'cohere'] as const)('reads %s scores back in the order of the texts given', async (api) => {
    const reranker = createHttpReranker({ api, url: server.url, model: 'ms-marco-test', apiKey: 'k' });
    const scores = await reranker.rerank('which desk?', ['desk 1', 'desk 2', 'desk 3', 'nothing']);
    expect(scores).toEqual([0.9, 0.8, 1, 0]);
    const sent = JSON.parse(server.received.at(-1)!.body);
    expect(server.received.at(-1)!.headers.authorization).toBe('Bearer k');
    if (api === 'tei') expect(sent).toMatchObject({ query: 'which desk?', texts: expect.any(Array) });
    else
      expect(sent).toMatchObject({
        model: 'ms-marco-test',
        query: 'which desk?',
        documents: expect.any(Array),
      });
  });
});

describe.each(DIALECTS)('search with a reranker, on %s', (dialect) => {
  let t: TestApp;
  let server: Awaited<ReturnType<typeof startReceiver>>;
  let failing = false;
  beforeAll(async () => {
    server = await startReceiver((req) =>
      failing ? { status: 503, body: '', type: 'text/plain' } : fakeRerank(req),
    );
    t = await createTestApp(dialect, { env: { ARBITER_RERANKER: `tei:${server.url}` } });
  });
  afterAll(async () => {
    await t.close();
    await server.close();
  });

  it('orders the claims that passed the floor as the reranker says, and keeps its own order when it fails', async () => {
    const key = (await t.newAccount()).key;
    const post = (url: string, payload: object) =>
      t.app.inject({ method: 'POST', url, headers: bearer(key), payload });
    for (const n of [1, 2, 3]) {
      await post('/v2/vault/store', {
        claim: `Refund requests go to desk ${n} in the Lyon office.`,
        source: 's',
        confidence: 1,
      });
    }
    const query = { query: 'Which desk do refund requests go to in the Lyon office?', top_k: 3 };
    const found = (await post('/v2/vault/search', query)).json();
    expect(found.results.map((r: { claim: string }) => r.claim.match(/desk (\d)/)![1])).toEqual(preferred);
    failing = true;
    const unranked = (await post('/v2/vault/search', query)).json();
    expect(unranked.results).toHaveLength(3);
    expect(t.logs()).toContain('reranker failed');
  });
});
