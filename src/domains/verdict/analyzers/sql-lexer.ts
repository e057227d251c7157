/**
 * A small, linear SQL tokenizer for the conservative fallback: it knows comments, string
 * literals of the common dialects and quoted identifiers, so that keywords inside them are
 * never mistaken for statements, and nothing else.
 */
export type SqlTokenKind = 'word' | 'number' | 'string' | 'ident' | 'op' | '(' | ')' | ';' | ',';

export interface SqlToken {
  kind: SqlTokenKind;
  /** Upper-cased for words, raw content for strings and identifiers. */
  value: string;
}

function isWordStart(code: number): boolean {
  return (code >= 65 && code <= 90) || (code >= 97 && code <= 122) || code === 95 || code > 127;
}

function isWordPart(code: number): boolean {
  return isWordStart(code) || (code >= 48 && code <= 57) || code === 36;
}

function isDigit(code: number): boolean {
  return code >= 48 && code <= 57;
}

export function tokenizeSql(sql: string): SqlToken[] {
  const tokens: SqlToken[] = [];
  const n = sql.length;
  let i = 0;
  while (i < n) {
    const c = sql.charCodeAt(i);
    const ch = sql[i]!;
    if (c <= 32) {
      i++;
    } else if (ch === '-' && sql[i + 1] === '-') {
      const end = sql.indexOf('\n', i);
      i = end < 0 ? n : end + 1;
    } else if (ch === '#' && tokens.length === 0) {
      // MySQL line comment; only at a statement start, where it cannot be an operator.
      const end = sql.indexOf('\n', i);
      i = end < 0 ? n : end + 1;
    } else if (ch === '/' && sql[i + 1] === '*') {
      let depth = 1;
      i += 2;
      while (i < n && depth > 0) {
        if (sql[i] === '/' && sql[i + 1] === '*') {
          depth++;
          i += 2;
        } else if (sql[i] === '*' && sql[i + 1] === '/') {
          depth--;
          i += 2;
        } else {
          i++;
        }
      }
    } else if (ch === "'" || ((ch === 'E' || ch === 'e') && sql[i + 1] === "'")) {
      const backslashEscapes = ch !== "'";
      i += backslashEscapes ? 2 : 1;
      let value = '';
      while (i < n) {
        const d = sql[i]!;
        if (backslashEscapes && d === '\\' && i + 1 < n) {
          value += sql[i + 1];
          i += 2;
        } else if (d === "'" && sql[i + 1] === "'") {
          value += "'";
          i += 2;
        } else if (d === "'") {
          i++;
          break;
        } else {
          value += d;
          i++;
        }
      }
      tokens.push({ kind: 'string', value });
    } else if (ch === '$' && /^\$[A-Za-z_]*\$/.test(sql.slice(i, i + 64))) {
      const tag = /^\$[A-Za-z_]*\$/.exec(sql.slice(i, i + 64))![0];
      const end = sql.indexOf(tag, i + tag.length);
      const stop = end < 0 ? n : end;
      tokens.push({ kind: 'string', value: sql.slice(i + tag.length, stop) });
      i = end < 0 ? n : end + tag.length;
    } else if (ch === '"' || ch === '`' || ch === '[') {
      const close = ch === '[' ? ']' : ch;
      const end = sql.indexOf(close, i + 1);
      const stop = end < 0 ? n : end;
      tokens.push({ kind: 'ident', value: sql.slice(i + 1, stop) });
      i = stop + 1;
    } else if (isDigit(c) || (ch === '.' && isDigit(sql.charCodeAt(i + 1)))) {
      const start = i;
      while (i < n && (isDigit(sql.charCodeAt(i)) || sql[i] === '.' || sql[i] === 'e' || sql[i] === 'E')) i++;
      tokens.push({ kind: 'number', value: sql.slice(start, i) });
    } else if (isWordStart(c)) {
      const start = i;
      while (i < n && isWordPart(sql.charCodeAt(i))) i++;
      tokens.push({ kind: 'word', value: sql.slice(start, i).toUpperCase() });
    } else if (ch === '(' || ch === ')' || ch === ';' || ch === ',') {
      tokens.push({ kind: ch, value: ch });
      i++;
    } else {
      const two = sql.slice(i, i + 2);
      if (two === '<=' || two === '>=' || two === '<>' || two === '!=' || two === '==' || two === '||') {
        tokens.push({ kind: 'op', value: two });
        i += 2;
      } else {
        tokens.push({ kind: 'op', value: ch });
        i++;
      }
    }
  }
  return tokens;
}

/** Splits a token stream into statements at semicolons. */
export function splitStatements(tokens: readonly SqlToken[]): SqlToken[][] {
  const statements: SqlToken[][] = [];
  let current: SqlToken[] = [];
  for (const token of tokens) {
    if (token.kind === ';') {
      if (current.length > 0) statements.push(current);
      current = [];
    } else {
      current.push(token);
    }
  }
  if (current.length > 0) statements.push(current);
  return statements;
}
