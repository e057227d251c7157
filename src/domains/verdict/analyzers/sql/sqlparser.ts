import { init, parse } from '@guanmingchiu/sqlparser-ts';
import type { SqlDialect } from '../../catalog.ts';
import {
  assignVariable,
  DYNAMIC_SQL_PROCEDURES,
  declareVariable,
  dropMessage,
  dynamicJudgement,
  isSessionLocalName,
  judgeEachValue,
  NOT_CONST,
  opaque,
  procedureText,
  quoteForMessage,
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
import { columnOf, isTautology, type Node, nameParts, value } from './sqlparser-values.ts';

// sqlparser-rs (Apache DataFusion's SQL parser) compiled to WASM: one maintained grammar with
// real dialects for T-SQL, MySQL, SQLite, BigQuery and Snowflake, control flow and EXEC included.
// Loading the WASM module is asynchronous, parsing afterwards is synchronous.
await init();

const PARSER_DIALECT: Record<Exclude<SqlDialect, 'postgres'>, string> = {
  mssql: 'mssql',
  mysql: 'mysql',
  mariadb: 'mysql',
  sqlite: 'sqlite',
  bigquery: 'bigquery',
  snowflake: 'snowflake',
};

const DESTRUCTIVE_DROP = new Set(['Table', 'Schema', 'Database', 'MaterializedView']);

type Resolved = { text: string } | { unresolved: string };

function describe(expr: unknown): string {
  const n = expr as Node | undefined;
  if (n === undefined || n === null || typeof n !== 'object') return 'an expression';
  const v = value(n);
  if (typeof v === 'string') return quoteForMessage(v);
  if (v !== NOT_CONST) return String(v);
  if ('Identifier' in n) return String((n['Identifier'] as Node)['value']);
  if ('Function' in n) return `${nameParts((n['Function'] as Node)['name']).join('.')}(…)`;
  if ('BinaryOp' in n) {
    const b = n['BinaryOp'] as Node;
    const op = b['op'] === 'Plus' ? '+' : b['op'] === 'StringConcat' ? '||' : String(b['op']);
    return `${describe(b['left'])} ${op} ${describe(b['right'])}`;
  }
  if ('Nested' in n) return `(${describe(n['Nested'])})`;
  return 'an expression';
}

function resolve(expr: unknown, ctx: SqlContext): Resolved {
  const n = expr as Node | undefined;
  if (n === undefined || n === null || typeof n !== 'object') return { unresolved: 'no statement text' };
  const v = value(n);
  if (typeof v === 'string') return { text: v };
  if ('Nested' in n) return resolve(n['Nested'], ctx);
  if ('Identifier' in n) return variableText(ctx, String((n['Identifier'] as Node)['value']).toLowerCase());
  if ('BinaryOp' in n) {
    const b = n['BinaryOp'] as Node;
    if (b['op'] === 'Plus' || b['op'] === 'StringConcat') {
      const left = resolve(b['left'], ctx);
      if ('unresolved' in left) return left;
      const right = resolve(b['right'], ctx);
      if ('unresolved' in right) return right;
      return { text: left.text + right.text };
    }
  }
  if ('Function' in n) {
    const fn = n['Function'] as Node;
    const name = nameParts(fn['name']).join('.').toLowerCase();
    const args =
      (((fn['args'] as Node | undefined)?.['List'] as Node | undefined)?.['args'] as Node[] | undefined) ??
      [];
    if (name === 'concat') {
      let text = '';
      for (const arg of args) {
        const part = resolve((arg['Unnamed'] as Node | undefined)?.['Expr'], ctx);
        if ('unresolved' in part) return part;
        text += part.text;
      }
      return { text };
    }
  }
  return { unresolved: `${describe(n)} is not a literal` };
}

function resolveAndJudge(
  expr: unknown,
  what: (text: string) => string,
  ctx: SqlContext,
  run: (text: string) => string = (text) => text,
): StatementJudgement | undefined {
  const single = (expr as Node | undefined)?.['Identifier'] as Node | undefined;
  if (single !== undefined) {
    const each = judgeEachValue(String(single['value']).toLowerCase(), what, ctx, run);
    if (each !== false) return each;
  }
  const resolved = resolve(expr, ctx);
  if ('unresolved' in resolved) {
    const literals = literalsOf(expr);
    if (single !== undefined)
      literals.push(...(ctx.fragments?.get(String(single['value']).toLowerCase()) ?? []));
    return dynamicJudgement(`${what(describe(expr))} (${resolved.unresolved})`, literals);
  }
  return ctx.nested(run(resolved.text), `after resolving ${what(quoteForMessage(resolved.text))}`);
}

/**
 * `SELECT @q = expr …` (T-SQL) and `SELECT expr … INTO @q` (MySQL) set variables from a query: the
 * text is not known, the literals it is built from are.
 */
function rememberSelectedVariables(select: Node, ctx: SqlContext): void {
  const projection = (select['projection'] as Node[] | undefined) ?? [];
  const record = (name: string, expr: unknown) => {
    ctx.fragments ??= new Map();
    if (ctx.fragments.size < 256) ctx.fragments.set(name.toLowerCase(), literalsOf(expr));
  };
  for (const item of projection) {
    const aliased = item['ExprWithAlias'] as Node | undefined;
    const alias = (aliased?.['alias'] as Node | undefined)?.['value'];
    if (typeof alias === 'string' && alias.startsWith('@')) record(alias, aliased!['expr']);
  }
  const into = select['into'] as Node | undefined;
  if (into !== undefined) {
    for (const name of nameParts(into['name'])) if (name.startsWith('@')) record(name, projection);
  }
}

/** `MERGE … ON (1 = 1) WHEN MATCHED THEN DELETE`: every row of the target matches, and goes. */
function judgeMerge(merge: Node): StatementJudgement | undefined {
  if (!isTautology(merge['on'])) return undefined;
  const clauses = (merge['clauses'] as Node[] | undefined) ?? [];
  const verb = clauses.some(
    (c) => typeof c['action'] === 'object' && c['action'] !== null && 'Delete' in (c['action'] as Node),
  )
    ? 'DELETE'
    : clauses.some(
          (c) => typeof c['action'] === 'object' && c['action'] !== null && 'Update' in (c['action'] as Node),
        )
      ? 'UPDATE'
      : undefined;
  return verb === undefined
    ? undefined
    : {
        code: 'DEST_MUTATION',
        message: `MERGE … WHEN MATCHED THEN ${verb} with an always-true ON condition`,
      };
}

/** The string literals anywhere in an expression tree, for judging SQL built around them. */
function literalsOf(expr: unknown, out: string[] = [], depth = 0): string[] {
  if (depth > 64 || out.length > 64 || typeof expr !== 'object' || expr === null) return out;
  const v = value(expr);
  if (typeof v === 'string') {
    out.push(v);
    return out;
  }
  for (const key in expr as Node) literalsOf((expr as Node)[key], out, depth + 1);
  return out;
}

function judgeExecute(exec: Node, ctx: SqlContext): StatementJudgement | undefined {
  const params = (exec['parameters'] as Node[] | undefined) ?? [];
  const name = nameParts(exec['name']);
  if (name.length === 0) {
    const verb = exec['immediate'] ? 'EXECUTE IMMEDIATE ' : 'EXEC';
    return resolveAndJudge(
      params[0],
      (text) => (exec['immediate'] ? `${verb}${text}` : `${verb}(${text})`),
      ctx,
    );
  }
  let proc = name[name.length - 1]!.toLowerCase();
  if (name.length === 1 && proc.startsWith('@')) {
    const known = variableText(ctx, proc);
    if ('unresolved' in known) return opaque(`EXEC ${proc} (the procedure's name: ${known.unresolved})`);
    proc = known.text
      .split('.')
      .pop()!
      .toLowerCase()
      .replace(/^\[|\]$/g, '');
  }
  const parameter = DYNAMIC_SQL_PROCEDURES.get(proc);
  if (parameter !== undefined) {
    let stmt: unknown = params[0];
    for (const param of params) {
      const b = param['BinaryOp'] as Node | undefined;
      if (b?.['op'] === 'Eq' && columnOf(b['left']) === parameter) stmt = b['right'];
    }
    const b = (stmt as Node | undefined)?.['BinaryOp'] as Node | undefined;
    if (b?.['op'] === 'Eq' && columnOf(b['left'])?.startsWith('@')) stmt = b['right'];
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
    const first = value(params[0]);
    return serverFileJudgement(
      `EXEC ${proc}`,
      typeof first === 'string' ? first : undefined,
      proc === 'xp_cmdshell' || proc.startsWith('sp_oa'),
    );
  }
  return undefined;
}

function assign(name: string, expr: unknown, ctx: SqlContext): void {
  if (expr === undefined) {
    declareVariable(ctx, name.toLowerCase());
    return;
  }
  const resolved = resolve(expr, ctx);
  assignVariable(ctx, name.toLowerCase(), 'text' in resolved ? resolved.text : undefined);
}

function judgeDeclare(declare: Node, ctx: SqlContext): void {
  for (const stmt of (declare['stmts'] as Node[] | undefined) ?? []) {
    const assignment = stmt['assignment'] as Node | undefined;
    const expr = assignment === undefined ? undefined : Object.values(assignment)[0];
    for (const name of (stmt['names'] as Node[] | undefined) ?? []) assign(String(name['value']), expr, ctx);
  }
}

function judgeSet(set: Node, ctx: SqlContext): void {
  const single = set['SingleAssignment'] as Node | undefined;
  if (single === undefined) return;
  const names = nameParts(single['variable']);
  const values = (single['values'] as unknown[] | undefined) ?? [];
  if (names.length === 1) assign(names[0]!, values[0], ctx);
}

function tableOf(twj: unknown): string[] {
  return nameParts(
    (((twj as Node | undefined)?.['relation'] as Node | undefined)?.['Table'] as Node | undefined)?.['name'],
  );
}

function judgeDml(kind: 'DELETE' | 'UPDATE', body: Node, ctx: SqlContext): StatementJudgement | undefined {
  let target: string[] = [];
  if (kind === 'UPDATE') target = tableOf(body['table']);
  else {
    const from = body['from'] as Node | undefined;
    const list = from === undefined ? [] : (Object.values(from)[0] as unknown[]);
    target = tableOf(list[0]);
  }
  if (target.length > 0 && (isSessionLocalName(target, ctx.tempTables) || target[0]!.startsWith('@')))
    return undefined;
  const where = body['selection'];
  if (where === undefined || where === null)
    return { code: 'DEST_MUTATION', message: `${kind} without a WHERE clause` };
  if (isTautology(where) || selectsEveryKey(where, target))
    return { code: 'DEST_MUTATION', message: `${kind} with an always-true WHERE clause` };
  return undefined;
}

/** `WHERE rowid IN (SELECT rowid FROM <the same table>)` with nothing narrowing the sub-query. */
function selectsEveryKey(where: unknown, target: string[]): boolean {
  const n = where as Node | undefined;
  if (n === undefined || n === null || typeof n !== 'object') return false;
  if ('Nested' in n) return selectsEveryKey(n['Nested'], target);
  const sub = n['InSubquery'] as Node | undefined;
  if (sub === undefined || sub['negated'] || target.length === 0) return false;
  const column = columnOf(sub['expr']);
  const select = ((sub['subquery'] as Node | undefined)?.['body'] as Node | undefined)?.['Select'] as
    | Node
    | undefined;
  if (column === undefined || select === undefined || select['selection'] != null) return false;
  const projection = (select['projection'] as Node[] | undefined) ?? [];
  const from = (select['from'] as Node[] | undefined) ?? [];
  const picked =
    projection.length === 1
      ? columnOf((projection[0]!['UnnamedExpr'] as Node | undefined) ?? null)
      : undefined;
  const table =
    from.length === 1 && ((from[0]!['joins'] as unknown[] | undefined) ?? []).length === 0
      ? tableOf(from[0])
      : [];
  return picked === column && table.join('.').toLowerCase() === target.join('.').toLowerCase();
}

function judgeDrop(drop: Node, ctx: SqlContext): StatementJudgement | undefined {
  const type = String(drop['object_type'] ?? '');
  const names = ((drop['names'] as unknown[] | undefined) ?? []).map(nameParts);
  if (
    type === 'Table' &&
    names.length > 0 &&
    (drop['temporary'] || names.every((n) => isSessionLocalName(n, ctx.tempTables)))
  ) {
    return undefined;
  }
  const what = dropMessage(type.replace(/([a-z])([A-Z])/g, '$1 $2').toUpperCase(), names);
  return { code: DESTRUCTIVE_DROP.has(type) ? 'DEST_MUTATION' : 'POLICY_VIOLATION', message: what };
}

/** A function call, or a table-valued one in FROM (`OPENQUERY(…)`, `readfile(…)`). */
function judgeFunction(fn: Node): StatementJudgement | undefined {
  const parts = nameParts(fn['name']);
  const name = (parts[parts.length - 1] ?? '').toLowerCase();
  if (!SERVER_FILE_FUNCTIONS.has(name)) return undefined;
  const index = SERVER_FILE_FUNCTIONS.get(name);
  const list = fn['args'] as Node | undefined;
  const args = ((list?.['List'] as Node | undefined)?.['args'] ?? list?.['args'] ?? []) as Node[];
  const arg = index === undefined ? undefined : (args[index]?.['Unnamed'] as Node | undefined)?.['Expr'];
  const path = value(arg);
  return serverFileJudgement(
    `${name}()`,
    typeof path === 'string' ? path : undefined,
    name === 'sys_exec' || name === 'sys_eval',
  );
}

function judgeCopy(copy: Node): StatementJudgement | undefined {
  const target = copy['target'] as Node | undefined;
  if (target === undefined || typeof target !== 'object') return undefined;
  const program = target['Program'] as Node | undefined;
  if (program !== undefined)
    return serverFileJudgement('COPY … PROGRAM', String(program['command'] ?? ''), true);
  const file = target['File'] as Node | undefined;
  if (file !== undefined)
    return serverFileJudgement(`COPY … ${copy['to'] ? 'TO' : 'FROM'} a file`, String(file['filename'] ?? ''));
  return undefined;
}

function judgeTableCreation(create: Node, ctx: SqlContext): StatementJudgement | undefined {
  const name = nameParts(create['name']);
  if (create['temporary'] || (name.length > 0 && isSessionLocalName(name, new Set()))) {
    if (name.length === 1) ctx.tempTables.add(name[0]!.toLowerCase());
    return undefined;
  }
  return { code: 'POLICY_VIOLATION', message: 'schema or privilege change (CREATE TABLE)' };
}

const POLICY_KEYS = new Set([
  'Grant',
  'Revoke',
  'Deny',
  'RenameTable',
  'Comment',
  'Install',
  'Load',
  'LoadData',
]);

/** A statement-level key (a statement variant) other than the ones judged by content. */
function policyFor(key: string, body: Node): StatementJudgement | undefined {
  // Tables are judged by judgeTableCreation; temporary views and sequences are session-local.
  if (key === 'CreateTable' || body['temporary'] === true) return undefined;
  if (
    key.startsWith('Create') ||
    key.startsWith('Alter') ||
    POLICY_KEYS.has(key) ||
    (key.startsWith('Drop') && key !== 'Drop')
  ) {
    const what = key.replace(/([a-z])([A-Z])/g, '$1 $2').toUpperCase();
    return { code: 'POLICY_VIOLATION', message: `schema or privilege change (${what})` };
  }
  return undefined;
}

/** The worst thing anywhere in a statement tree; statements nested in blocks are judged as statements. */
function walk(node: unknown, ctx: SqlContext, statement: boolean, depth = 0): StatementJudgement | undefined {
  if (depth > 300 || typeof node !== 'object' || node === null) return undefined;
  let found: StatementJudgement | undefined;
  if (Array.isArray(node)) {
    for (const item of node) found = worst(found, walk(item, ctx, statement, depth + 1));
    return found;
  }
  const n = node as Node;
  for (const key in n) {
    const v = n[key];
    if (typeof v !== 'object' || v === null) continue;
    const body = v as Node;
    if (key === 'Select' && 'projection' in body) rememberSelectedVariables(body, ctx);
    // A plain EXPLAIN plans the statement without running it; EXPLAIN ANALYZE runs it.
    if (key === 'Explain' && 'statement' in body && body['analyze'] === false) continue;
    if (key === 'Merge' && 'clauses' in body) found = worst(found, judgeMerge(body));
    if (statement) found = worst(found, policyFor(key, body));
    if (key === 'Drop' && 'object_type' in body) found = worst(found, judgeDrop(body, ctx));
    else if (key === 'Truncate' && 'table_names' in body) {
      const names = ((body['table_names'] as Node[] | undefined) ?? []).map((t) => nameParts(t['name']));
      if (!names.every((name) => isSessionLocalName(name, ctx.tempTables)))
        found = worst(found, { code: 'DEST_MUTATION', message: 'TRUNCATE' });
    } else if (key === 'Delete' && 'from' in body) found = worst(found, judgeDml('DELETE', body, ctx));
    else if (key === 'Update' && 'table' in body && 'assignments' in body)
      found = worst(found, judgeDml('UPDATE', body, ctx));
    else if ((key === 'Function' || key === 'Table') && 'name' in body && body['args'] != null) {
      found = worst(found, judgeFunction(body));
    } else if (key === 'Execute' && 'parameters' in body) found = worst(found, judgeExecute(body, ctx));
    else if (key === 'Declare' && 'stmts' in body) judgeDeclare(body, ctx);
    else if (key === 'Set' && statement) judgeSet(body, ctx);
    else if (key === 'CreateTable' && 'columns' in body) found = worst(found, judgeTableCreation(body, ctx));
    else if (key === 'into' && 'name' in body && !nameParts(body['name']).every((p) => p.startsWith('@'))) {
      // MySQL's `SELECT … INTO @var` sets a variable; any other INTO creates a table.
      const local = judgeTableCreation(body, ctx);
      if (local) found = worst(found, { code: 'POLICY_VIOLATION', message: 'SELECT INTO creates a table' });
    } else if (key === 'Copy' && 'target' in body) found = worst(found, judgeCopy(body));
    else if (key === 'AttachDatabase') {
      const file = value(body['database_file_name']);
      if (file !== ':memory:' && file !== '') {
        found = worst(
          found,
          serverFileJudgement('ATTACH', typeof file === 'string' ? sqliteFilePath(file) : undefined),
        );
      }
    }
    const nestedStatements =
      key === 'statements' || key === 'Sequence' || key === 'BeginEnd' || key === 'body';
    found = worst(
      found,
      walk(v, ctx, nestedStatements || (statement && (key === 'If' || key === 'While')), depth + 1),
    );
  }
  return found;
}

/** Judgement of each statement of a batch by sqlparser-rs, or undefined when it rejects the batch. */
export function judgeWithSqlparser(
  sql: string,
  dialect: Exclude<SqlDialect, 'postgres'>,
  ctx: SqlContext,
): (StatementJudgement | undefined)[] | undefined {
  let statements: unknown[];
  try {
    statements = parse(sql, PARSER_DIALECT[dialect] as never) as unknown[];
  } catch {
    return undefined;
  }
  return statements.map((stmt) => walk(typeof stmt === 'object' ? stmt : {}, ctx, true));
}
