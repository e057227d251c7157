import { describe, expect, it } from 'vitest';
import { detectConflict, findConflicts } from './checker.ts';
import { analyse, MAX_TERMS, MAX_WORDS } from './statement-analysis.ts';
import { checkTextAgainstFacts } from './text-check.ts';

describe('detectConflict', () => {
  const conflicts: [string, string, string, string][] = [
    // [stored claim, new claim, expected kind, why]
    ['The deploy pipeline is green', 'The deploy pipeline is not green', 'negation', 'plain not'],
    [
      'There is no backup of the orders database',
      'A backup of the orders database exists',
      'negation',
      'no + there is',
    ],
    ["The API doesn't support pagination", 'The API supports pagination', 'negation', "contracted n't"],
    ['Nobody has access to the vault', 'Alice has access to the vault', 'negation', 'nobody vs somebody'],
    ['The staging server is online', 'The staging server is offline', 'antonym', 'state opposites'],
    [
      'The feature flag is enabled for all tenants',
      'The feature flag is disabled for all tenants',
      'antonym',
      'enabled/disabled',
    ],
    ['The invoice is valid', 'The invoice is invalid', 'antonym', 'negating prefix'],
    ['Traffic went up after the release', 'Traffic went down after the release', 'antonym', 'direction'],
    [
      'The customer turned on two-factor login',
      'The customer turned off two-factor login',
      'antonym',
      'phrasal verbs',
    ],
    ['The meeting starts at 3pm', 'The meeting starts at 4pm', 'value_mismatch', 'time'],
    ['The contract is worth 120,000 USD', 'The contract is worth 95,000 USD', 'value_mismatch', 'amount'],
    ['The office was opened in 2019', 'The office was opened in 2021', 'value_mismatch', 'year'],
    [
      'Three engineers are on call this week',
      'Two engineers are on call this week',
      'value_mismatch',
      'number words',
    ],
    [
      'The capital of Australia is Sydney',
      'The capital of Australia is Canberra',
      'entity_mismatch',
      'proper nouns in one slot',
    ],
    [
      'Our primary database runs on PostgreSQL',
      'Our primary database runs on MySQL',
      'entity_mismatch',
      'product names',
    ],
  ];
  it.each(conflicts)('%s / %s → %s (%s)', (stored, incoming, kind) => {
    expect(detectConflict(incoming, stored, 0.8)?.kind).toBe(kind);
  });

  const compatible: [string, string, string][] = [
    ['The deploy pipeline is green', 'The deploy pipeline is green again', 'same statement'],
    ['The door is not open', 'The door is closed', 'negation and opposite agree'],
    ['A man is playing the piano', 'There is no man playing a flute', 'denies something else'],
    ['The service runs in eu-west-1', 'The service has 3 replicas', 'different facts about one subject'],
    ['Alice manages billing', 'Alice manages the billing and payments teams', 'more detail'],
    ['The meeting starts at 3pm', 'The meeting starts at 3pm in room 4', 'added quantity'],
    ['A man is playing a guitar', 'A person is playing a guitar', 'hypernym'],
    ['The release shipped in March', 'Revenue grew in March', 'unrelated'],
    ['Paris is the capital of France', 'Paris has many museums', 'same entity, other fact'],
  ];
  it.each(compatible)('%s / %s → none (%s)', (stored, incoming) => {
    expect(detectConflict(incoming, stored, 0.8)).toBeNull();
  });

  it('never reports statements below the similarity floor', () => {
    expect(detectConflict('The server is not up', 'The server is up', 0.05)).toBeNull();
    expect(detectConflict('The server is not up', 'The server is up', 0.05, { minSimilarity: 0 })?.kind).toBe(
      'negation',
    );
  });

  it('explains what differs', () => {
    expect(detectConflict('The queue is empty', 'The queue is full', 0.9)?.reason).toBe('"full" vs "empty"');
    expect(detectConflict('The queue is full', 'The queue is empty', 0.9)?.reason).toBe('"empty" vs "full"');
    expect(detectConflict('Latency is 40 ms', 'Latency is 25 ms', 0.9)?.reason).toBe('25ms vs 40ms');
  });
});

