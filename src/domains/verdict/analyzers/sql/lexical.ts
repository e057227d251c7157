import { readingOf, type SqlToken, splitStatements, tokenizeSql } from '../sql-lexer.ts';
import {
  assignVariable,
  compare,
  DYNAMIC_SQL_PROCEDURES,
  declareVariable,
  dropMessage,
  isSessionLocalName,
  NOT_CONST,
  opaque,
  procedureText,
  SERVER_FILE_FUNCTIONS,
  SERVER_POLICY_PROCEDURES,
  SERVER_PROGRAM_PROCEDURES,
  type SqlContext,
  type StatementJudgement,
  serverFileJudgement,
  sqliteFilePath,
  variableText,
  worst,
} from './judgement.ts';
import {
  callArguments,
  firstString,
  forgetParens,
  literal,
  resolveAndJudge,
  resolveTokens,
  stripParens,
  topLevelSplit,
} from './lexical-tokens.ts';
import { segmentStatement } from './segments.ts';

// The conservative fallback for SQL no parser accepts. It reads the batch with the dialect's own
// rules for strings and comments, cuts it into statements at semicolons and wherever a statement
// keyword starts a new one (segments.ts), and judges each piece by its keywords. It only errs on
// the side of refusing.

// ------------------------------------------------------------------ statements

const DEST_DROP_OBJECTS = new Set(['TABLE', 'DATABASE', 'SCHEMA']);
const DDL_LEADERS = new Set(['CREATE', 'ALTER', 'GRANT', 'REVOKE', 'DENY', 'RENAME', 'INSTALL', 'UNINSTALL']);
const SKIPPED_MODIFIERS = new Set([
  'TEMPORARY',
  'TEMP',
  'IF',
  'EXISTS',
  'FOREIGN',
  'MATERIALIZED',
  'GLOBAL',
  'LOCAL',
  'UNLOGGED',
]);

/**
 * True when the condition narrows nothing. Conditions nested deeper than any real one are taken
 * as always true: refusing is the safe side, and each level costs a pass over the condition.
 */
function lexicalTautology(term: readonly SqlToken[], depth = 0): boolean {
  if (depth > 8) return true;
  const t = stripParens(term);
  if (t.length === 0) return false;
  const ors = topLevelSplit(t, (x) => x.kind === 'word' && x.value === 'OR');
  if (ors.length > 1) return ors.some((part) => lexicalTautology(part, depth + 1));
  const ands = topLevelSplit(t, (x) => x.kind === 'word' && x.value === 'AND');
  if (ands.length > 1) return ands.every((part) => lexicalTautology(part, depth + 1));
  if (t.length === 1) {
    const v = literal(t[0]);
    return v === true || (typeof v === 'number' && v !== 0) || v === '1';
  }
  if (t.length === 2 && t[0]!.kind === 'word' && t[0]!.value === 'NOT') return literal(t[1]) === false;
  if (t.length === 3 && t[1]!.kind === 'op') {
    const [a, op, b] = t as [SqlToken, SqlToken, SqlToken];
    const left = literal(a);
    const right = literal(b);
    if (left !== NOT_CONST && right !== NOT_CONST) return compare(op.value, left, right) === true;
    const sameRef = (a.kind === 'word' || a.kind === 'ident') && a.kind === b.kind && a.value === b.value;
    return sameRef && (op.value === '=' || op.value === '>=' || op.value === '<=');
  }
  return false;
}

/** Dotted name starting at `start`: its parts and the index after it. */
function readName(tokens: readonly SqlToken[], start: number): [string[], number] {
  const parts: string[] = [];
  let i = start;
  while (i < tokens.length) {
    const t = tokens[i]!;
    if (t.kind === 'word' || t.kind === 'ident' || t.kind === 'var') parts.push(t.value);
    else break;
    i++;
    if (tokens[i]?.kind === 'op' && tokens[i]!.value === '.') {
      i++;
      while (tokens[i]?.kind === 'op' && tokens[i]!.value === '.') i++;
    } else break;
  }
  return [parts, i];
}

