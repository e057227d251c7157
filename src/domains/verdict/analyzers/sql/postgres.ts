import { loadModule, parsePlPgSQLSync, parseSync } from 'libpg-query';
import { lookupTable } from '../../../../lib/lookup-table.ts';
import {
  dropMessage,
  dynamicJudgement,
  isSessionLocalName,
  NOT_CONST,
  opaque,
  quoteForMessage,
  SERVER_FILE_FUNCTIONS,
  SQL_RUNNING_FUNCTIONS,
  type SqlContext,
  type StatementJudgement,
  serverFileJudgement,
  worst,
} from './judgement.ts';
import { constValue, isTautology, type Node, sameColumn } from './postgres-values.ts';

// libpg-query is the PostgreSQL grammar itself compiled to WASM, PL/pgSQL included. Loading the
// WASM module is asynchronous, parsing afterwards is synchronous.
await loadModule();

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
  'LoadStmt',
]);

function isPolicyStatement(kind: string): boolean {
  return POLICY_STATEMENTS.has(kind) || kind.startsWith('Create') || kind.startsWith('Alter');
}

function rangeVarName(node: unknown): string[] {
  const rv = node as Node | undefined;
  if (rv === undefined) return [];
  const parts = [rv['schemaname'], rv['relname']].filter((p): p is string => typeof p === 'string');
  return parts;
}

function isLocal(node: unknown, ctx: SqlContext): boolean {
  const rv = node as Node | undefined;
  if (rv?.['relpersistence'] === 't') return true;
  const name = rangeVarName(rv);
  return name.length > 0 && isSessionLocalName(name, ctx.tempTables);
}

function judgeDml(kind: 'DELETE' | 'UPDATE', body: Node, ctx: SqlContext): StatementJudgement | undefined {
  if (isLocal(body['relation'], ctx)) return undefined;
  const where = body['whereClause'];
  if (where === undefined) return { code: 'DEST_MUTATION', message: `${kind} without a WHERE clause` };
  if (isTautology(where) || selectsEveryKey(where, rangeVarName(body['relation'])))
    return { code: 'DEST_MUTATION', message: `${kind} with an always-true WHERE clause` };
  return undefined;
}

/** `WHERE id IN (SELECT id FROM <the same table>)` with nothing narrowing the sub-query. */
function selectsEveryKey(where: unknown, target: string[]): boolean {
  const link = (where as Node | undefined)?.['SubLink'] as Node | undefined;
  if (link === undefined || link['subLinkType'] !== 'ANY_SUBLINK' || target.length === 0) return false;
  const select = (link['subselect'] as Node | undefined)?.['SelectStmt'] as Node | undefined;
  if (select === undefined || select['whereClause'] !== undefined) return false;
  const targets = (select['targetList'] as Node[] | undefined) ?? [];
  const from = (select['fromClause'] as Node[] | undefined) ?? [];
  const picked = (targets[0]?.['ResTarget'] as Node | undefined)?.['val'];
  return (
    targets.length === 1 &&
    from.length === 1 &&
    sameColumn(link['testexpr'], picked) &&
    rangeVarName(from[0]?.['RangeVar']).join('.').toLowerCase() === target.join('.').toLowerCase()
  );
}

/** EXPLAIN runs the statement only with ANALYZE. */
function explainRuns(explain: Node): boolean {
  return ((explain['options'] as Node[] | undefined) ?? []).some((o) => {
    const def = o['DefElem'] as Node | undefined;
    if (String(def?.['defname']).toLowerCase() !== 'analyze') return false;
    const arg = defString(def);
    return arg === undefined || !/^(?:false|off|0)$/i.test(arg);
  });
}

/** `MERGE … ON true WHEN MATCHED THEN DELETE`: every row of the target matches, and goes. */
function judgeMerge(merge: Node): StatementJudgement | undefined {
  if (!isTautology(merge['joinCondition'])) return undefined;
  const kinds = ((merge['mergeWhenClauses'] as Node[] | undefined) ?? []).map((c) =>
    String((c['MergeWhenClause'] as Node | undefined)?.['commandType'] ?? ''),
  );
  const verb = kinds.includes('CMD_DELETE') ? 'DELETE' : kinds.includes('CMD_UPDATE') ? 'UPDATE' : undefined;
  return verb === undefined
    ? undefined
    : {
        code: 'DEST_MUTATION',
        message: `MERGE … WHEN MATCHED THEN ${verb} with an always-true ON condition`,
      };
}

