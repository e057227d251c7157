import { lookupTable } from '../../../../lib/lookup-table.ts';
import { type Const, compare, NOT_CONST } from './judgement.ts';

/**
 * Constant values and conditions that narrow nothing, read from sqlparser-rs's parse tree.
 */

export type Node = Record<string, unknown>;

const STRING_VALUES = [
  'SingleQuotedString',
  'NationalStringLiteral',
  'DoubleQuotedString',
  'EscapedStringLiteral',
  'TripleSingleQuotedString',
  'TripleDoubleQuotedString',
  'DollarQuotedString',
  'UnicodeStringLiteral',
];

export function nameParts(name: unknown): string[] {
  if (!Array.isArray(name)) return [];
  return name.map((part) => String(((part as Node)['Identifier'] as Node | undefined)?.['value'] ?? ''));
}

export function value(expr: unknown): Const | typeof NOT_CONST {
  const n = expr as Node | undefined;
  if (n === undefined || n === null || typeof n !== 'object') return NOT_CONST;
  if ('Nested' in n) return value(n['Nested']);
  if ('Value' in n) {
    const v = (n['Value'] as Node)['value'];
    if (v === 'Null') return null;
    if (typeof v !== 'object' || v === null) return NOT_CONST;
    const literal = v as Node;
    if ('Number' in literal) return Number((literal['Number'] as unknown[])[0]);
    if ('Boolean' in literal) return Boolean(literal['Boolean']);
    // MySQL's `0x2f6574…` and `X'2f65…'` are strings written in hex.
    if (
      typeof literal['HexStringLiteral'] === 'string' &&
      /^(?:[0-9a-f]{2})*$/i.test(literal['HexStringLiteral'])
    )
      return Buffer.from(literal['HexStringLiteral'], 'hex').toString('latin1');
    for (const key of STRING_VALUES) {
      const s = literal[key];
      if (typeof s === 'string') return s;
      if (typeof s === 'object' && s !== null && typeof (s as Node)['value'] === 'string')
        return String((s as Node)['value']);
    }
    return NOT_CONST;
  }
  if ('Function' in n) return functionValue(n['Function'] as Node);
  if ('UnaryOp' in n) {
    const u = n['UnaryOp'] as Node;
    const inner = value(u['expr']);
    if (u['op'] === 'Not' && (typeof inner === 'boolean' || typeof inner === 'number')) return !inner;
    if (u['op'] === 'Minus' && typeof inner === 'number') return -inner;
    return u['op'] === 'Plus' ? inner : NOT_CONST;
  }
  if ('BinaryOp' in n) {
    const b = n['BinaryOp'] as Node;
    const left = value(b['left']);
    const right = value(b['right']);
    if (left === NOT_CONST || right === NOT_CONST) return NOT_CONST;
    const op = String(b['op']);
    if (typeof left === 'number' && typeof right === 'number') {
      if (op === 'Plus') return left + right;
      if (op === 'Minus') return left - right;
      if (op === 'Multiply') return left * right;
    }
    if ((op === 'StringConcat' || op === 'Plus') && typeof left === 'string' && typeof right === 'string')
      return left + right;
    const symbol = OPERATORS[op];
    if (symbol === undefined) return NOT_CONST;
    return compare(symbol, left, right) ?? NOT_CONST;
  }
  return NOT_CONST;
}