function lexicalDml(
  kind: 'DELETE' | 'UPDATE',
  tokens: readonly SqlToken[],
  start: number,
  ctx: SqlContext,
): StatementJudgement | undefined {
  let depth = 0;
  let whereAt = -1;
  let end = tokens.length;
  for (let i = start; i < tokens.length; i++) {
    const token = tokens[i]!;
    if (token.kind === '(') depth++;
    else if (token.kind === ')') {
      depth--;
      if (depth < 0) {
        end = i;
        break;
      }
    } else if (depth === 0 && token.kind === 'word' && token.value === 'WHERE' && whereAt < 0) whereAt = i;
  }
  let target = start;
  if (tokens[target]?.value === 'TOP') target = tokens[target + 1]?.kind === '(' ? target + 4 : target + 2;
  if (tokens[target]?.value === 'FROM') target++;
  const [name] = readName(tokens, target);
  if (name.length > 0 && (isSessionLocalName(name, ctx.tempTables) || name[0]!.startsWith('@')))
    return undefined;
  if (whereAt < 0) return { code: 'DEST_MUTATION', message: `${kind} without a WHERE clause` };
  const clause = tokens.slice(whereAt + 1, end);
  const cut = clause.findIndex(
    (t) => t.kind === 'word' && (t.value === 'RETURNING' || t.value === 'LIMIT' || t.value === 'ORDER'),
  );
  if (lexicalTautology(cut < 0 ? clause : clause.slice(0, cut))) {
    return { code: 'DEST_MUTATION', message: `${kind} with an always-true WHERE clause` };
  }
  return undefined;
}

function judgeDrop(tokens: readonly SqlToken[], i: number, ctx: SqlContext): StatementJudgement | undefined {
  let j = i + 1;
  while (j < tokens.length && SKIPPED_MODIFIERS.has(tokens[j]!.value)) j++;
  const object = tokens[j]?.kind === 'word' ? tokens[j]!.value : '';
  j++;
  while (j < tokens.length && SKIPPED_MODIFIERS.has(tokens[j]!.value)) j++;
  const names = topLevelSplit(tokens.slice(j), (t) => t.kind === ',').map((part) => readName(part, 0)[0]);
  if (
    object === 'TABLE' &&
    names.every((name) => name.length > 0 && isSessionLocalName(name, ctx.tempTables))
  ) {
    return undefined;
  }
  return {
    code: DEST_DROP_OBJECTS.has(object) ? 'DEST_MUTATION' : 'POLICY_VIOLATION',
    message: dropMessage(object, names),
  };
}

function judgeCreate(
  tokens: readonly SqlToken[],
  i: number,
  ctx: SqlContext,
): StatementJudgement | undefined {
  let j = i + 1;
  let temporary = false;
  while (j < tokens.length && tokens[j]!.kind === 'word' && tokens[j]!.value !== 'TABLE') {
    const w = tokens[j]!.value;
    if (w === 'TEMP' || w === 'TEMPORARY') temporary = true;
    else if (w !== 'GLOBAL' && w !== 'LOCAL' && w !== 'OR' && w !== 'REPLACE') break;
    j++;
  }
  // Temporary views and sequences are session-local too; only tables are dropped by name later.
  if (temporary && (tokens[j]?.value === 'VIEW' || tokens[j]?.value === 'SEQUENCE')) return undefined;
  if (tokens[j]?.value === 'TABLE') {
    j++;
    while (
      j < tokens.length &&
      (tokens[j]!.value === 'IF' || tokens[j]!.value === 'NOT' || tokens[j]!.value === 'EXISTS')
    )
      j++;
    const [name] = readName(tokens, j);
    if (temporary || (name.length > 0 && isSessionLocalName(name, new Set()))) {
      if (name.length === 1) ctx.tempTables.add(name[0]!.toLowerCase());
      return undefined;
    }
  }
  return {
    code: 'POLICY_VIOLATION',
    message: `schema or privilege change (CREATE ${tokens[i + 1]?.value ?? ''})`.replace(' )', ')'),
  };
}

