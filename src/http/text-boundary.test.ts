import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { escapesIllFormedText } from './json-parser.ts';
import { findIllFormedText, illFormedTextError } from './text-boundary.ts';

/** JSON as `ensure_ascii` clients write it: every non-ASCII code unit escaped, hex in either case. */
function asciiJson(value: string, upper: boolean): string {
  return JSON.stringify(value).replace(/[^\x20-\x7e]/g, (c) => {
    const hex = c.charCodeAt(0).toString(16).padStart(4, '0');
    return `\\u${upper ? hex.toUpperCase() : hex}`;
  });
}

/** Code units a lone one of which is ill-formed, mixed with well-formed text and escapes. */
const unit = fc.oneof(
  fc.constantFrom(
    '\ud800',
    '\udbff',
    '\udc00',
    '\udfff',
    '\u0000',
    '\ud83d\ude00',
    '\\',
    '"',
    'u',
    'é',
    '\u202e',
  ),
  fc.string({ unit: 'binary', maxLength: 3 }),
);
const text = fc.array(unit, { maxLength: 12 }).map((parts) => parts.join(''));
const ILL_FORMED = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]|\u0000/;

describe('escapesIllFormedText', () => {
  it('agrees with a per-string check, however the text is escaped', () => {
    fc.assert(
      fc.property(text, fc.boolean(), (value, upper) => {
        const expected = ILL_FORMED.test(value);
        expect(escapesIllFormedText(JSON.stringify({ [value]: 1 }))).toBe(expected);
        expect(escapesIllFormedText(`[${JSON.stringify(value)}]`)).toBe(expected);
        expect(escapesIllFormedText(`[${asciiJson(value, upper)}]`)).toBe(expected);
      }),
      { numRuns: 2000, seed: 7 },
    );
  });

  it('reads escaped backslashes as text', () => {
    expect(escapesIllFormedText(String.raw`["\\u0000", "\\ud800"]`)).toBe(false);
    expect(escapesIllFormedText(String.raw`["\\\u0000"]`)).toBe(true);
    expect(escapesIllFormedText(String.raw`["\ud83d\ude00", "\uD83D\uDE00"]`)).toBe(false);
    expect(escapesIllFormedText(String.raw`["\ud83d\u0041"]`)).toBe(true);
    expect(escapesIllFormedText(String.raw`["\ud83d😀"]`)).toBe(true);
  });
});

describe('findIllFormedText', () => {
  it.each([
    [{ branches: ['main', 'x\ud800'] }, 'body.branches[1]', 'surrogate', false],
    [{ payload: { 'a b': ['\u0000'] } }, 'body.payload["a b"][0]', 'nul', false],
    [{ payload: { ['\udc00']: 'x' } }, 'body.payload["\\udc00"]', 'surrogate', true],
    ['\u0000', 'body', 'nul', false],
  ])('names %j as %s', (value, field, problem, inName) => {
    expect(findIllFormedText(value, 'body')).toEqual({ field, problem, inName });
  });

  it('accepts well-formed text of any script, bidi controls and emoji included', () => {
    expect(
      findIllFormedText({ a: ['d\u00e9j\u00e0', '\u202eabc\u2069', '\ud83d\ude00', 'e\u0301'] }, 'body'),
    ).toBe(undefined);
  });

  it('makes a 400 that names the field', () => {
    const error = illFormedTextError({ field: 'header idempotency-key', problem: 'nul', inName: false });
    expect(error.status).toBe(400);
    expect(error.code).toBe('VALIDATION_ERROR');
    expect(error.message).toMatch(/^header idempotency-key contains a NUL/);
    expect(error.details).toEqual({ field: 'header idempotency-key' });
  });
});
