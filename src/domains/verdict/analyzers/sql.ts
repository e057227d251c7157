import { loadModule, parseSync } from 'libpg-query';
import { memoizeText } from '../../../lib/text-memo.ts';
import type { SqlDialect } from '../catalog.ts';
import type { Finding } from '../codes.ts';
import { type SqlToken, splitStatements, tokenizeSql } from './sql-lexer.ts';

// libpg-query is the PostgreSQL grammar itself compiled to WASM; it accepted the most
// statements of every corpus measured by scripts/compare-sql-parsers.ts. Loading the WASM
// module is asynchronous, parsing afterwards is synchronous.
await loadModule();

/**
 * Above this size the parser's cost grows past the latency budget; the linear lexical
 * analysis judges such batches instead, which only errs on the side of refusing.
 */
const PARSE_LIMIT = 64 * 1024;

type Node = Record<string, unknown>;

const DESTRUCTIVE_DROP = new Set(['OBJECT_TABLE', 'OBJECT_SCHEMA', 'OBJECT_FOREIGN_TABLE', 'OBJECT_MATVIEW']);

/** Statement kinds that change the schema or privileges: POLICY_VIOLATION. */
const POLICY_STATEMENTS = new Set([
  'IndexStmt',
  'ViewStmt',
  'DefineStmt',
  'CompositeTypeStmt',
  'RuleStmt',
  'RenameStmt',
  'GrantStmt',
  'GrantRoleStmt',
  'DropRoleStmt',
  'DropOwnedStmt',
  'ReassignOwnedStmt',
  'SecLabelStmt',
  'CreateTableAsStmt',
  'DoStmt',
]);

function isPolicyStatement(kind: string): boolean {
  return POLICY_STATEMENTS.has(kind) || kind.startsWith('Create') || kind.startsWith('Alter');
}

type Const = number | string | boolean | null;
const NOT_CONST = Symbol('not constant');

/** Value of an expression made only of literals, or NOT_CONST. */
function constValue(node: unknown): Const | typeof NOT_CONST {
  if (typeof node !== 'object' || node === null) return NOT_CONST;
  const n = node as Node;
  if ('A_Const' in n) {
    const c = n['A_Const'] as Node;
    if (c['isnull']) return null;
    if ('ival' in c) return Number((c['ival'] as Node)['ival'] ?? 0);
    if ('fval' in c) return Number((c['fval'] as Node)['fval']);
    if ('sval' in c) return String((c['sval'] as Node)['sval'] ?? '');
    if ('boolval' in c) return Boolean((c['boolval'] as Node)['boolval']);
    return NOT_CONST;
  }
  if ('TypeCast' in n) return constValue((n['TypeCast'] as Node)['arg']);
  if ('A_Expr' in n) {
    const e = n['A_Expr'] as Node;
    const op = operatorName(e);
    const left = e['lexpr'] === undefined ? 0 : constValue(e['lexpr']);
    const right = constValue(e['rexpr']);
    if (left === NOT_CONST || right === NOT_CONST || e['kind'] !== 'AEXPR_OP') return NOT_CONST;
    if (typeof left === 'number' && typeof right === 'number') {
      if (op === '+') return left + right;
      if (op === '-') return left - right;
      if (op === '*') return left * right;
    }
    if (op === '||' && left !== null && right !== null) return `${left}${right}`;
    const cmp = compare(op, left, right);
    return cmp === undefined ? NOT_CONST : cmp;
  }
  return NOT_CONST;
}

function operatorName(expr: Node): string {
  const names = expr['name'] as Node[] | undefined;
  const last = names?.[names.length - 1] as Node | undefined;
  return String((last?.['String'] as Node | undefined)?.['sval'] ?? '');
}

