import { describe, expect, it } from 'vitest';
import { HashEmbedder } from '../embeddings/hash.ts';
import { QueryVectorCache } from '../embeddings/query-cache.ts';
import { LOCAL_RELEVANCE_FLOOR, rankCandidates } from './hybrid.ts';
import { analyseQuery, entitiesOf, holdsAnswerType, isNegated } from './question.ts';

describe('analyseQuery', () => {
  it.each([
    ['where is the office?', true, 'place'],
    ['what city is our HQ in?', true, 'place'],
    ['When can I call support?', true, 'time'],
    ['how long does it take to get my money back?', true, 'duration'],
    ['How many children does Melanie have?', true, 'quantity'],
    ['Who supports Caroline?', true, 'person'],
    ['What did Caroline research?', true, null],
    ['Is the office in Lyon?', true, null],
    ['The office is in Lyon.', false, null],
  ])('%s → question %s, answer type %s', (query, question, type) => {
    expect(analyseQuery(query)).toMatchObject({ question, answerType: type });
  });

  it('takes names, acronyms and numbers as entities, not the word opening a sentence', () => {
    expect(entitiesOf('When did Caroline go to the LGBTQ support group in 2023?').sort()).toEqual([
      '2023',
      'caroline',
      'lgbtq',
    ]);
    expect(entitiesOf('The office is in Lyon. Paris is closed.')).toEqual(['lyon']);
  });
});

describe('answer types and negation', () => {
  it.each([
    ['The office is in Lyon.', 'place', true],
    ['The team is quiet.', 'place', false],
    ['Refunds are processed within 5 business days.', 'duration', true],
    ['Refunds are processed by the bank.', 'duration', false],
    ['Support is available from 9am to 5pm, Monday to Friday.', 'time', true],
    ['Support is friendly.', 'time', false],
    ['Melanie has three children.', 'quantity', true],
  ] as const)('%s holds a %s: %s', (text, type, holds) => {
    expect(holdsAnswerType(text, type)).toBe(holds);
  });

  it('knows a negated statement', () => {
    expect(isNegated('The office is not in Paris.')).toBe(true);
    expect(isNegated("The office isn't in Paris.")).toBe(true);
    expect(isNegated('The office is in Paris.')).toBe(false);
  });
});

describe('rankCandidates', () => {
  const candidate = (id: string, text: string, cosine: number, lexical = 1, overlap = 1) => ({
    id,
    text,
    cosine,
    lexical,
    overlap,
  });

  it('puts the affirmative answer above a negated fact that is a little closer', () => {
    const ranked = rankCandidates(
      analyseQuery('where is the office?'),
      [
        candidate('neg', 'The office is not in Paris.', 0.42),
        candidate('lyon', 'The office is in Lyon.', 0.39),
      ],
      () => 1,
      LOCAL_RELEVANCE_FLOOR,
      5,
    );
    expect(ranked.map((r) => r.id)).toEqual(['lyon', 'neg']);
    // The same claims for a statement: the closer one first, nothing is penalised.
    const statement = rankCandidates(
      analyseQuery('The office is in Paris.'),
      [
        candidate('neg', 'The office is not in Paris.', 0.9),
        candidate('lyon', 'The office is in Lyon.', 0.8),
      ],
      () => 1,
      LOCAL_RELEVANCE_FLOOR,
      5,
    );
    expect(statement.map((r) => r.id)).toEqual(['neg', 'lyon']);
  });

  it('lets a question through below the statement floor only with the answer kind or shared words', () => {
    const rank = (query: string, c: ReturnType<typeof candidate>) =>
      rankCandidates(analyseQuery(query), [c], () => 1, LOCAL_RELEVANCE_FLOOR, 5).length;
    const berlin = candidate('b', 'Our headquarters are in Berlin.', 0.41, 0, 0);
    expect(rank('what city is our HQ in?', berlin)).toBe(1);
    expect(rank('our HQ city', berlin)).toBe(0);
    expect(rank('what is our HQ?', berlin)).toBe(0);
    expect(rank('what city is our HQ in?', { ...berlin, cosine: 0.35 })).toBe(0);
  });
});

describe('QueryVectorCache', () => {
  it('embeds a repeated query once, per model, and forgets the least recently used', async () => {
    let calls = 0;
    const inner = new HashEmbedder();
    const counting = {
      ...inner,
      id: inner.id,
      dimension: inner.dimension,
      embed: (t: string[]) => {
        calls += t.length;
        return inner.embed(t);
      },
    };
    const cache = new QueryVectorCache(2);
    const a = await cache.embed(counting, 'where is the office?');
    expect(await cache.embed(counting, 'where is the office?')).toBe(a);
    expect(calls).toBe(1);
    await cache.embed(counting, 'b');
    await cache.embed(counting, 'where is the office?');
    await cache.embed(counting, 'c'); // evicts 'b', the least recently used
    expect(cache.size).toBe(2);
    await cache.embed(counting, 'where is the office?');
    expect(calls).toBe(3);
    await cache.embed(counting, 'b');
    expect(calls).toBe(4);
    expect(await cache.embed({ ...counting, id: 'other-model' }, 'where is the office?')).not.toBe(a);
  });
});
