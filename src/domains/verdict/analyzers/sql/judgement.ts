import type { SqlDialect } from '../../catalog.ts';
import { precedenceOf } from '../../codes.ts';
import { classifyPath, normalizePath } from '../paths.ts';

/** What one statement (or one resolved piece of dynamic SQL) would do, when it matters. */
export interface StatementJudgement {
  code: 'FILESYSTEM_DENIED' | 'DEST_MUTATION' | 'POLICY_VIOLATION';
  message: string;
}

/** The judgement whose code comes first in the rule book's order. */
export function worst(
  a: StatementJudgement | undefined,
  b: StatementJudgement | undefined,
): StatementJudgement | undefined {
  if (a === undefined) return b;
  if (b === undefined) return a;
  return precedenceOf(b.code) < precedenceOf(a.code) ? b : a;
}

/**
 * What the judges of one batch share: the dialect, variables set to literals earlier in the
 * batch, tables created temporary earlier in the batch, and the door to judge a piece of dynamic
 * SQL once its text is resolved.
 */
export interface SqlContext {
  dialect: SqlDialect | undefined;
  /** Lower-cased variable name → every literal it was set to so far in the batch. */
  vars: Map<string, VariableValues>;
  /** Lower-cased names of tables created temporary earlier in the batch. */
  tempTables: Set<string>;
  /**
   * Variables set from a query rather than a literal (`SELECT @q = STRING_AGG(N'DROP TABLE ' + …)`):
   * the literals that query is built from, for `dynamicJudgement`.
   */
  fragments?: Map<string, string[]>;
  /**
   * Judges `sql`, resolved dynamic SQL or a routine's body, as the database would run it; the
   * judgement's message starts with `prefix` (e.g. `after resolving EXEC('…')`).
   */
  nested(sql: string, prefix: string): StatementJudgement | undefined;
}

/**
 * The literals a variable was set to earlier in the batch, in any branch (`IF … SET @q = 'a' ELSE
 * SET @q = 'b'` may leave either), or `unknown` once it was set to anything else.
 */
export type VariableValues = readonly string[] | 'unknown';

/** Records `SET name = value`; `undefined` is a value that is not a literal. */
export function assignVariable(ctx: SqlContext, name: string, value: string | undefined): void {
  const current = ctx.vars.get(name);
  if (value === undefined || current === 'unknown') ctx.vars.set(name, 'unknown');
  else if (current === undefined) ctx.vars.set(name, [value]);
  else if (!current.includes(value)) ctx.vars.set(name, [...current, value]);
}

/** Records `DECLARE name` with no value: it holds NULL until set. */
export function declareVariable(ctx: SqlContext, name: string): void {
  if (!ctx.vars.has(name)) ctx.vars.set(name, []);
}

/** The one literal a variable holds, or why it has none. */
export function variableText(ctx: SqlContext, name: string): { text: string } | { unresolved: string } {
  const values = ctx.vars.get(name);
  if (values === undefined || values === 'unknown') {
    return { unresolved: `${name} is not set to a literal earlier in the batch` };
  }
  if (values.length !== 1) {
    return {
      unresolved: values.length === 0 ? `${name} holds no text` : `${name} may hold any of several texts`,
    };
  }
  return { text: values[0]! };
}

/**
 * Dynamic SQL that is one variable set to several literals (in different branches) is judged
 * with each of them, the worst winning; `false` when the variable does not hold several.
 */
export function judgeEachValue(
  name: string,
  what: (literal: string) => string,
  ctx: SqlContext,
  run: (text: string) => string,
): StatementJudgement | undefined | false {
  const values = ctx.vars.get(name);
  if (values === undefined || values === 'unknown' || values.length < 2) return false;
  let found: StatementJudgement | undefined;
  for (const text of values) {
    found = worst(found, ctx.nested(run(text), `after resolving ${what(quoteForMessage(text))}`));
  }
  return found;
}

export type Const = number | string | boolean | null;
export const NOT_CONST = Symbol('not constant');