function compare(op: string, left: Const, right: Const): boolean | undefined {
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

function sameColumn(a: unknown, b: unknown): boolean {
  const left = (a as Node | undefined)?.['ColumnRef'];
  const right = (b as Node | undefined)?.['ColumnRef'];
  if (left === undefined || right === undefined) return false;
  return JSON.stringify((left as Node)['fields']) === JSON.stringify((right as Node)['fields']);
}

/** True when the condition holds for every row (or every row but NULLs): it narrows nothing. */
function isTautology(node: unknown): boolean {
  if (typeof node !== 'object' || node === null) return false;
  const n = node as Node;
  if ('BoolExpr' in n) {
    const b = n['BoolExpr'] as Node;
    const args = (b['args'] as unknown[] | undefined) ?? [];
    if (b['boolop'] === 'OR_EXPR') return args.some(isTautology);
    if (b['boolop'] === 'AND_EXPR') return args.length > 0 && args.every(isTautology);
    if (b['boolop'] === 'NOT_EXPR') return constValue(args[0]) === false;
    return false;
  }
  if ('A_Expr' in n) {
    const e = n['A_Expr'] as Node;
    const op = operatorName(e);
    if (
      e['kind'] === 'AEXPR_OP' &&
      (op === '=' || op === '>=' || op === '<=') &&
      sameColumn(e['lexpr'], e['rexpr'])
    ) {
      return true;
    }
  }
  const value = constValue(n);
  if (value === NOT_CONST || value === null) return false;
  if (typeof value === 'string') return value.toLowerCase() === 'true' || value === '1';
  return value === true || (typeof value === 'number' && value !== 0);
}

interface StatementJudgement {
  code: 'DEST_MUTATION' | 'POLICY_VIOLATION';
  message: string;
}

function judgeDml(kind: 'DELETE' | 'UPDATE', body: Node): StatementJudgement | undefined {
  const where = body['whereClause'];
  if (where === undefined) return { code: 'DEST_MUTATION', message: `${kind} without a WHERE clause` };
  if (isTautology(where))
    return { code: 'DEST_MUTATION', message: `${kind} with an always-true WHERE clause` };
  return undefined;
}

/** Finds data-destroying statements anywhere in a statement tree (CTEs, EXPLAIN, PREPARE). */
function findDestructive(node: unknown, depth = 0): StatementJudgement | undefined {
  if (depth > 200 || typeof node !== 'object' || node === null) return undefined;
  if (Array.isArray(node)) {
    for (const item of node) {
      const found = findDestructive(item, depth + 1);
      if (found) return found;
    }
    return undefined;
  }
  const n = node as Node;
  // for…in, not Object.entries: the walk visits every node of the tree, and an entries array per
  // node was most of its cost. Parsed JSON has no inherited enumerable keys.
  for (const key in n) {
    const value = n[key];
    if (key === 'DeleteStmt' || key === 'UpdateStmt') {
      const found = judgeDml(key === 'DeleteStmt' ? 'DELETE' : 'UPDATE', value as Node);
      if (found) return found;
    } else if (key === 'TruncateStmt') {
      return { code: 'DEST_MUTATION', message: 'TRUNCATE' };
    } else if (key === 'DropdbStmt') {
      return { code: 'DEST_MUTATION', message: 'DROP DATABASE' };
    } else if (key === 'DropStmt') {
      const type = String((value as Node)['removeType'] ?? '');
      if (DESTRUCTIVE_DROP.has(type)) {
        return { code: 'DEST_MUTATION', message: `DROP ${type.replace('OBJECT_', '').replace('_', ' ')}` };
      }
    }
    if (typeof value === 'object' && value !== null) {
      const found = findDestructive(value, depth + 1);
      if (found) return found;
    }
  }
  return undefined;
}

function judgeParsedStatement(stmt: Node): StatementJudgement | undefined {
  const destructive = findDestructive(stmt);
  if (destructive) return destructive;
  const kind = Object.keys(stmt)[0] ?? '';
  if (kind === 'DropStmt') {
    const type = String((stmt['DropStmt'] as Node)['removeType'] ?? 'OBJECT');
    return { code: 'POLICY_VIOLATION', message: `DROP ${type.replace('OBJECT_', '').replaceAll('_', ' ')}` };
  }
  if (kind === 'SelectStmt' && (stmt['SelectStmt'] as Node)['intoClause'] !== undefined) {
    return { code: 'POLICY_VIOLATION', message: 'SELECT INTO creates a table' };
  }
  if (kind === 'CopyStmt') {
    const copy = stmt['CopyStmt'] as Node;
    if (copy['filename'] !== undefined || copy['is_program']) {
      return { code: 'POLICY_VIOLATION', message: 'COPY to or from a server file or program' };
    }
  }
  if (isPolicyStatement(kind)) {
    return { code: 'POLICY_VIOLATION', message: `schema or privilege change (${describeKind(kind)})` };
  }
  return undefined;
}

function describeKind(kind: string): string {
  return kind
    .replace(/Stmt$/, '')
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toUpperCase();
}

/** Rewrites MySQL back-ticks and T-SQL brackets as standard quoted identifiers. */
function standardiseIdentifiers(sql: string): string {
  return sql.replace(/`([^`\n]*)`/g, '"$1"').replace(/\[([A-Za-z_][\w ]*)\]/g, '"$1"');
}

function tryParse(sql: string): Node[] | undefined {
  try {
    const result = parseSync(sql) as unknown as { stmts?: { stmt: Node }[] };
    return (result.stmts ?? []).map((entry) => entry.stmt);
  } catch {
    return undefined;
  }
}

// ---------------------------------------------------------------- lexical fallback

const DEST_DROP_OBJECTS = new Set(['TABLE', 'DATABASE', 'SCHEMA']);
const DDL_LEADERS = new Set(['CREATE', 'ALTER', 'GRANT', 'REVOKE', 'RENAME', 'DROP']);
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

function literal(token: SqlToken | undefined): Const | typeof NOT_CONST {
  if (token === undefined) return NOT_CONST;
  if (token.kind === 'number') return Number(token.value);
  if (token.kind === 'string') return token.value;
  if (token.kind === 'word' && (token.value === 'TRUE' || token.value === 'FALSE'))
    return token.value === 'TRUE';
  if (token.kind === 'word' && token.value === 'NULL') return null;
  return NOT_CONST;
}

function splitTopLevel(tokens: readonly SqlToken[], word: string): SqlToken[][] {
  const parts: SqlToken[][] = [[]];
  let depth = 0;
  for (const token of tokens) {
    if (token.kind === '(') depth++;
    if (token.kind === ')') depth--;
    if (depth === 0 && token.kind === 'word' && token.value === word) parts.push([]);
    else parts[parts.length - 1]!.push(token);
  }
  return parts;
}

function stripParens(tokens: SqlToken[]): SqlToken[] {
  let t = tokens;
  while (t.length >= 2 && t[0]!.kind === '(' && t[t.length - 1]!.kind === ')') t = t.slice(1, -1);
  return t;
}

function lexicalTautology(term: SqlToken[]): boolean {
  const t = stripParens(term);
  if (t.length === 0) return false;
  const ors = splitTopLevel(t, 'OR');
  if (ors.length > 1) return ors.some(lexicalTautology);
  const ands = splitTopLevel(t, 'AND');
  if (ands.length > 1) return ands.every(lexicalTautology);
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

function lexicalDml(
  kind: 'DELETE' | 'UPDATE',
  tokens: readonly SqlToken[],
  start: number,
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

function judgeLexicalStatement(tokens: SqlToken[]): StatementJudgement | undefined {
  let i = 0;
  while (
    i < tokens.length &&
    (tokens[i]!.kind === '(' || tokens[i]!.value === 'EXPLAIN' || tokens[i]!.value === 'ANALYZE')
  )
    i++;
  const lead = tokens[i];
  if (lead === undefined || lead.kind !== 'word') return undefined;
  const word = lead.value;
  if (word === 'TRUNCATE') return { code: 'DEST_MUTATION', message: 'TRUNCATE' };
  if (word === 'DELETE' || word === 'UPDATE') return lexicalDml(word, tokens, i + 1);
  if (word === 'WITH') {
    for (let j = i + 1; j < tokens.length; j++) {
      const t = tokens[j]!;
      const prev = tokens[j - 1]!;
      if (
        t.kind === 'word' &&
        (t.value === 'DELETE' || t.value === 'UPDATE') &&
        (prev.kind === '(' || prev.kind === ')')
      ) {
        const found = lexicalDml(t.value, tokens, j + 1);
        if (found) return found;
      }
    }
    return undefined;
  }
  if (word === 'DROP') {
    let j = i + 1;
    while (j < tokens.length && SKIPPED_MODIFIERS.has(tokens[j]!.value)) j++;
    const object = tokens[j]?.value ?? '';
    if (DEST_DROP_OBJECTS.has(object)) return { code: 'DEST_MUTATION', message: `DROP ${object}` };
    return { code: 'POLICY_VIOLATION', message: `DROP ${object}`.trim() };
  }
  if (DDL_LEADERS.has(word))
    return { code: 'POLICY_VIOLATION', message: `schema or privilege change (${word})` };
  if (
    word === 'SELECT' &&
    tokens.some((t) => t.kind === 'word' && t.value === 'INTO' && t !== tokens[i + 1])
  ) {
    const intoIndex = tokens.findIndex((t) => t.kind === 'word' && t.value === 'INTO');
    const next = tokens[intoIndex + 1];
    if (
      next !== undefined &&
      next.kind === 'word' &&
      (next.value === 'OUTFILE' || next.value === 'DUMPFILE')
    ) {
      return { code: 'POLICY_VIOLATION', message: 'SELECT INTO OUTFILE writes a server file' };
    }
  }
  return undefined;
}

export interface SqlAnalysisOptions {
  dialect?: SqlDialect | undefined;
}

function finding(judgement: StatementJudgement, index: number, total: number): Finding {
  return {
    code: judgement.code,
    message: total > 1 ? `${judgement.message} (statement ${index} of ${total})` : judgement.message,
    location: `statement ${index}`,
  };
}

/** Lexical judgement of a whole batch: the fallback when no parser accepts the SQL. */
export function analyzeSqlLexically(sql: string): Finding[] {
  const statements = splitStatements(tokenizeSql(sql));
  const findings: Finding[] = [];
  statements.forEach((tokens, index) => {
    const judgement = judgeLexicalStatement(tokens);
    if (judgement) findings.push(finding(judgement, index + 1, statements.length));
  });
  return findings;
}

const remembered = new Map<string, (sql: string) => readonly Finding[]>();

/**
 * Findings for a db.query payload, statement by statement. A pure function of the text and the
 * dialect, so the analysis of recently seen queries is remembered (up to 1,000 of at most 4 KB).
 */
export function analyzeSql(sql: string, options: SqlAnalysisOptions = {}): Finding[] {
  const dialect = options.dialect ?? '';
  let analyze = remembered.get(dialect);
  if (analyze === undefined) {
    analyze = memoizeText(
      (text) => Object.freeze(parseAndJudge(text, options).map((f) => Object.freeze(f))),
      {
        capacity: 1000,
        maxLength: 4096,
      },
    );
    remembered.set(dialect, analyze);
  }
  return [...analyze(sql)];
}

function parseAndJudge(sql: string, options: SqlAnalysisOptions): Finding[] {
  if (sql.length > PARSE_LIMIT) return analyzeSqlLexically(sql);
  let statements = tryParse(sql);
  if (statements === undefined && options.dialect !== 'postgres' && /[`[]/.test(sql)) {
    statements = tryParse(standardiseIdentifiers(sql));
  }
  if (statements === undefined) return analyzeSqlLexically(sql);
  const findings: Finding[] = [];
  statements.forEach((stmt, index) => {
    const judgement = judgeParsedStatement(stmt);
    if (judgement) findings.push(finding(judgement, index + 1, statements.length));
  });
  return findings;
}
