import { lookupTable } from '../../src/lib/lookup-table.ts';
import type { JsPattern } from '../../src/shared/secrets/secret-rules.ts';
/**
 * Translates the RE2 (Go) regular expressions of the gitleaks rule set into JavaScript ones.
 *
 * JavaScript on Node 20 has no inline flag groups (`(?i)`, `(?-i:…)`, `(?s:…)`), no `\z`/`\A`,
 * no POSIX classes and no `(?P<name>…)`. Case-insensitive scopes are expanded into explicit
 * character classes so that mixed-case rules (`\bLTAI(?i)[a-z0-9]{20}`) keep their meaning.
 *
 * RE2 runs in linear time; V8's engine backtracks. A pattern is refused when a quantified group
 * contains an unbounded quantifier (star height > 1), the shape behind catastrophic backtracking.
 */

export type Conversion = { ok: true; pattern: JsPattern } | { ok: false; reason: string };

const POSIX_CLASSES: Record<string, string> = lookupTable({
  alnum: 'a-zA-Z0-9',
  alpha: 'a-zA-Z',
  digit: '0-9',
  lower: 'a-z',
  upper: 'A-Z',
  space: '\\s',
  xdigit: '0-9A-Fa-f',
  word: '\\w',
  punct: '!-\\/:-@\\[-`{-~',
});

interface Frame {
  caseInsensitive: boolean;
  dotAll: boolean;
  hasUnbounded: boolean;
}

const isLetter = (c: string): boolean => /^[a-zA-Z]$/.test(c);
const otherCase = (c: string): string => (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase());

/** Parses a quantifier at `i`; returns its text, end index and whether it is unbounded. */
function readQuantifier(
  src: string,
  i: number,
): { text: string; end: number; unbounded: boolean; max: number } | null {
  const c = src[i];
  let text: string;
  let end: number;
  let unbounded: boolean;
  let max: number;
  if (c === '*' || c === '+') {
    text = c;
    end = i + 1;
    unbounded = true;
    max = Number.POSITIVE_INFINITY;
  } else if (c === '?') {
    text = c;
    end = i + 1;
    unbounded = false;
    max = 1;
  } else if (c === '{') {
    const m = /^\{(\d+)(,(\d*))?\}/.exec(src.slice(i));
    if (!m) return null;
    text = m[0];
    end = i + m[0].length;
    unbounded = m[2] !== undefined && m[3] === '';
    max = m[2] === undefined ? Number(m[1]) : m[3] === '' ? Number.POSITIVE_INFINITY : Number(m[3]);
  } else {
    return null;
  }
  if (src[end] === '?') {
    text += '?';
    end += 1;
  }
  return { text, end, unbounded, max };
}

/** Translates one `[...]` class starting at `start`; returns the JS class and the index after it. */
function readClass(src: string, start: number, caseInsensitive: boolean): { text: string; end: number } {
  let i = start + 1;
  let out = '[';
  if (src[i] === '^') {
    out += '^';
    i += 1;
  }
  let first = true;
  while (i < src.length) {
    const c = src[i]!;
    if (c === ']' && !first) {
      return { text: out + ']', end: i + 1 };
    }
    first = false;
    if (c === '[' && src[i + 1] === ':') {
      const close = src.indexOf(':]', i + 2);
      const name = close > 0 ? src.slice(i + 2, close) : '';
      const expansion = POSIX_CLASSES[name];
      if (expansion === undefined) throw new Error(`unsupported POSIX class [:${name}:]`);
      out += expansion;
      i = close + 2;
      continue;
    }
    if (c === '\\') {
      const next = src[i + 1] ?? '';
      if (next === 'x') {
        out += src.slice(i, i + 4);
        i += 4;
      } else if (next === 'p' || next === 'P') {
        throw new Error('unicode classes are not supported');
      } else {
        out += c + next;
        i += 2;
      }
      continue;
    }
    if (c === '[') {
      out += '\\[';
      i += 1;
      continue;
    }
    // A range a-z under case folding also needs A-Z.
    if (
      caseInsensitive &&
      isLetter(c) &&
      src[i + 1] === '-' &&
      src[i + 2] !== undefined &&
      isLetter(src[i + 2]!)
    ) {
      const hi = src[i + 2]!;
      out += `${c}-${hi}${otherCase(c)}-${otherCase(hi)}`;
      i += 3;
      continue;
    }
    if (caseInsensitive && isLetter(c)) {
      out += c + otherCase(c);
      i += 1;
      continue;
    }
    out += c;
    i += 1;
  }
  throw new Error('unterminated character class');
}