/** Server-side file functions, INTO OUTFILE and the like, wherever they appear in a statement. */
function judgeServerFiles(tokens: readonly SqlToken[]): StatementJudgement | undefined {
  let found: StatementJudgement | undefined;
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    if ((t.kind === 'word' || t.kind === 'ident') && tokens[i + 1]?.kind === '(') {
      const name = t.value.toLowerCase();
      if (!SERVER_FILE_FUNCTIONS.has(name)) continue;
      const index = SERVER_FILE_FUNCTIONS.get(name);
      const args = callArguments(tokens, i + 1) ?? [];
      const path = index === undefined ? firstString(args.flat()) : firstString(args[index]);
      const isCommand = name === 'sys_exec' || name === 'sys_eval';
      found = worst(found, serverFileJudgement(`${name}()`, path, isCommand));
    } else if (
      t.kind === 'op' &&
      t.value === '\\' &&
      (tokens[i + 1]?.value === 'GEXEC' || tokens[i + 1]?.value === '!')
    ) {
      // psql meta-commands, where SQL reaches psql (`psql -f`, a script on standard input).
      found = worst(
        found,
        tokens[i + 1]!.value === '!'
          ? { code: 'POLICY_VIOLATION', message: 'psql \\! runs a shell command' }
          : opaque('psql \\gexec runs every row of the query as SQL'),
      );
    } else if (t.kind === 'word' && t.value === 'INTO') {
      const next = tokens[i + 1];
      if (next?.kind === 'word' && (next.value === 'OUTFILE' || next.value === 'DUMPFILE')) {
        found = worst(
          found,
          serverFileJudgement(`INTO ${next.value}`, firstString(tokens.slice(i + 2, i + 3))),
        );
      }
    }
  }
  return found;
}

function judgeExec(tokens: readonly SqlToken[], i: number, ctx: SqlContext): StatementJudgement | undefined {
  const verb = tokens[i]!.value;
  let j = i + 1;
  if (tokens[j]?.value === 'IMMEDIATE') {
    return resolveAndJudge(tokens.slice(j + 1), (text) => `${verb} IMMEDIATE ${text}`, ctx);
  }
  if (tokens[j]?.kind === '(') {
    const args = callArguments(tokens, j);
    if (args === undefined) return opaque(`${verb}( with no closing parenthesis`);
    return resolveAndJudge(args[0] ?? [], (text) => `${verb}(${text})`, ctx);
  }
  if (tokens[j]?.kind === 'string') return resolveAndJudge(tokens.slice(j), (text) => `${verb} ${text}`, ctx);
  if (tokens[j]?.kind === 'var' && tokens[j + 1]?.value === '=') j += 2;
  if (tokens[j]?.kind === 'var') {
    const name = variableText(ctx, tokens[j]!.value);
    if ('unresolved' in name)
      return opaque(`${verb} ${tokens[j]!.value} (the procedure's name: ${name.unresolved})`);
    return judgeProcedure(
      name.text.split('.').filter((p) => p !== ''),
      tokens.slice(j + 1),
      verb,
      ctx,
    );
  }
  const [name, after] = readName(tokens, j);
  return judgeProcedure(name, tokens.slice(after), verb, ctx);
}

function judgeProcedure(
  name: readonly string[],
  params: readonly SqlToken[],
  verb: string,
  ctx: SqlContext,
): StatementJudgement | undefined {
  const proc = (name[name.length - 1] ?? '').toLowerCase();
  const parameter = DYNAMIC_SQL_PROCEDURES.get(proc);
  if (parameter !== undefined) {
    const args = topLevelSplit(params, (t) => t.kind === ',');
    let stmt = args[0] ?? [];
    const named = args.find((a) => a[0]?.kind === 'var' && a[0].value === parameter && a[1]?.value === '=');
    if (named) stmt = named.slice(2);
    else if (stmt[0]?.kind === 'var' && stmt[1]?.value === '=') stmt = stmt.slice(2);
    return resolveAndJudge(
      stmt,
      (text) => `${proc} ${text}`,
      ctx,
      (text) => procedureText(proc, text),
    );
  }
  if (SERVER_POLICY_PROCEDURES.has(proc)) {
    return { code: 'POLICY_VIOLATION', message: `server configuration or privilege change (${proc})` };
  }
  if (SERVER_PROGRAM_PROCEDURES.has(proc)) {
    return serverFileJudgement(
      `${verb} ${proc}`,
      firstString(params),
      proc === 'xp_cmdshell' || proc.startsWith('sp_oa'),
    );
  }
  return undefined;
}

