import { RE2JS } from 're2js';

/** A compiled rule pattern: a test, and the name a pattern's first group captures. */
export interface RulePattern {
  test(text: string): boolean;
  /** The first capture group of the first match (the whole match without groups), or undefined. */
  capture(text: string): string | undefined;
}

const IGNORE_CASE = '(?i)';

/**
 * Checks that a pattern is RE2 syntax (no back-references or look-around, so matching is linear in
 * the text); returns the parser's complaint otherwise.
 */
export function linearPatternError(source: string): string | undefined {
  try {
    RE2JS.compile(source);
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

/**
 * Built-in patterns are reviewed and run by V8's engine, the fastest here; the RE2 check at load
 * keeps them to the same syntax as account patterns.
 */
export function trustedPattern(source: string): RulePattern {
  const fold = source.startsWith(IGNORE_CASE);
  const re = new RegExp(fold ? source.slice(IGNORE_CASE.length) : source, fold ? 'i' : '');
  return {
    test: (text) => re.test(text),
    capture: (text) => {
      const m = re.exec(text);
      return m === null ? undefined : (m[1] ?? m[0]);
    },
  };
}

/** Account patterns run on RE2: time linear in the text whatever the pattern. */
export function linearPattern(source: string): RulePattern {
  const re = RE2JS.compile(source);
  return {
    test: (text) => re.matcher(text).find(),
    capture: (text) => {
      const m = re.matcher(text);
      if (!m.find()) return undefined;
      return (re.groupCount() > 0 ? m.group(1) : m.group(0)) ?? undefined;
    },
  };
}
