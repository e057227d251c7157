import { memoizeText } from '../../../lib/text-memo.ts';
import type { SqlDialect } from '../catalog.ts';
import { type Finding, precedenceOf, topFinding } from '../codes.ts';
import { opaque, type SqlContext, type StatementJudgement, worst } from './sql/judgement.ts';
import { judgeLexically } from './sql/lexical.ts';
import { judgeWithPostgres } from './sql/postgres.ts';
import { judgeWithSqlparser } from './sql/sqlparser.ts';
import { readingOf, statementTexts } from './sql-lexer.ts';

// Which parser reads which dialect, and why, is measured by `npm run compare:sql-parsers` and
// written down in the verdict README ("SQL"): PostgreSQL (and SQL of no stated dialect) on
// libpg-query, the PostgreSQL grammar itself; T-SQL, MySQL/MariaDB, SQLite, BigQuery and
// Snowflake on sqlparser-rs with the dialect's own rules for strings and comments. What no
// parser accepts is judged by the conservative lexical fallback.

/**
 * Above this size the parser's cost grows past the latency budget; the linear lexical
 * analysis judges such batches instead, which only errs on the side of refusing.
 */
const PARSE_LIMIT = 64 * 1024;

/**
 * sqlparser-rs costs two to four times what libpg-query does a statement (compare:sql-parsers),
 * so the batches it reads are held to a quarter of the size; past it, the lexical fallback.
 */
const SQLPARSER_PARSE_LIMIT = 16 * 1024;

/** Dynamic SQL inside dynamic SQL is resolved this many levels deep, then refused as opaque. */
const MAX_NESTING = 4;

/** At most this much resolved text (dynamic SQL, routine bodies) is judged per call, then opaque. */
const RESOLVED_TEXT_BUDGET = PARSE_LIMIT;

/**
 * MySQL and MariaDB run the text of `/*! … *\/` and `/*M! … *\/` comments (optionally version-gated)
 * as SQL. Any such comment is read as code, for those dialects and for SQL of no stated dialect.
 */
function unwrapExecutableComments(sql: string, dialect: SqlDialect | undefined): string {
  if (!(dialect === undefined || dialect === 'mysql' || dialect === 'mariadb') || !sql.includes('/*'))
    return sql;
  // indexOf, not a lazy regex: an unclosed `/*!` must not make every later one scan to the end.
  let out = '';
  let from = 0;
  for (;;) {
    const open = sql.indexOf('/*', from);
    if (open < 0) break;
    const marker = /^\/\*M?!\d{0,6}/.exec(sql.slice(open, open + 12));
    if (marker === null) {
      out += sql.slice(from, open + 2);
      from = open + 2;
      continue;
    }
    const close = sql.indexOf('*/', open + marker[0].length);
    if (close < 0) break;
    out += `${sql.slice(from, open)} ${sql.slice(open + marker[0].length, close)} `;
    from = close + 2;
  }
  return out + sql.slice(from);
}

/**
 * PostgreSQL's lexer reads a run of operator characters as one operator and then trims trailing
 * `+` and `-` one at a time: a run of thousands takes the parser seconds (`SELECT ` + 60,000 `+`
 * took 3 s). No operator is longer than a few characters, so a batch with a run past this length
 * is judged by the lexical analysis, which is linear.
 */
const MAX_OPERATOR_RUN = 64;
const OPERATOR_CHARS = new Set('+-*/<>=~!@#%^&|`?');

function hasLongOperatorRun(sql: string): boolean {
  let run = 0;
  for (let i = 0; i < sql.length; i++) {
    if (OPERATOR_CHARS.has(sql[i]!)) {
      if (++run > MAX_OPERATOR_RUN) return true;
    } else run = 0;
  }
  return false;
}

/**
 * The MySQL client's `DELIMITER $$`: a client command, not SQL, that makes `$$` end statements
 * until the next one, so a procedure body may hold `;`. The batch is read as the client would
 * send it: each directive removed and its delimiter turned back into `;`. (A delimiter inside a
 * string literal is taken as one too: splitting more only judges more.)
 */
function withoutClientDelimiters(sql: string, dialect: SqlDialect | undefined): string {
  if (!(dialect === undefined || dialect === 'mysql' || dialect === 'mariadb') || !/\bdelimiter\b/i.test(sql))
    return sql;
  const parts = sql.split(/(?:^|(?<=[\n;]))[ \t]*delimiter[ \t]+(\S{1,16})/i);
  let out = parts[0]!;
  for (let i = 1; i + 1 < parts.length; i += 2) {
    const delimiter = parts[i]!;
    const text = parts[i + 1]!;
    out += `;\n${delimiter === ';' ? text : text.split(delimiter).join(';\n')}`;
  }
  return out;
}

interface Run {
  resolvedChars: number;
  tempTables: Set<string>;
}

