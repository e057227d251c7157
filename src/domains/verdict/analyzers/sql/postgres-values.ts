import { type Const, compare, NOT_CONST } from './judgement.ts';

/**
 * Constant values and conditions that narrow nothing, read from libpg-query's PostgreSQL
 * parse tree.
 */

export type Node = Record<string, unknown>;

/** Value of an expression made only of literals, or NOT_CONST. */
export function constValue(node: unknown): Const | typeof NOT_CONST {
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
  if ('FuncCall' in n) return callValue(n['FuncCall'] as Node);
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

/**
 * `format('DROP SCHEMA %I CASCADE', 'billing')`, `quote_ident('t')`, `concat(…)` of literals: the
 * text PostgreSQL computes, so dynamic SQL built with them is judged as what it runs.
 */
function callValue(call: Node): Const | typeof NOT_CONST {
  const names = (call['funcname'] as Node[] | undefined) ?? [];
  const name = String(
    (names[names.length - 1]?.['String'] as Node | undefined)?.['sval'] ?? '',
  ).toLowerCase();
  const values = ((call['args'] as unknown[] | undefined) ?? []).map(constValue);
  if (values.length === 0 || values.length > 64) return NOT_CONST;
  const args: Const[] = [];
  for (const v of values) {
    if (v === NOT_CONST) return NOT_CONST;
    args.push(v);
  }
  const text = (v: Const) => (v === null ? '' : String(v));
  switch (name) {
    case 'quote_ident':
    case 'quote_literal':
    case 'quote_nullable':
    case 'lower':
    case 'upper':
    case 'btrim':
    case 'trim':
      return name === 'lower'
        ? text(args[0]!).toLowerCase()
        : name === 'upper'
          ? text(args[0]!).toUpperCase()
          : text(args[0]!);
    case 'concat':
      return args.map(text).join('');
    case 'concat_ws':
      return args.slice(1).map(text).join(text(args[0]!));
    case 'chr':
      return typeof args[0] === 'number' ? String.fromCodePoint(args[0]) : NOT_CONST;
    case 'format': {
      let next = 1;
      const out = text(args[0]!).replace(
        /%(?:(\d+)\$)?([sIL%])/g,
        (_m, position: string | undefined, kind: string) => {
          if (kind === '%') return '%';
          const value = args[position === undefined ? next++ : Number(position)];
          return value === undefined ? '' : text(value);
        },
      );
      return out;
    }
    default:
      return NOT_CONST;
  }
}

function operatorName(expr: Node): string {
  const names = expr['name'] as Node[] | undefined;
  const last = names?.[names.length - 1] as Node | undefined;
  return String((last?.['String'] as Node | undefined)?.['sval'] ?? '');
}

export function sameColumn(a: unknown, b: unknown): boolean {
  const left = (a as Node | undefined)?.['ColumnRef'];
  const right = (b as Node | undefined)?.['ColumnRef'];
  if (left === undefined || right === undefined) return false;
  return JSON.stringify((left as Node)['fields']) === JSON.stringify((right as Node)['fields']);
}

/** `x IS NULL OR x IS NOT NULL`: between them, every row. */
function complementaryNullTests(args: unknown[]): boolean {
  const tests = args
    .map((a) => (a as Node | undefined)?.['NullTest'] as Node | undefined)
    .filter((t): t is Node => t !== undefined);
  return tests.some(
    (a) =>
      a['nulltesttype'] === 'IS_NULL' &&
      tests.some((b) => b['nulltesttype'] === 'IS_NOT_NULL' && sameColumn(a['arg'], b['arg'])),
  );
}

/** True when the condition holds for every row (or every row but NULLs): it narrows nothing. */
export function isTautology(node: unknown): boolean {
  if (typeof node !== 'object' || node === null) return false;
  const n = node as Node;
  if ('BoolExpr' in n) {
    const b = n['BoolExpr'] as Node;
    const args = (b['args'] as unknown[] | undefined) ?? [];
    if (b['boolop'] === 'OR_EXPR') return args.some(isTautology) || complementaryNullTests(args);
    if (b['boolop'] === 'AND_EXPR') return args.length > 0 && args.every(isTautology);
    if (b['boolop'] === 'NOT_EXPR') return constValue(args[0]) === false;
    return false;
  }
  if ('A_Expr' in n) {
    const e = n['A_Expr'] as Node;
    const op = operatorName(e);
    // `1 IN (1, 2)`: a constant found in a list of constants.
    if (e['kind'] === 'AEXPR_IN' && op === '=') {
      const needle = constValue(e['lexpr']);
      const items =
        (((e['rexpr'] as Node | undefined)?.['List'] as Node | undefined)?.['items'] as
          | unknown[]
          | undefined) ?? [];
      if (
        needle !== NOT_CONST &&
        needle !== null &&
        items.map(constValue).some((v) => v !== NOT_CONST && v !== null && String(v) === String(needle))
      )
        return true;
    }
    // `x LIKE '%'` holds for every row but NULLs.
    if ((e['kind'] === 'AEXPR_LIKE' || e['kind'] === 'AEXPR_ILIKE') && (op === '~~' || op === '~~*')) {
      const pattern = constValue(e['rexpr']);
      if (typeof pattern === 'string' && /^%+$/.test(pattern)) return true;
    }
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