function judgeDrop(drop: Node, ctx: SqlContext): StatementJudgement | undefined {
  const type = String(drop['removeType'] ?? 'OBJECT');
  const objects = (drop['objects'] as Node[] | undefined) ?? [];
  const names = objects.map((o) =>
    (((o['List'] as Node | undefined)?.['items'] as Node[] | undefined) ?? []).map((item) =>
      String((item['String'] as Node | undefined)?.['sval'] ?? ''),
    ),
  );
  if (
    type === 'OBJECT_TABLE' &&
    names.length > 0 &&
    names.every((name) => isSessionLocalName(name, ctx.tempTables))
  ) {
    return undefined;
  }
  const kind = type.replace('OBJECT_', '').replaceAll('_', ' ');
  return {
    code: DESTRUCTIVE_DROP.has(type) ? 'DEST_MUTATION' : 'POLICY_VIOLATION',
    message: dropMessage(kind, names),
  };
}

function funcName(call: Node): string {
  const names = (call['funcname'] as Node[] | undefined) ?? [];
  const last = names[names.length - 1];
  return String((last?.['String'] as Node | undefined)?.['sval'] ?? '').toLowerCase();
}

function judgeFuncCall(call: Node, ctx: SqlContext): StatementJudgement | undefined {
  const name = funcName(call);
  const sqlArgument = SQL_RUNNING_FUNCTIONS.get(name);
  if (sqlArgument !== undefined) {
    const args = (call['args'] as unknown[] | undefined) ?? [];
    // dblink takes the SQL last (after an optional connection); query_to_xml first.
    const text = constValue(args[sqlArgument < 0 ? args.length - 1 : sqlArgument]);
    if (typeof text !== 'string') return opaque(`${name}() of a query that is not a literal`);

    return ctx.nested(text, `after resolving ${name}(${quoteForMessage(text)})`);
  }
  if (!SERVER_FILE_FUNCTIONS.has(name)) return undefined;
  const index = SERVER_FILE_FUNCTIONS.get(name);
  const args = (call['args'] as unknown[] | undefined) ?? [];
  const value = index === undefined ? NOT_CONST : constValue(args[index]);
  return serverFileJudgement(`${name}()`, typeof value === 'string' ? value : undefined);
}

function judgeCopy(copy: Node): StatementJudgement | undefined {
  const filename = typeof copy['filename'] === 'string' ? copy['filename'] : undefined;
  if (copy['is_program']) return serverFileJudgement('COPY … PROGRAM', filename, true);
  if (filename !== undefined)
    return serverFileJudgement(`COPY … ${copy['is_from'] ? 'FROM' : 'TO'} a file`, filename);
  return undefined;
}

/** The worst thing anywhere in a statement tree (CTEs, EXPLAIN, PREPARE, expressions). */
function walk(node: unknown, ctx: SqlContext, depth = 0): StatementJudgement | undefined {
  if (depth > 200 || typeof node !== 'object' || node === null) return undefined;
  let found: StatementJudgement | undefined;
  if (Array.isArray(node)) {
    for (const item of node) found = worst(found, walk(item, ctx, depth + 1));
    return found;
  }
  const n = node as Node;
  // for…in, not Object.entries: the walk visits every node of the tree, and an entries array per
  // node was most of its cost. Parsed JSON has no inherited enumerable keys.
  for (const key in n) {
    const value = n[key];
    if (typeof value !== 'object' || value === null) continue;
    if (key === 'ExplainStmt' && !explainRuns(value as Node)) continue;
    if (key === 'MergeStmt') found = worst(found, judgeMerge(value as Node));
    if (key === 'DeleteStmt' || key === 'UpdateStmt') {
      found = worst(found, judgeDml(key === 'DeleteStmt' ? 'DELETE' : 'UPDATE', value as Node, ctx));
    } else if (key === 'TruncateStmt') {
      const relations = ((value as Node)['relations'] as Node[] | undefined) ?? [];
      if (!relations.every((r) => isLocal(r['RangeVar'], ctx)))
        found = worst(found, { code: 'DEST_MUTATION', message: 'TRUNCATE' });
    } else if (key === 'DropdbStmt') {
      found = worst(found, { code: 'DEST_MUTATION', message: 'DROP DATABASE' });
    } else if (key === 'DropStmt') {
      found = worst(found, judgeDrop(value as Node, ctx));
    } else if (key === 'FuncCall') {
      found = worst(found, judgeFuncCall(value as Node, ctx));
    } else if (key === 'CopyStmt') {
      found = worst(found, judgeCopy(value as Node));
    }
    found = worst(found, walk(value, ctx, depth + 1));
  }
  return found;
}