function translate(src: string, initialCaseInsensitive: boolean, initialDotAll: boolean): string {
  const stack: Frame[] = [
    { caseInsensitive: initialCaseInsensitive, dotAll: initialDotAll, hasUnbounded: false },
  ];
  let out = '';
  let i = 0;
  const top = (): Frame => stack[stack.length - 1]!;
  // What the last emitted atom was, so a following quantifier can be judged.
  let lastAtomWasGroupWithUnbounded = false;

  const applyQuantifier = (): void => {
    const q = readQuantifier(src, i);
    if (!q) return;
    if (lastAtomWasGroupWithUnbounded && q.max > 1) {
      throw new Error('nested unbounded quantifier (catastrophic backtracking risk)');
    }
    if (q.unbounded) top().hasUnbounded = true;
    out += q.text;
    i = q.end;
    lastAtomWasGroupWithUnbounded = false;
  };

  while (i < src.length) {
    const c = src[i]!;
    const frame = top();
    lastAtomWasGroupWithUnbounded = false;
    if (c === '\\') {
      const next = src[i + 1] ?? '';
      if (next === 'z') {
        out += '$';
        i += 2;
        continue;
      }
      if (next === 'A') {
        out += '^';
        i += 2;
        continue;
      }
      if (next === 'p' || next === 'P' || next === 'Q' || next === 'C') {
        throw new Error(`unsupported escape \\${next}`);
      }
      if (next === 'x') {
        out += src.slice(i, i + 4);
        i += 4;
      } else {
        out += c + next;
        i += 2;
      }
      applyQuantifier();
      continue;
    }
    if (c === '[') {
      const cls = readClass(src, i, frame.caseInsensitive);
      out += cls.text;
      i = cls.end;
      applyQuantifier();
      continue;
    }
    if (c === '(') {
      if (src[i + 1] === '?') {
        const flagMatch = /^\(\?([a-zA-Z]*)(?:-([a-zA-Z]*))?([:)])/.exec(src.slice(i));
        if (src.startsWith('(?P<', i)) {
          const close = src.indexOf('>', i);
          stack.push({ ...frame, hasUnbounded: false });
          out += '(';
          i = close + 1;
          continue;
        }
        if (!flagMatch) throw new Error(`unsupported group syntax at ${i}`);
        const on = flagMatch[1] ?? '';
        const off = flagMatch[2] ?? '';
        for (const f of on + off) {
          if (f !== 'i' && f !== 's') throw new Error(`unsupported flag ${f}`);
        }
        const next: Frame = {
          caseInsensitive: on.includes('i') ? true : off.includes('i') ? false : frame.caseInsensitive,
          dotAll: on.includes('s') ? true : off.includes('s') ? false : frame.dotAll,
          hasUnbounded: false,
        };
        if (flagMatch[3] === ')') {
          // Flags-only group: applies to the rest of the enclosing group.
          frame.caseInsensitive = next.caseInsensitive;
          frame.dotAll = next.dotAll;
          i += flagMatch[0].length;
          continue;
        }
        stack.push(next);
        out += '(?:';
        i += flagMatch[0].length;
        continue;
      }
      stack.push({ ...frame, hasUnbounded: false });
      out += '(';
      i += 1;
      continue;
    }
    if (c === ')') {
      const closed = stack.pop();
      if (!closed || stack.length === 0) throw new Error('unbalanced parenthesis');
      out += ')';
      i += 1;
      if (closed.hasUnbounded) top().hasUnbounded = true;
      lastAtomWasGroupWithUnbounded = closed.hasUnbounded;
      applyQuantifier();
      continue;
    }
    if (c === '.') {
      out += frame.dotAll ? '[\\s\\S]' : '.';
      i += 1;
      applyQuantifier();
      continue;
    }
    if (c === '|' || c === '^' || c === '$') {
      out += c;
      i += 1;
      continue;
    }
    if (frame.caseInsensitive && isLetter(c)) {
      out += `[${c}${otherCase(c)}]`;
      i += 1;
      applyQuantifier();
      continue;
    }
    out += c;
    i += 1;
    applyQuantifier();
  }
  if (stack.length !== 1) throw new Error('unbalanced parenthesis');
  return out;
}

export function re2ToJs(re2: string): Conversion {
  try {
    let body = re2;
    let flags = '';
    // The common case, a rule that is case-insensitive throughout, keeps a readable `i` flag.
    const leading = /^\(\?([is]+)\)/.exec(body);
    if (leading && !/\(\?[a-z]*-/.test(body)) {
      const lead = leading[1] ?? '';
      body = body.slice(leading[0].length);
      if (lead.includes('i')) flags += 'i';
      if (lead.includes('s')) flags += 's';
    }
    const source = translate(body, false, false);
    new RegExp(source, flags);
    return { ok: true, pattern: { source, flags } };
  } catch (err) {
    return { ok: false, reason: (err as Error).message };
  }
}
