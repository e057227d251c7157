import { describe, expect, it } from 'vitest';
import { memoizeText } from './text-memo.ts';

describe('memoizeText', () => {
  it('computes each input once while it stays among the most recently used', () => {
    const calls: string[] = [];
    const upper = memoizeText(
      (s) => {
        calls.push(s);
        return s.toUpperCase();
      },
      { capacity: 2, maxLength: 10 },
    );
    expect(upper('a')).toBe('A');
    expect(upper('b')).toBe('B');
    expect(upper('a')).toBe('A'); // a is now the most recent
    expect(upper('c')).toBe('C'); // evicts b, the least recent
    expect(upper('a')).toBe('A');
    expect(upper('b')).toBe('B');
    expect(calls).toEqual(['a', 'b', 'c', 'b']);
  });

  it('never remembers inputs longer than maxLength', () => {
    let count = 0;
    const f = memoizeText(
      (s) => {
        count += 1;
        return s.length;
      },
      { capacity: 10, maxLength: 3 },
    );
    f('abcd');
    f('abcd');
    f('abc');
    f('abc');
    expect(count).toBe(3);
  });
});
