import { describe, expect, it } from 'vitest';
import { passagesOf, SEGMENT_WINDOW, sentencesOf, TextFactChecker } from './text-check.ts';

const FACTS = [
  { id: 'f1', text: 'The refund window is 30 days' },
  { id: 'f2', text: 'The support line is closed on Sundays' },
];

function prose(sentences: number): string {
  const parts: string[] = [];
  for (let i = 0; i < sentences; i++)
    parts.push(
      i % 7 === 0 ? `Item ${i} shipped.\n` : `We checked order ${i} again (twice!) and it is fine. `,
    );
  return parts.join('');
}

describe('sentencesOf', () => {
  it('finds the sentences Intl.Segmenter finds, in windows, for a text of many windows', () => {
    const text = prose(3000);
    expect(text.length).toBeGreaterThan(20 * SEGMENT_WINDOW);
    const whole = [...new Intl.Segmenter('en', { granularity: 'sentence' }).segment(text)]
      .map((s) => ({ sentence: s.segment.trim(), start: s.index + s.segment.indexOf(s.segment.trim()) }))
      .filter((s) => s.sentence !== '');
    expect([...sentencesOf(text)].map(({ sentence, start }) => ({ sentence, start }))).toEqual(whole);
  });

  it('cuts a window without any sentence boundary after its last white space', () => {
    const text = `${'word '.repeat(2000)}end`;
    const passages = [...passagesOf(text)];
    expect(passages[0]).toEqual({ start: 0, end: text.lastIndexOf(' ', SEGMENT_WINDOW - 1) + 1 });
    expect(passages.at(-1)!.end).toBe(text.length);
    for (const p of passages) expect(p.end - p.start).toBeLessThanOrEqual(SEGMENT_WINDOW);
  });
});

describe('TextFactChecker', () => {
  it('reports a repeated contradicting sentence at each of its offsets', () => {
    const checker = new TextFactChecker(FACTS);
    const text = 'The refund window is 14 days. Fine. The refund window is 14 days.';
    expect(checker.check(text)).toBe(true);
    expect(checker.conflicts.map((c) => [c.fact.id, c.start])).toEqual([
      ['f1', 0],
      ['f1', 36],
    ]);
  });

  it('stops once its work budget is spent, and says so', () => {
    const checker = new TextFactChecker(FACTS, { maxWork: 50_000 });
    const text = Array.from({ length: 2000 }, (_, i) => `The refund window is ${i} days.`).join(' ');
    expect(checker.check(text)).toBe(false);
    expect(checker.exhausted).toBe(true);
    expect(checker.conflicts.length).toBeGreaterThan(0);
    expect(checker.conflicts.length).toBeLessThan(2000);
  });
});
