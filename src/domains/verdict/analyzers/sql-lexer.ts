import type { SqlDialect } from '../catalog.ts';

/**
 * A small, linear SQL tokenizer for the conservative fallback: it knows comments, string
 * literals and quoted identifiers of each dialect, so that keywords inside them are never
 * mistaken for statements, and nothing else.
 */
export type SqlTokenKind = 'word' | 'number' | 'string' | 'ident' | 'var' | 'op' | '(' | ')' | ';' | ',';

export interface SqlToken {
  kind: SqlTokenKind;
  /** Upper-cased for words, lower-cased for `@variables`, raw content for strings and identifiers. */
  value: string;
}

/**
 * How a dialect reads the characters that decide where a string or a comment ends. Reading
 * them the way the database does is what keeps `'\''; DROP TABLE t` (MySQL) or
 * `/* /* *\/; DROP TABLE t` (SQLite) from hiding a statement.
 */
export interface SqlReading {
  /** `\` escapes inside every '…' string (MySQL, MariaDB, BigQuery, Snowflake). */
  backslashEscapes: boolean;
  /** Block comments nest (PostgreSQL, SQL Server). */
  nestedComments: boolean;
  /** `#` starts a comment anywhere (MySQL, MariaDB, BigQuery). */
  hashComments: boolean;
  /** `"…"` is a string, not an identifier (MySQL, MariaDB, BigQuery). */
  doubleQuotedStrings: boolean;
  /** `--` starts a comment only when a space follows (MySQL, MariaDB). */
  dashDashNeedsSpace: boolean;
  /** `//` starts a comment (Snowflake). */
  slashSlashComments: boolean;
}

const READINGS: Record<SqlDialect | 'unknown', SqlReading> = {
  unknown: reading({ nestedComments: true }),
  postgres: reading({ nestedComments: true }),
  mssql: reading({ nestedComments: true }),
  sqlite: reading({}),
  mysql: reading({
    backslashEscapes: true,
    hashComments: true,
    doubleQuotedStrings: true,
    dashDashNeedsSpace: true,
  }),
  mariadb: reading({
    backslashEscapes: true,
    hashComments: true,
    doubleQuotedStrings: true,
    dashDashNeedsSpace: true,
  }),
  bigquery: reading({ backslashEscapes: true, hashComments: true, doubleQuotedStrings: true }),
  snowflake: reading({ backslashEscapes: true, slashSlashComments: true }),
};

function reading(flags: Partial<SqlReading>): SqlReading {
  return {
    backslashEscapes: false,
    nestedComments: false,
    hashComments: false,
    doubleQuotedStrings: false,
    dashDashNeedsSpace: false,
    slashSlashComments: false,
    ...flags,
  };
}