function defElems(list: unknown): Map<string, Node> {
  const out = new Map<string, Node>();
  for (const item of (list as Node[] | undefined) ?? []) {
    const def = item['DefElem'] as Node | undefined;
    if (def !== undefined) out.set(String(def['defname']), def);
  }
  return out;
}

function defString(def: Node | undefined): string | undefined {
  const arg = def?.['arg'] as Node | undefined;
  const s = (arg?.['String'] as Node | undefined)?.['sval'];
  if (typeof s === 'string') return s;
  const items = (arg?.['List'] as Node | undefined)?.['items'] as Node[] | undefined;
  const first = (items?.[0]?.['String'] as Node | undefined)?.['sval'];
  return typeof first === 'string' ? first : undefined;
}

// ------------------------------------------------------------------ PL/pgSQL bodies

type Datum = { refname?: string; default?: string };

function exprQuery(expr: unknown): string | undefined {
  const q = ((expr as Node | undefined)?.['PLpgSQL_expr'] as Node | undefined)?.['query'];
  return typeof q === 'string' ? q : undefined;
}

/** The text a PL/pgSQL expression evaluates to when it is made of literals (and unassigned constants). */
function resolvePlExpression(query: string, datums: Map<string, string>): string | undefined {
  const parsed = tryParse(`SELECT ${query}`);
  const target = (
    ((parsed?.[0]?.['SelectStmt'] as Node | undefined)?.['targetList'] as Node[] | undefined)?.[0]?.[
      'ResTarget'
    ] as Node | undefined
  )?.['val'];
  const value = constValue(target);
  if (typeof value === 'string') return value;
  const ref = (target as Node | undefined)?.['ColumnRef'] as Node | undefined;
  const fields = (ref?.['fields'] as Node[] | undefined) ?? [];
  if (fields.length === 1)
    return datums.get(String((fields[0]?.['String'] as Node | undefined)?.['sval'] ?? ''));
  return undefined;
}

/** String literals of a PL/pgSQL expression (`format('TRUNCATE %I', r.name)` gives the format). */
function plLiterals(query: string): string[] {
  const out: string[] = [];
  JSON.stringify(tryParse(`SELECT ${query}`) ?? [], (key, value) => {
    if (
      key === 'sval' &&
      typeof value === 'object' &&
      value !== null &&
      typeof (value as Node)['sval'] === 'string'
    )
      out.push(String((value as Node)['sval']));
    return value;
  });
  return out;
}

function judgeDynamic(
  query: string | undefined,
  datums: Map<string, string>,
  ctx: SqlContext,
): StatementJudgement | undefined {
  if (query === undefined) return undefined;
  const text = resolvePlExpression(query, datums);
  if (text === undefined) return dynamicJudgement(`EXECUTE ${query.trim()}`, plLiterals(query));
  return ctx.nested(text, `after resolving EXECUTE ${quoteForMessage(text)}`);
}

const DYNAMIC_STATEMENTS: Record<string, string> = lookupTable({
  PLpgSQL_stmt_dynexecute: 'query',
  PLpgSQL_stmt_dynfors: 'query',
  PLpgSQL_stmt_open: 'dynquery',
  PLpgSQL_stmt_return_query: 'dynquery',
});