function judgePrepare(
  tokens: readonly SqlToken[],
  i: number,
  ctx: SqlContext,
): StatementJudgement | undefined {
  const name = tokens[i + 1]?.value ?? '';
  let j = i + 2;
  if (tokens[j]?.kind === '(') {
    while (j < tokens.length && tokens[j]!.kind !== ')') j++;
    j++;
  }
  if (tokens[j]?.value === 'AS') return judgeSegment(tokens.slice(j + 1), ctx);
  if (tokens[j]?.value !== 'FROM') return undefined;
  return resolveAndJudge(tokens.slice(j + 1), (text) => `PREPARE ${name.toLowerCase()} FROM ${text}`, ctx);
}

/** `SET @v = …`, `DECLARE @v type = …`, `DECLARE v type DEFAULT …`: remember literal values. */
function assign(tokens: readonly SqlToken[], i: number, ctx: SqlContext): void {
  for (const part of topLevelSplit(tokens.slice(i + 1), (t) => t.kind === ',')) {
    const target = part[0];
    if (target === undefined || (target.kind !== 'var' && target.kind !== 'word')) continue;
    const name = target.kind === 'var' ? target.value : target.value.toLowerCase();
    const at = part.findIndex(
      (t, k) => k > 0 && ((t.kind === 'op' && (t.value === '=' || t.value === ':')) || t.value === 'DEFAULT'),
    );
    if (at < 0) {
      if (tokens[i]!.value === 'DECLARE') declareVariable(ctx, name);
      continue;
    }
    let start = at + 1;
    if (part[start]?.kind === 'op' && part[start]!.value === '=') start++;
    const value = resolveTokens(part.slice(start), ctx);
    assignVariable(ctx, name, 'text' in value ? value.text : undefined);
  }
}

function judgeSegment(tokens: readonly SqlToken[], ctx: SqlContext): StatementJudgement | undefined {
  const files = judgeServerFiles(tokens);
  let i = 0;
  while (
    i < tokens.length &&
    (tokens[i]!.kind === '(' || tokens[i]!.value === 'EXPLAIN' || tokens[i]!.value === 'ANALYZE')
  )
    i++;
  const lead = tokens[i];
  if (lead === undefined || lead.kind !== 'word') return files;
  return worst(judgeLeader(lead.value, tokens, i, ctx), files);
}

/** `SELECT … INTO @v` and `SELECT @v = …`: the literals the variable's text is built from. */
function rememberSelectedVariables(tokens: readonly SqlToken[], i: number, ctx: SqlContext): void {
  const names: string[] = [];
  for (let j = i + 1; j < tokens.length; j++) {
    const t = tokens[j]!;
    if (t.kind === 'var' && (tokens[j - 1]?.value === 'INTO' || tokens[j + 1]?.value === '='))
      names.push(t.value);
  }
  if (names.length === 0) return;
  const literals = tokens.filter((t) => t.kind === 'string').map((t) => t.value);
  ctx.fragments ??= new Map();
  for (const name of names) if (ctx.fragments.size < 256) ctx.fragments.set(name, literals);
}