export function compare(op: string, left: Const, right: Const): boolean | undefined {
  if (left === null || right === null) return undefined;
  const l = typeof left === 'boolean' ? Number(left) : left;
  const r = typeof right === 'boolean' ? Number(right) : right;
  const a = typeof l === typeof r ? l : String(l);
  const b = typeof l === typeof r ? r : String(r);
  switch (op) {
    case '=':
    case '==':
      return a === b;
    case '<>':
    case '!=':
      return a !== b;
    case '<':
      return a < b;
    case '>':
      return a > b;
    case '<=':
      return a <= b;
    case '>=':
      return a >= b;
    default:
      return undefined;
  }
}

/** A literal quoted for a message, cut to a readable length. */
export function quoteForMessage(text: string, quote = "'"): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  const cut = flat.length > 80 ? `${flat.slice(0, 77)}…` : flat;
  return `${quote}${cut.replaceAll("'", "''")}'`;
}

/** A literal that dynamic SQL is built around and that, whatever is appended, destroys at scale. */
const DESTRUCTIVE_PREFIX =
  /^\s*(?:DROP\s+(?:TABLE|DATABASE|SCHEMA|KEYSPACE|DATASET)\b|TRUNCATE\b|DELETE\s+FROM\s*$|DELETE\s+FROM\s+\S+\s*;?\s*$)/i;

/**
 * Dynamic SQL that cannot be resolved: opaque, unless one of its literal parts begins a statement
 * that destroys whatever name is appended (`'DROP TABLE ' + QUOTENAME(name)` over every table).
 */
export function dynamicJudgement(what: string, literals: readonly string[]): StatementJudgement {
  const prefix = literals.find((text) => DESTRUCTIVE_PREFIX.test(text));
  if (prefix !== undefined) {
    return {
      code: 'DEST_MUTATION',
      message: `dynamic SQL built around ${quoteForMessage(prefix.trim())}: ${what}`,
    };
  }
  return opaque(what);
}

export function opaque(what: string): StatementJudgement {
  return {
    code: 'POLICY_VIOLATION',
    message: `dynamic SQL that cannot be resolved statically: ${what}`,
  };
}

/**
 * Server-side functions that read or write the database server's files or run its programs, by
 * lower-cased name, with the index of the argument that names the path (or the command), if any.
 */
export const SERVER_FILE_FUNCTIONS = new Map<string, number | undefined>([
  // PostgreSQL
  ['pg_read_file', 0],
  ['pg_read_binary_file', 0],
  ['pg_ls_dir', 0],
  ['pg_stat_file', 0],
  ['pg_file_write', 0],
  ['pg_file_rename', 0],
  ['pg_file_unlink', 0],
  ['lo_import', 0],
  ['lo_export', 1],
  // MySQL / MariaDB, and the command UDFs (lib_mysqludf_sys) installed by attackers
  ['load_file', 0],
  ['sys_exec', 0],
  ['sys_eval', 0],
  ['sys_get', undefined],
  ['sys_bineval', 0],
  // SQLite
  ['load_extension', 0],
  ['readfile', 0],
  ['writefile', 0],
  // SQL Server
  ['openrowset', undefined],
  ['opendatasource', undefined],
  ['openquery', undefined],
]);

/** SQL Server procedures that run programs or touch the server's files or registry. */
export const SERVER_PROGRAM_PROCEDURES = new Set([
  'xp_cmdshell',
  'xp_dirtree',
  'xp_subdirs',
  'xp_fileexist',
  'xp_regread',
  'xp_regwrite',
  'xp_regdeletekey',
  'xp_regdeletevalue',
  'xp_servicecontrol',
  'sp_oacreate',
  'sp_oamethod',
  'sp_addextendedproc',
  'sp_execute_external_script',
]);

/**
 * SQL Server procedures that run SQL text they are given, by lower-cased name, with the name of
 * that parameter (else it is the first). `sp_MSforeachtable` and `sp_MSforeachdb` run it once a
 * table or database, with `?` standing for its name.
 */