function walkPl(
  node: unknown,
  datums: Map<string, string>,
  ctx: SqlContext,
  depth = 0,
): StatementJudgement | undefined {
  if (depth > 200 || typeof node !== 'object' || node === null) return undefined;
  let found: StatementJudgement | undefined;
  if (Array.isArray(node)) {
    for (const item of node) found = worst(found, walkPl(item, datums, ctx, depth + 1));
    return found;
  }
  const n = node as Node;
  for (const key in n) {
    const value = n[key];
    if (typeof value !== 'object' || value === null) continue;
    const dynamicField = DYNAMIC_STATEMENTS[key];
    if (dynamicField !== undefined) {
      const v = value as Node;
      found = worst(found, judgeDynamic(exprQuery(v[dynamicField]), datums, ctx));
      for (const field in v)
        if (field !== dynamicField) found = worst(found, walkPl(v[field], datums, ctx, depth + 1));
      continue;
    }
    if (key === 'PLpgSQL_expr') {
      const expr = value as Node;
      const query = String(expr['query'] ?? '');
      if (expr['parseMode'] === 0 || expr['parseMode'] === undefined) {
        found = worst(found, ctx.nested(query, 'in the code block'));
      } else if (query.includes('(')) {
        found = worst(found, ctx.nested(`SELECT ${query}`, 'in the code block'));
      }
      continue;
    }
    found = worst(found, walkPl(value, datums, ctx, depth + 1));
  }
  return found;
}

/** Constants: variables declared with a literal default and never assigned in the body. */
function constantDatums(fn: Node): Map<string, string> {
  const datums = ((fn['datums'] as Node[] | undefined) ?? []).map((d) => {
    const v = d['PLpgSQL_var'] as Node | undefined;
    return { refname: v?.['refname'], default: exprQuery(v?.['default_val']) } as Datum;
  });
  const assigned = new Set<number>();
  JSON.stringify(fn['action'], (key, value) => {
    if (key === 'PLpgSQL_stmt_assign') assigned.add(Number((value as Node)['varno']));
    return value;
  });
  const out = new Map<string, string>();
  datums.forEach((d, index) => {
    if (d.refname === undefined || d.default === undefined || assigned.has(index)) return;
    const value = constValue(
      (
        (
          (tryParse(`SELECT ${d.default}`)?.[0]?.['SelectStmt'] as Node | undefined)?.['targetList'] as
            | Node[]
            | undefined
        )?.[0]?.['ResTarget'] as Node | undefined
      )?.['val'],
    );
    if (typeof value === 'string') out.set(d.refname, value);
  });
  return out;
}

function judgePlpgsql(text: string, ctx: SqlContext): StatementJudgement | undefined {
  let parsed: { plpgsql_funcs?: Node[] };
  try {
    parsed = parsePlPgSQLSync(text) as unknown as { plpgsql_funcs?: Node[] };
  } catch {
    return opaque('a PL/pgSQL body that does not parse');
  }
  let found: StatementJudgement | undefined;
  for (const entry of parsed.plpgsql_funcs ?? []) {
    const fn = entry['PLpgSQL_function'] as Node | undefined;
    if (fn === undefined) continue;
    found = worst(found, walkPl(fn['action'], constantDatums(fn), ctx));
  }
  return found;
}

function judgeBody(kind: string, language: string, body: string | undefined, text: string, ctx: SqlContext) {
  if (language === 'plpgsql') return judgePlpgsql(text, ctx);
  if (language === 'sql' && body !== undefined) return ctx.nested(body, `in the body of ${kind}`);
  // plpython3u, plperlu, plv8…: code this analyzer cannot read, run inside the server.
  if (kind === 'DO') return opaque(`a DO block in ${language}`);
  return undefined;
}

// ------------------------------------------------------------------ statements

