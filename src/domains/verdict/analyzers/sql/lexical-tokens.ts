import type { SqlToken } from '../sql-lexer.ts';
import {
  type Const,
  dynamicJudgement,
  judgeEachValue,
  NOT_CONST,
  quoteForMessage,
  type SqlContext,
  type StatementJudgement,
  variableText,
} from './judgement.ts';

/**
 * Values, parentheses and call arguments read from a token list, for the lexical fallback
 * (./lexical.ts): literals and `+`/`||` concatenations resolved, variables through the context.
 */

export function literal(token: SqlToken | undefined): Const | typeof NOT_CONST {
  if (token === undefined) return NOT_CONST;
  if (token.kind === 'number') return Number(token.value);
  if (token.kind === 'string') return token.value;
  if (token.kind === 'word' && (token.value === 'TRUE' || token.value === 'FALSE'))
    return token.value === 'TRUE';
  if (token.kind === 'word' && token.value === 'NULL') return null;
  return NOT_CONST;
}

function tokensText(tokens: readonly SqlToken[]): string {
  let out = '';
  let prev: SqlToken | undefined;
  for (const t of tokens) {
    const text =
      t.kind === 'string' ? quoteForMessage(t.value) : t.kind === 'ident' ? `"${t.value}"` : t.value;
    const tight =
      prev === undefined || t.kind === ')' || t.kind === ',' || t.kind === '(' || prev.kind === '(';
    out += tight ? text : ` ${text}`;
    prev = t;
  }
  return out.length > 120 ? `${out.slice(0, 117)}…` : out;
}

type Resolved = { text: string } | { unresolved: string };

export function topLevelSplit(tokens: readonly SqlToken[], at: (t: SqlToken) => boolean): SqlToken[][] {
  const parts: SqlToken[][] = [[]];
  let depth = 0;
  for (const token of tokens) {
    if (token.kind === '(') depth++;
    if (token.kind === ')') depth--;
    if (depth === 0 && at(token)) parts.push([]);
    else parts[parts.length - 1]!.push(token);
  }
  return parts;
}

/**
 * The text an expression of string literals evaluates to: literals joined by `+` or `||`,
 * `CONCAT(…)`, and variables set to such an expression earlier in the batch. Anything else
 * (a column, `CHAR(68)`, an unknown variable) leaves the expression unresolved.
 */
export function resolveTokens(tokens: readonly SqlToken[], ctx: SqlContext, depth = 0): Resolved {
  if (depth > 32) return { unresolved: 'the expression nests too deep' };
  const terms = topLevelSplit(tokens, (t) => t.kind === 'op' && (t.value === '+' || t.value === '||'));
  let text = '';
  for (const whole of terms) {
    const term = stripParens(whole);
    const [first] = term;
    if (term.length === 1 && first!.kind === 'string') {
      text += first!.value;
    } else if (term.length === 1 && first!.kind === 'var') {
      const value = variableText(ctx, first!.value);
      if ('unresolved' in value) return value;
      text += value.text;
    } else if (
      first?.kind === 'word' &&
      first.value === 'CONCAT' &&
      term[1]?.kind === '(' &&
      term[term.length - 1]!.kind === ')'
    ) {
      for (const arg of topLevelSplit(term.slice(2, -1), (t) => t.kind === ',')) {
        const part = resolveTokens(arg, ctx, depth + 1);
        if ('unresolved' in part) return part;
        text += part.text;
      }
    } else {
      return { unresolved: `${tokensText(term)} is not a literal` };
    }
  }
  return { text };
}

export function resolveAndJudge(
  expr: readonly SqlToken[],
  what: (literal: string) => string,
  ctx: SqlContext,
  run: (text: string) => string = (text) => text,
): StatementJudgement | undefined {
  if (expr.length === 1 && expr[0]!.kind === 'var') {
    const each = judgeEachValue(expr[0]!.value, what, ctx, run);
    if (each !== false) return each;
  }
  const resolved = resolveTokens(expr, ctx);
  if ('unresolved' in resolved) {
    const literals = expr.filter((t) => t.kind === 'string').map((t) => t.value);
    for (const t of expr) if (t.kind === 'var') literals.push(...(ctx.fragments?.get(t.value) ?? []));
    return dynamicJudgement(`${what(tokensText(expr))} (${resolved.unresolved})`, literals);
  }
  return ctx.nested(run(resolved.text), `after resolving ${what(quoteForMessage(resolved.text))}`);
}

/** Drops the parentheses that wrap a whole expression, however many, in one pass. */
export function stripParens(tokens: readonly SqlToken[]): readonly SqlToken[] {
  if (tokens.length < 2 || tokens[0]!.kind !== '(') return tokens;
  const close = matchParens(tokens);
  let a = 0;
  let b = tokens.length - 1;
  while (a < b && tokens[a]!.kind === '(' && close[a] === b) {
    a++;
    b--;
  }
  return a === 0 ? tokens : tokens.slice(a, b + 1);
}

/** For each `(`, the index of its `)` (-1 when it is never closed): one pass, so calls cost O(n). */
const NO_PARENS = new Int32Array(0);

function matchParens(tokens: readonly SqlToken[]): Int32Array {
  if (!tokens.some((t) => t.kind === '(')) return NO_PARENS;
  const close = new Int32Array(tokens.length).fill(-1);
  const open: number[] = [];
  for (let k = 0; k < tokens.length; k++) {
    if (tokens[k]!.kind === '(') open.push(k);
    else if (tokens[k]!.kind === ')' && open.length > 0) close[open.pop()!] = k;
  }
  return close;
}

let parensFor: readonly SqlToken[] | undefined;
let parens: Int32Array = NO_PARENS;

/** matchParens of the statement being judged, computed once and only when a call needs it. */
function parensOf(tokens: readonly SqlToken[]): Int32Array {
  if (parensFor !== tokens) {
    parens = matchParens(tokens);
    parensFor = tokens;
  }
  return parens;
}

/** Lets go of the last statement's tokens once a batch is judged. */
export function forgetParens(): void {
  parensFor = undefined;
}

/** The argument list of a call whose `(` is at `open`, or undefined when it is never closed. */
export function callArguments(tokens: readonly SqlToken[], open: number): SqlToken[][] | undefined {
  const end = parensOf(tokens)[open] ?? -1;
  if (end < 0) return undefined;
  return topLevelSplit(tokens.slice(open + 1, end), (t) => t.kind === ',');
}

export function firstString(tokens: readonly SqlToken[] | undefined): string | undefined {
  return tokens?.find((t) => t.kind === 'string')?.value;
}