export const DYNAMIC_SQL_PROCEDURES = new Map<string, string>([
  ['sp_executesql', '@stmt'],
  ['sp_sqlexec', '@sqlstring'],
  ['sp_msforeachtable', '@command1'],
  ['sp_msforeachdb', '@command1'],
]);

/** The text a dynamic-SQL procedure runs, once its argument is resolved. */
export function procedureText(proc: string, text: string): string {
  return proc.startsWith('sp_msforeach') ? text.replaceAll('?', '[each]') : text;
}

/** SQL Server procedures that change server configuration, logins or roles. */
export const SERVER_POLICY_PROCEDURES = new Set([
  'sp_configure',
  'sp_addsrvrolemember',
  'sp_addrolemember',
  'sp_addlogin',
  'sp_password',
  'sp_change_users_login',
  'sp_addlinkedserver',
  'sp_addlinkedsrvlogin',
]);

/**
 * Functions that run the SQL text they are given, by lower-cased name, with the index of that
 * argument: dynamic SQL by another door (PostgreSQL's dblink, query_to_xml).
 */
export const SQL_RUNNING_FUNCTIONS = new Map<string, number>([
  ['dblink_exec', -1],
  ['dblink', -1],
  ['dblink_open', -1],
  ['dblink_send_query', -1],
  ['query_to_xml', 0],
  ['query_to_xmlschema', 0],
  ['query_to_xml_and_xmlschema', 0],
]);

/** Absolute Unix or Windows paths inside a command line. */
const PATH_IN_COMMAND = /(?:^|[\s'"=<>|;&(])((?:[A-Za-z]:)?[\\/][^\s'"|;&<>)]*|~[^\s'"|;&<>)]*)/g;

function privilegedPath(text: string): string | undefined {
  const cls = classifyPath(normalizePath(text));
  return cls === null ? undefined : normalizePath(text);
}

/**
 * The rule for server-side files and programs: FILESYSTEM_DENIED when the path (or any absolute
 * path in the command) is privileged, POLICY_VIOLATION otherwise.
 */
export function serverFileJudgement(
  what: string,
  path: string | undefined,
  isCommand = false,
): StatementJudgement {
  if (path !== undefined) {
    const candidates = isCommand ? [...path.matchAll(PATH_IN_COMMAND)].map((m) => m[1]!) : [path];
    for (const candidate of candidates) {
      const privileged = privilegedPath(candidate);
      if (privileged !== undefined) {
        return { code: 'FILESYSTEM_DENIED', message: `${what} names the privileged path ${privileged}` };
      }
    }
  }
  return {
    code: 'POLICY_VIOLATION',
    message: `${what} ${isCommand ? 'runs a program on the database server' : 'reads or writes files of the database server'}`,
  };
}

/** True for names of tables that live only as long as the session: T-SQL `#t`, `##t`, `pg_temp.t`. */
export function isSessionLocalName(parts: readonly string[], tempTables: ReadonlySet<string>): boolean {
  const last = parts[parts.length - 1]?.toLowerCase() ?? '';
  if (last.startsWith('#')) return true;
  if (parts.length === 2 && parts[0]!.toLowerCase() === 'pg_temp') return true;
  return parts.length === 1 && tempTables.has(last);
}

/** `DROP TABLE a, b.c` as a message: the object kind and the names, cut to a readable length. */
export function dropMessage(kind: string, names: readonly (readonly string[])[]): string {
  const list = names
    .map((name) => name.join('.'))
    .filter((name) => name !== '')
    .join(', ');
  const shown = list.length > 80 ? `${list.slice(0, 77)}…` : list;
  return shown === '' ? `DROP ${kind}`.trim() : `DROP ${kind} ${shown}`;
}

/** The file a SQLite file name or `file:` URI names. */
export function sqliteFilePath(name: string): string {
  if (!name.toLowerCase().startsWith('file:')) return name;
  const path = name.slice(5).split('?')[0]!;
  return path.startsWith('//')
    ? path.slice(path.indexOf('/', 2) < 0 ? path.length : path.indexOf('/', 2))
    : path;
}