function judgeLeader(
  word: string,
  tokens: readonly SqlToken[],
  i: number,
  ctx: SqlContext,
): StatementJudgement | undefined {
  if (word === 'SELECT') rememberSelectedVariables(tokens, i, ctx);
  switch (word) {
    case 'TRUNCATE': {
      const at = tokens[i + 1]?.value === 'TABLE' ? i + 2 : i + 1;
      const [name] = readName(tokens, at);
      if (name.length > 0 && isSessionLocalName(name, ctx.tempTables)) return undefined;
      return { code: 'DEST_MUTATION', message: 'TRUNCATE' };
    }
    case 'DELETE':
    case 'UPDATE':
      return lexicalDml(word, tokens, i + 1, ctx);
    case 'WITH': {
      for (let j = i + 1; j < tokens.length; j++) {
        const t = tokens[j]!;
        const prev = tokens[j - 1]!;
        if (
          t.kind === 'word' &&
          (t.value === 'DELETE' || t.value === 'UPDATE') &&
          (prev.kind === '(' || prev.kind === ')')
        ) {
          const found = lexicalDml(t.value, tokens, j + 1, ctx);
          if (found) return found;
        }
      }
      return undefined;
    }
    case 'DROP':
      return judgeDrop(tokens, i, ctx);
    case 'CREATE':
      return judgeCreate(tokens, i, ctx);
    case 'EXEC':
    case 'EXECUTE':
      return judgeExec(tokens, i, ctx);
    case 'PREPARE':
      return judgePrepare(tokens, i, ctx);
    case 'SET':
    case 'DECLARE':
      assign(tokens, i, ctx);
      return undefined;
    case 'LOAD': {
      const infile = tokens.findIndex((t) => t.kind === 'word' && t.value === 'INFILE');
      if (infile >= 0)
        return serverFileJudgement('LOAD … INFILE', firstString(tokens.slice(infile + 1, infile + 2)));
      // PostgreSQL's LOAD 'library' loads a shared library into the server; MySQL's
      // LOAD INDEX INTO CACHE only warms a cache.
      if (tokens[i + 1]?.kind === 'string') return serverFileJudgement('LOAD', tokens[i + 1]!.value, true);
      return undefined;
    }
    case 'BULK':
      return serverFileJudgement('BULK INSERT', firstString(tokens));
    case 'ATTACH': {
      const file = firstString(tokens);
      if (file === ':memory:' || file === '') return undefined;
      return serverFileJudgement('ATTACH', file === undefined ? undefined : sqliteFilePath(file));
    }
    case 'VACUUM': {
      const into = tokens.findIndex((t) => t.value === 'INTO');
      if (into < 0) return undefined;
      return serverFileJudgement('VACUUM INTO', sqliteFilePath(firstString(tokens.slice(into)) ?? ''));
    }
    case 'BACKUP':
    case 'RESTORE':
      return serverFileJudgement(`${word} DATABASE`, firstString(tokens));
    case 'COPY': {
      const program = tokens.findIndex((t) => t.value === 'PROGRAM');
      if (program >= 0)
        return serverFileJudgement('COPY … PROGRAM', firstString(tokens.slice(program)), true);
      const direction = tokens.findIndex((t) => t.value === 'TO' || t.value === 'FROM');
      const target = tokens[direction + 1];
      if (direction >= 0 && target?.kind === 'string')
        return serverFileJudgement(`COPY … ${tokens[direction]!.value}`, target.value);
      return undefined;
    }
    case 'DO':
      return { code: 'POLICY_VIOLATION', message: 'anonymous code block (DO)' };
    default: {
      if (DDL_LEADERS.has(word))
        return { code: 'POLICY_VIOLATION', message: `schema or privilege change (${word})` };
      // T-SQL runs a procedure named first in a batch without EXEC.
      const dotted = tokens[i + 1]?.kind === 'op' && tokens[i + 1]!.value === '.';
      if (!dotted && !PROCEDURE_WORDS.has(word)) return undefined;
      const [name, after] = readName(tokens, i);
      return judgeProcedure(name, tokens.slice(after), 'EXEC', ctx);
    }
  }
}

/** The procedures judged by name, as the tokenizer spells words. */
const PROCEDURE_WORDS = new Set(
  [...DYNAMIC_SQL_PROCEDURES.keys(), ...SERVER_PROGRAM_PROCEDURES, ...SERVER_POLICY_PROCEDURES].map((p) =>
    p.toUpperCase(),
  ),
);

/** Judgement of each statement of a batch, in order, by keywords alone. */
export function judgeLexically(sql: string, ctx: SqlContext): (StatementJudgement | undefined)[] {
  const statements = splitStatements(tokenizeSql(sql, readingOf(ctx.dialect)));
  const judgements: (StatementJudgement | undefined)[] = [];
  for (const tokens of statements) {
    let judgement: StatementJudgement | undefined;
    for (const segment of segmentStatement(tokens)) judgement = worst(judgement, judgeSegment(segment, ctx));
    judgements.push(judgement);
  }
  forgetParens();
  return judgements;
}
