import { describe, expect, it } from 'vitest';
import { re2ToJs } from '../../scripts/lib/re2-to-js.ts';

const compile = (re2: string): RegExp => {
  const conv = re2ToJs(re2);
  if (!conv.ok) throw new Error(conv.reason);
  return new RegExp(conv.pattern.source, conv.pattern.flags);
};

describe('re2ToJs', () => {
  it.each([
    // [RE2 pattern, matching input, non-matching input]
    ['(?i)secret=[a-z]{4}', 'SECRET=AbCd', 'secret=ab'],
    ['\\bLTAI(?i)[a-z0-9]{4}\\b', 'LTAIaB3x', 'ltaiaB3x'],
    ['(?i)key(?-i:ABC)', 'KEYABC', 'keyabc'],
    ['(?i:tok)EN', 'TOKEN', 'tokEn'],
    ['pat[[:alnum:]]{3}\\.', 'patA1b.', 'pat_1b.'],
    ['(?s:a.b)', 'a\nb', 'ab'],
    ['end\\z', 'the end', 'end of'],
    ['(?P<name>x)(y)\\2', 'xyy', 'xyx'],
  ])('%s', (re2, yes, no) => {
    const re = compile(re2);
    expect(re.test(yes)).toBe(true);
    expect(re.test(no)).toBe(false);
  });

  it.each([['(?:a+)+b'], ['(?:.*?x){1,5}'], ['(\\w*\\s?)*$']])(
    'refuses nested unbounded quantifiers: %s',
    (re2) => {
      expect(re2ToJs(re2).ok).toBe(false);
    },
  );

  it('refuses syntax it cannot translate', () => {
    expect(re2ToJs('\\p{Greek}+').ok).toBe(false);
    expect(re2ToJs('(?U)a+').ok).toBe(false);
  });
});