function judgeStatement(stmt: Node, text: string, ctx: SqlContext): StatementJudgement | undefined {
  const kind = Object.keys(stmt)[0] ?? '';
  const body = stmt[kind] as Node;
  if (kind === 'CreateStmt' && isLocal(body['relation'], ctx)) {
    ctx.tempTables.add(String((body['relation'] as Node)['relname']).toLowerCase());
    return undefined;
  }
  let found = walk(stmt, ctx);
  if (kind === 'CreateTableAsStmt') {
    const rel = (body['into'] as Node | undefined)?.['rel'];
    if (isLocal(rel, ctx)) {
      ctx.tempTables.add(String((rel as Node)['relname']).toLowerCase());
      return found;
    }
  }
  // Temporary views and sequences are session-local DDL.
  const relation =
    kind === 'ViewStmt' ? body['view'] : kind === 'CreateSeqStmt' ? body['sequence'] : undefined;
  if (relation !== undefined && (relation as Node)['relpersistence'] === 't') return found;
  if (kind === 'DoStmt') {
    const args = defElems(body['args']);
    const language = (defString(args.get('language')) ?? 'plpgsql').toLowerCase();
    found = worst(found, judgeBody('DO', language, defString(args.get('as')), text, ctx));
  } else if (kind === 'CreateFunctionStmt') {
    const options = defElems(body['options']);
    const language = (defString(options.get('language')) ?? 'sql').toLowerCase();
    const what = body['is_procedure'] ? 'CREATE PROCEDURE' : 'CREATE FUNCTION';
    found = worst(found, judgeBody(what, language, defString(options.get('as')), text, ctx));
  }
  if (kind === 'SelectStmt') {
    const into = (body['intoClause'] as Node | undefined)?.['rel'];
    if (into !== undefined && !isLocal(into, ctx)) {
      found = worst(found, { code: 'POLICY_VIOLATION', message: 'SELECT INTO creates a table' });
    } else if (into !== undefined) {
      ctx.tempTables.add(String((into as Node)['relname']).toLowerCase());
    }
  }
  if (isPolicyStatement(kind)) {
    found = worst(found, {
      code: 'POLICY_VIOLATION',
      message: `schema or privilege change (${describeKind(kind)})`,
    });
  }
  return found;
}

function describeKind(kind: string): string {
  return kind
    .replace(/Stmt$/, '')
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toUpperCase();
}

function tryParse(sql: string): Node[] | undefined {
  try {
    const result = parseSync(sql) as unknown as { stmts?: { stmt: Node }[] };
    return (result.stmts ?? []).map((entry) => entry.stmt);
  } catch {
    return undefined;
  }
}

interface ParsedBatch {
  stmts?: { stmt: Node; stmt_location?: number; stmt_len?: number }[];
}

/** Rewrites MySQL back-ticks and T-SQL brackets as standard quoted identifiers. */
function standardiseIdentifiers(sql: string): string {
  return sql.replace(/`([^`\n]*)`/g, '"$1"').replace(/\[([A-Za-z_][\w ]*)\]/g, '"$1"');
}

/**
 * Judgement of each statement of a batch by the PostgreSQL grammar, or undefined when the
 * grammar rejects the batch. With `lenient`, back-ticks and brackets are read as quotes first.
 */
export function judgeWithPostgres(
  sql: string,
  ctx: SqlContext,
  lenient: boolean,
): (StatementJudgement | undefined)[] | undefined {
  let text = sql;
  let parsed: ParsedBatch;
  try {
    parsed = parseSync(text) as unknown as ParsedBatch;
  } catch {
    if (!lenient || !/[`[]/.test(sql)) return undefined;
    text = standardiseIdentifiers(sql);
    try {
      parsed = parseSync(text) as unknown as ParsedBatch;
    } catch {
      return undefined;
    }
  }
  const entries = parsed.stmts ?? [];
  let bytes: Buffer | undefined;
  return entries.map((entry) => {
    const kind = Object.keys(entry.stmt)[0];
    let statementText = text;
    if ((kind === 'DoStmt' || kind === 'CreateFunctionStmt') && entries.length > 1) {
      // Locations count UTF-8 bytes.
      bytes ??= Buffer.from(text, 'utf8');
      const start = entry.stmt_location ?? 0;
      const end = entry.stmt_len ? start + entry.stmt_len : bytes.length;
      statementText = bytes.subarray(start, end).toString('utf8');
    }
    return judgeStatement(entry.stmt, statementText, ctx);
  });
}