describe('findConflicts', () => {
  it('returns the contradicted candidates, most similar first, with the claim attached', () => {
    const candidates = [
      { id: 'c1', text: 'The API rate limit is 100 requests per minute', similarity: 0.71, confidence: 0.9 },
      { id: 'c2', text: 'The API rate limit is 120 requests per minute', similarity: 0.93, confidence: 0.5 },
      { id: 'c3', text: 'The API requires an API key', similarity: 0.6, confidence: 1 },
    ];
    const found = findConflicts('The API rate limit is 120 requests per minute', candidates);
    expect(found.map((f) => [f.claim.id, f.kind])).toEqual([['c1', 'value_mismatch']]);
    const more = findConflicts('The API rate limit is 60 requests per minute', candidates);
    expect(more.map((f) => f.claim.id)).toEqual(['c2', 'c1']);
    expect(more[0]).toMatchObject({ similarity: 0.93, claim: { confidence: 0.5 } });
  });
});

describe('checkTextAgainstFacts', () => {
  const facts = [
    { id: 'f1', text: 'The refund window is 30 days' },
    { id: 'f2', text: 'Orders over 50 EUR ship for free' },
    { id: 'f3', text: 'The support line is closed on Sundays' },
  ];

  it('names each contradicting sentence with its offsets and the fact', () => {
    const text =
      'Thanks for asking! The refund window is 14 days. Orders over 50 EUR ship for free. Support is open daily.';
    const found = checkTextAgainstFacts(text, facts);
    expect(found.map((f) => [f.fact.id, f.conflict.kind])).toEqual([['f1', 'value_mismatch']]);
    const [first] = found;
    expect(text.slice(first!.start, first!.end)).toBe('The refund window is 14 days.');
  });

  it('finds negations of facts and stays quiet on consistent text', () => {
    expect(checkTextAgainstFacts('Orders over 50 EUR do not ship for free.', facts)[0]?.conflict.kind).toBe(
      'negation',
    );
    expect(checkTextAgainstFacts('The support line is open on Sundays.', facts)[0]?.conflict.kind).toBe(
      'antonym',
    );
    expect(checkTextAgainstFacts('You can return items within 30 days. Have a nice day.', facts)).toEqual([]);
    expect(checkTextAgainstFacts('', facts)).toEqual([]);
  });
});

describe('WordNet relations', () => {
  it.each([
    ['The depot is in a rural area', 'The depot is in an urban area', 'antonym', 'WordNet antonyms'],
    ['The defendant was found guilty', 'The defendant was found innocent', 'antonym', 'WordNet antonyms'],
    [
      'There is no man cutting a potato',
      'A man is slicing a potato',
      'negation',
      'slicing is a kind of cutting',
    ],
    ['Nobody is riding a horse', 'A woman is riding a horse', 'negation', 'a woman is somebody'],
  ])('%s / %s → %s (%s)', (stored, incoming, kind) => {
    expect(detectConflict(incoming, stored, 0.8)?.kind).toBe(kind);
  });

  it.each([
    ['A man is riding a horse', 'A woman is riding a horse', 'different subjects'],
    ['A horse is being ridden by a man', 'A woman is riding a horse', 'different subjects, one passive'],
    [
      'No man is slicing a potato',
      'A person is cutting a potato',
      'a person cutting need not be a man slicing',
    ],
    ['A man is playing a guitar', 'A man is playing a piano', 'two kinds of instrument are not opposites'],
  ])('%s / %s → none (%s)', (stored, incoming) => {
    expect(detectConflict(incoming, stored, 0.8)).toBeNull();
  });

  it('bounds the work of a long claim: only its first terms and words are compared', () => {
    const long = Array.from({ length: 2000 }, (_, i) => `word${i % 500} term${i}`).join(' ');
    const analysed = analyse(`The gate is open ${long}`);
    expect(analysed.terms.size).toBe(MAX_TERMS);
    expect(analysed.wordSet.size).toBe(MAX_WORDS);
    // The opening of each statement is still compared.
    expect(detectConflict(`The gate is closed ${long}`, `The gate is open ${long}`, 0.9)?.kind).toBe(
      'antonym',
    );
  });
});