function judgeBatch(
  raw: string,
  dialect: SqlDialect | undefined,
  depth: number,
  run: Run,
): (StatementJudgement | undefined)[] {
  const sql = unwrapExecutableComments(withoutClientDelimiters(raw, dialect), dialect);
  const ctx: SqlContext = {
    dialect,
    vars: new Map(),
    tempTables: run.tempTables,
    nested: (text, prefix) => judgeNested(text, prefix, dialect, depth, run),
  };
  if (sql.length > PARSE_LIMIT || hasLongOperatorRun(sql)) return judgeLexically(sql, ctx);
  if (dialect === undefined || dialect === 'postgres') {
    return judgeWithPostgres(sql, ctx, dialect === undefined) ?? judgeLexically(sql, ctx);
  }
  if (sql.length > SQLPARSER_PARSE_LIMIT) return judgeLexically(sql, ctx);
  const whole = judgeWithSqlparser(sql, dialect, ctx);
  if (whole !== undefined) return whole;
  // One statement the parser does not know (MySQL's PREPARE, BULK INSERT…) should not take the
  // others away from it: statement by statement, the parser where it can, keywords where not.
  const texts = statementTexts(sql, readingOf(dialect));
  if (texts.length <= 1) return judgeLexically(sql, ctx);
  return texts.flatMap((text) => judgeWithSqlparser(text, dialect, ctx) ?? judgeLexically(text, ctx));
}

function judgeNested(
  sql: string,
  prefix: string,
  dialect: SqlDialect | undefined,
  depth: number,
  run: Run,
): StatementJudgement | undefined {
  if (depth + 1 > MAX_NESTING) return opaque(`${prefix}: nested more than ${MAX_NESTING} levels deep`);
  run.resolvedChars += sql.length;
  if (run.resolvedChars > RESOLVED_TEXT_BUDGET)
    return opaque(`${prefix}: past the budget of resolved SQL text`);
  let found: StatementJudgement | undefined;
  for (const judgement of judgeBatch(sql, dialect, depth + 1, run)) found = worst(found, judgement);
  return found === undefined ? undefined : { code: found.code, message: `${prefix}: ${found.message}` };
}

export interface SqlAnalysisOptions {
  dialect?: SqlDialect | undefined;
}

function findings(judgements: readonly (StatementJudgement | undefined)[]): Finding[] {
  const out: Finding[] = [];
  const total = judgements.length;
  judgements.forEach((judgement, index) => {
    if (judgement === undefined) return;
    out.push({
      code: judgement.code,
      message: total > 1 ? `${judgement.message} (statement ${index + 1} of ${total})` : judgement.message,
      location: `statement ${index + 1}`,
    });
  });
  return out;
}

function newRun(): Run {
  return { resolvedChars: 0, tempTables: new Set() };
}

/** Lexical judgement of a whole batch: the fallback when no parser accepts the SQL. */
export function analyzeSqlLexically(sql: string, options: SqlAnalysisOptions = {}): Finding[] {
  const run = newRun();
  const ctx: SqlContext = {
    dialect: options.dialect,
    vars: new Map(),
    tempTables: run.tempTables,
    nested: (text, prefix) => judgeNested(text, prefix, options.dialect, 0, run),
  };
  return findings(judgeLexically(sql, ctx));
}

/**
 * Characters that other databases read differently from PostgreSQL: a backslash before a quote
 * (an escape to MySQL), `#` (a MySQL comment), a comment opened inside a comment (not nested in
 * SQLite or MySQL).
 */
const AMBIGUOUS = /\\|#|\/\*[\s\S]*\/\*/;

/**
 * Findings for SQL as its dialect reads it. SQL of no stated dialect is read as PostgreSQL, and
 * also as MySQL when the two readings can differ: a statement hidden from one reading by a
 * string or comment that ends elsewhere in the other must not get through.
 */
function judgeText(text: string, dialect: SqlDialect | undefined): Finding[] {
  const primary = findings(judgeBatch(text, dialect, 0, newRun()));
  if (dialect !== undefined || text.length > PARSE_LIMIT || !AMBIGUOUS.test(text)) return primary;
  const other = findings(judgeBatch(text, 'mysql', 0, newRun()));
  const top = topFinding(other);
  const current = topFinding(primary);
  if (top === undefined || (current !== undefined && precedenceOf(current.code) <= precedenceOf(top.code)))
    return primary;
  return [...primary, { ...top, message: `${top.message}, as MySQL reads the text` }];
}

const remembered = new Map<string, (sql: string) => readonly Finding[]>();

/**
 * Findings for SQL as the database of `dialect` would run it, statement by statement: a
 * db.query payload, or SQL found inline in a command (`psql -c`, `sqlcmd -Q`, `mysql -e`).
 * A pure function of the text and the dialect, so the analysis of recently seen queries is
 * remembered (up to 1,000 of at most 4 KB).
 */
export function analyzeSql(sql: string, options: SqlAnalysisOptions = {}): Finding[] {
  const dialect = options.dialect ?? '';
  let analyze = remembered.get(dialect);
  if (analyze === undefined) {
    analyze = memoizeText(
      (text) => Object.freeze(judgeText(text, options.dialect).map((f) => Object.freeze(f))),
      { capacity: 1000, maxLength: 4096 },
    );
    remembered.set(dialect, analyze);
  }
  return [...analyze(sql)];
}