export function readingOf(dialect: SqlDialect | undefined): SqlReading {
  return READINGS[dialect ?? 'unknown'];
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

function lineEnd(sql: string, from: number): number {
  const end = sql.indexOf('\n', from);
  return end < 0 ? sql.length : end + 1;
}

/** Reads a quoted string starting at the opening quote; returns its value and the index after it. */
function readString(sql: string, start: number, quote: string, backslashEscapes: boolean): [string, number] {
  const n = sql.length;
  let i = start + 1;
  let value = '';
  if (!backslashEscapes) {
    // Doubled quotes are the only escape: jump from quote to quote.
    for (;;) {
      const q = sql.indexOf(quote, i);
      if (q < 0) return [value + sql.slice(i), n];
      if (sql[q + 1] !== quote) return [value + sql.slice(i, q), q + 1];
      value += sql.slice(i, q + 1);
      i = q + 2;
    }
  }
  while (i < n) {
    const d = sql[i]!;
    if (d === '\\' && i + 1 < n) {
      value += sql[i + 1];
      i += 2;
    } else if (d === quote && sql[i + 1] === quote) {
      value += quote;
      i += 2;
    } else if (d === quote) {
      return [value, i + 1];
    } else {
      value += d;
      i++;
    }
  }
  return [value, n];
}

/** Tokens of `sql`; the offset of each semicolon goes to `semicolons` when it is given. */
export function tokenizeSql(
  sql: string,
  read: SqlReading = READINGS.unknown,
  semicolons?: number[],
): SqlToken[] {
  const tokens: SqlToken[] = [];
  const n = sql.length;
  let i = 0;
  while (i < n) {
    const c = sql.charCodeAt(i);
    const ch = sql[i]!;
    if (c <= 32) {
      i++;
    } else if (
      ch === '-' &&
      sql[i + 1] === '-' &&
      (!read.dashDashNeedsSpace || i + 2 >= n || sql.charCodeAt(i + 2) <= 32)
    ) {
      i = lineEnd(sql, i);
    } else if (ch === '#' && read.hashComments) {
      i = lineEnd(sql, i);
    } else if (ch === '#' && /[#\w]/.test(sql[i + 1] ?? '')) {
      // A T-SQL temporary table name (`#t`, `##t`).
      const start = i;
      while (i < n && (sql[i] === '#' || isWordPart(sql.charCodeAt(i)))) i++;
      tokens.push({ kind: 'word', value: sql.slice(start, i).toUpperCase() });
    } else if (ch === '#' && tokens.length === 0) {
      // A MySQL line comment at a statement start, where it cannot be an operator.
      i = lineEnd(sql, i);
    } else if (ch === '/' && sql[i + 1] === '/' && read.slashSlashComments) {
      i = lineEnd(sql, i);
    } else if (ch === '/' && sql[i + 1] === '*') {
      let depth = 1;
      i += 2;
      while (i < n && depth > 0) {
        if (read.nestedComments && sql[i] === '/' && sql[i + 1] === '*') {
          depth++;
          i += 2;
        } else if (sql[i] === '*' && sql[i + 1] === '/') {
          depth--;
          i += 2;
        } else {
          i++;
        }
      }
    } else if (ch === "'" || ((ch === 'E' || ch === 'e' || ch === 'N' || ch === 'n') && sql[i + 1] === "'")) {
      const prefixed = ch !== "'";
      const escapes = read.backslashEscapes || ch === 'E' || ch === 'e';
      const [value, next] = readString(sql, prefixed ? i + 1 : i, "'", escapes);
      tokens.push({ kind: 'string', value });
      i = next;
    } else if (ch === '"' && read.doubleQuotedStrings) {
      const [value, next] = readString(sql, i, '"', read.backslashEscapes);
      tokens.push({ kind: 'string', value });
      i = next;
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
    } else if (ch === '@' && (isWordStart(sql.charCodeAt(i + 1)) || sql[i + 1] === '@')) {
      const start = i;
      i += sql[i + 1] === '@' ? 2 : 1;
      while (i < n && isWordPart(sql.charCodeAt(i))) i++;
      tokens.push({ kind: 'var', value: sql.slice(start, i).toLowerCase() });
    } else if (isDigit(c) || (ch === '.' && isDigit(sql.charCodeAt(i + 1)))) {
      const start = i;
      while (i < n && (isDigit(sql.charCodeAt(i)) || sql[i] === '.' || sql[i] === 'e' || sql[i] === 'E')) i++;
      tokens.push({ kind: 'number', value: sql.slice(start, i) });
    } else if (isWordStart(c)) {
      const start = i;
      while (i < n && isWordPart(sql.charCodeAt(i))) i++;
      tokens.push({ kind: 'word', value: sql.slice(start, i).toUpperCase() });
    } else if (ch === ';') {
      tokens.push({ kind: ch, value: ch });
      semicolons?.push(i);
      i++;
    } else if (ch === '(' || ch === ')' || ch === ',') {
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

/** The text of each statement of a batch, cut at the semicolons outside strings and comments. */
export function statementTexts(sql: string, read: SqlReading): string[] {
  const semicolons: number[] = [];
  tokenizeSql(sql, read, semicolons);
  const texts: string[] = [];
  let start = 0;
  for (const at of semicolons) {
    const text = sql.slice(start, at);
    if (text.trim() !== '') texts.push(text);
    start = at + 1;
  }
  if (sql.slice(start).trim() !== '') texts.push(sql.slice(start));
  return texts;
}