/** `CONCAT('/et', 'c/passwd')`, `CHAR(47, 101)`, `LOWER('…')` of literals: what the database computes. */
function functionValue(fn: Node): Const | typeof NOT_CONST {
  const parts = nameParts(fn['name']);
  const name = (parts[parts.length - 1] ?? '').toLowerCase();
  const list = fn['args'] as Node | undefined;
  const args = ((list?.['List'] as Node | undefined)?.['args'] ?? []) as Node[];
  if (args.length === 0 || args.length > 64) return NOT_CONST;
  const values = args.map((a) => value((a['Unnamed'] as Node | undefined)?.['Expr']));
  if (values.some((v) => v === NOT_CONST || v === null)) return NOT_CONST;
  switch (name) {
    case 'concat':
      return values.join('');
    case 'concat_ws':
      return values.slice(1).join(String(values[0]));
    case 'char':
    case 'chr':
    case 'nchar':
      return values.every((v) => typeof v === 'number' && v >= 0 && v < 0x110000)
        ? String.fromCodePoint(...(values as number[]))
        : NOT_CONST;
    case 'lower':
    case 'lcase':
      return String(values[0]).toLowerCase();
    case 'upper':
    case 'ucase':
      return String(values[0]).toUpperCase();
    case 'unhex':
      return /^(?:[0-9a-f]{2})*$/i.test(String(values[0]))
        ? Buffer.from(String(values[0]), 'hex').toString('latin1')
        : NOT_CONST;
    case 'from_base64':
      return Buffer.from(String(values[0]), 'base64').toString('latin1');
    default:
      return NOT_CONST;
  }
}

const OPERATORS: Record<string, string> = lookupTable({
  Eq: '=',
  NotEq: '<>',
  Lt: '<',
  Gt: '>',
  LtEq: '<=',
  GtEq: '>=',
});

export function columnOf(expr: unknown): string | undefined {
  const n = expr as Node | undefined;
  if (n === undefined || n === null) return undefined;
  if ('Identifier' in n) return String((n['Identifier'] as Node)['value']).toLowerCase();
  if ('CompoundIdentifier' in n) {
    return (n['CompoundIdentifier'] as Node[]).map((p) => String(p['value']).toLowerCase()).join('.');
  }
  return undefined;
}

export function isTautology(expr: unknown): boolean {
  const n = expr as Node | undefined;
  if (n === undefined || n === null || typeof n !== 'object') return false;
  if ('Nested' in n) return isTautology(n['Nested']);
  if ('BinaryOp' in n) {
    const b = n['BinaryOp'] as Node;
    if (b['op'] === 'Or') {
      // `x IS NULL OR x IS NOT NULL` holds for every row.
      const l = b['left'] as Node | undefined;
      const r = b['right'] as Node | undefined;
      const column = (e: Node | undefined, key: string) =>
        e && typeof e === 'object' && key in e ? columnOf(e[key]) : undefined;
      const a = column(l, 'IsNull') ?? column(r, 'IsNull');
      if (a !== undefined && a === (column(l, 'IsNotNull') ?? column(r, 'IsNotNull'))) return true;
      return isTautology(b['left']) || isTautology(b['right']);
    }
    if (b['op'] === 'And') return isTautology(b['left']) && isTautology(b['right']);
    if (b['op'] === 'Eq' || b['op'] === 'GtEq' || b['op'] === 'LtEq') {
      const left = columnOf(b['left']);
      if (left !== undefined && left === columnOf(b['right'])) return true;
    }
  }
  if ('IsNotNull' in n && value(n['IsNotNull']) !== NOT_CONST && value(n['IsNotNull']) !== null) return true;
  // `1 IN (1, 2)`: a constant found in a list of constants.
  const inList = n['InList'] as Node | undefined;
  if (inList !== undefined && !inList['negated']) {
    const needle = value(inList['expr']);
    const items = ((inList['list'] as unknown[] | undefined) ?? []).map(value);
    if (
      needle !== NOT_CONST &&
      needle !== null &&
      items.some((v) => v !== NOT_CONST && v !== null && String(v) === String(needle))
    )
      return true;
  }
  // `x LIKE '%'` (every row but NULLs), `'a' LIKE 'a%'`.
  for (const key of ['Like', 'ILike']) {
    const like = n[key] as Node | undefined;
    if (like === undefined || like['negated']) continue;
    const pattern = value(like['pattern']);
    if (typeof pattern === 'string' && /^%+$/.test(pattern)) return true;
  }
  const v = value(n);
  if (v === NOT_CONST || v === null) return false;
  if (typeof v === 'string') return v.toLowerCase() === 'true' || v === '1';
  return v === true || (typeof v === 'number' && v !== 0);
}
