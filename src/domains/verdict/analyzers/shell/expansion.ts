import type { ShNode } from 'mvdan-sh';
import type { SimpleWord } from '../shell-simple.ts';
import { interpretEscapes } from './decode.ts';
import { secretInVariable } from './secret-variables.ts';
import {
  assign,
  describeStream,
  type Field,
  ifsOf,
  joinFields,
  lookup,
  MAX_FIELDS,
  producersOf,
  type Stream,
  type Value,
  type Walk,
} from './state.ts';
import { list, litValue, nodeType, PAR, splitBraces } from './syntax.ts';

/**
 * Word expansion as a POSIX shell does it: parameters and their operators, command and process
 * substitution, quote removal, brace expansion and field splitting.
 */

/** A piece of a word before field splitting. */
interface Piece {
  text: string;
  /** An unquoted expansion: its text is split into fields at IFS characters. */
  split: boolean;
  dynamic: boolean;
  reads?: string[];
  opaque?: string;
  codeLike?: boolean;
  via?: string;
  /** An array's elements joined with NUL: `"${a[@]}"` splits there, not at IFS. */
  items?: boolean;
  /** The source text before quote removal, where it differs (`C:\Windows` unquoted). */
  raw?: string;
  sensitive?: string;
  from?: { name: string; args: string[] }[];
  proc?: Stream;
}

function markField(field: Field, piece: Piece): void {
  if (piece.proc) field.proc = piece.proc;
  if (piece.dynamic) field.dynamic = true;
  if (piece.reads) field.reads = [...(field.reads ?? []), ...piece.reads];
  if (piece.opaque) field.opaque = piece.opaque;
  if (piece.codeLike) field.codeLike = true;
  if (piece.sensitive) field.sensitive = piece.sensitive;
  if (piece.from) field.from = [...(field.from ?? []), ...piece.from];
  if (piece.via) field.via = field.via ? `${field.via}, ${piece.via}` : piece.via;
}

/** Fields of a word: pieces joined, unquoted expansions split at IFS characters. */
function fieldsOf(pieces: readonly Piece[], walk: Walk): Field[] {
  // Most words are one literal piece: one field, nothing to split.
  if (pieces.length === 1 && !pieces[0]!.split) {
    const only = pieces[0]!;
    const field: Field = { text: only.text, dynamic: false };
    markField(field, only);
    if (only.raw !== undefined) field.raw = only.raw;
    return [field];
  }
  const ifs = ifsOf(walk);
  const fields: Field[] = [];
  let current: Field | undefined;
  // A quoted or literal piece makes a field even when empty: `""` is an argument.
  let anchored = false;
  for (const piece of pieces) {
    if (!piece.split || ifs === '' || piece.text === '') {
      anchored = true;
      current ??= { text: '', dynamic: false };
      markField(current, piece);
      const before = current.text;
      current.text += piece.text;
      if (piece.raw !== undefined || current.raw !== undefined) {
        current.raw = (current.raw ?? before) + (piece.raw ?? piece.text);
      }
      continue;
    }
    let chunk = '';
    const separators = piece.items ? '\0' : ifs;
    for (const ch of piece.text) {
      if (separators.includes(ch)) {
        if (chunk !== '' || (current !== undefined && current.text !== '')) {
          current ??= { text: '', dynamic: false };
          current.text += chunk;
          markField(current, piece);
          fields.push(current);
          current = undefined;
        }
        chunk = '';
      } else {
        chunk += ch;
      }
    }
    current ??= { text: '', dynamic: false };
    current.text += chunk;
    markField(current, piece);
  }
  if (current !== undefined && (current.text !== '' || current.dynamic || anchored)) fields.push(current);
  return fields.length > MAX_FIELDS ? fields.slice(0, MAX_FIELDS) : fields;
}

/** Unquoted literal text: a backslash quotes the next character; a backslash-newline vanishes. */
function unescapeUnquoted(text: string): string {
  return text.includes('\\') ? text.replace(/\\\n/g, '').replace(/\\(.)/gs, '$1') : text;
}

/** Inside double quotes a backslash quotes only `$`, backtick, `"`, `\` and newline. */
function unescapeDouble(text: string): string {
  return text.includes('\\') ? text.replace(/\\\n/g, '').replace(/\\([$`"\\])/g, '$1') : text;
}

function partPieces(part: ShNode, walk: Walk, quoted: boolean, out: Piece[]): void {
  switch (nodeType(part)) {
    case 'Lit': {
      const value = litValue(part);
      const text = quoted ? unescapeDouble(value) : unescapeUnquoted(value);
      out.push(
        text === value
          ? { text, split: false, dynamic: false }
          : { text, split: false, dynamic: false, raw: value },
      );
      return;
    }
    case 'SglQuoted': {
      const value = litValue(part);
      out.push(
        part['Dollar']
          ? { text: interpretEscapes(value), split: false, dynamic: false, via: "$'…' escapes" }
          : { text: value, split: false, dynamic: false },
      );
      return;
    }
    case 'DblQuoted':
      out.push({ text: '', split: false, dynamic: false });
      for (const inner of list(part['Parts'])) partPieces(inner, walk, true, out);
      return;
    case 'ParamExp': {
      const piece = paramPiece(part, walk, quoted);
      // cmd and PowerShell read `$env:X`, `$true` themselves: keep the source for them.
      const name = litValue(part['Param']);
      if (!part['Exp'] && !part['Repl'] && !part['Slice'] && !part['Length'] && !part['Excl']) {
        piece.raw = part['Short'] ? `$${name}` : `\${${name}}`;
      }
      out.push(piece);
      return;
    }
    case 'CmdSubst': {
      const output = walk.run.substitution(list(part['Stmts']), walk);
      out.push(substitutionPiece(output, quoted));
      return;
    }
    case 'ProcSubst': {
      const output = walk.run.substitution(list(part['Stmts']), walk);
      out.push({
        text: '',
        split: false,
        dynamic: true,
        ...(output?.files ? { reads: output.files } : {}),
        opaque: describeStream(output) ?? 'the output of a process substitution',
        codeLike: output?.fetched !== undefined || output?.decoded === true,
        proc: output ?? { unknown: 'the output of a process substitution' },
      });
      return;
    }
    case 'ArithmExp':
      out.push({ text: '0', split: !quoted, dynamic: true });
      return;
    case 'ExtGlob':
      out.push({
        text: String(part['Pattern'] ? litValue(part['Pattern']) : '*'),
        split: false,
        dynamic: false,
      });
      return;
    default:
      out.push({ text: '', split: false, dynamic: true });
  }
}

function substitutionPiece(output: Stream | undefined, quoted: boolean): Piece {
  if (output?.literal !== undefined) {
    return {
      text: output.literal.replace(/\n+$/, ''),
      split: !quoted,
      dynamic: false,
      via: 'a command substitution',
    };
  }
  const what = describeStream(output);
  return {
    text: '',
    split: !quoted,
    dynamic: true,
    ...(output?.files && output.files.length > 0 ? { reads: output.files } : {}),
    ...(what ? { opaque: what } : {}),
    ...(output?.fetched !== undefined || output?.decoded ? { codeLike: true } : {}),
    ...(output?.sensitive ? { sensitive: output.sensitive } : {}),
    ...(output?.producer ? { from: producersOf(output)! } : {}),
  };
}

function applyCase(text: string, op: number): string {
  switch (op) {
    case PAR.upperFirst:
      return text.slice(0, 1).toUpperCase() + text.slice(1);
    case PAR.upperAll:
      return text.toUpperCase();
    case PAR.lowerFirst:
      return text.slice(0, 1).toLowerCase() + text.slice(1);
    default:
      return text.toLowerCase();
  }
}

/** `${X#pat}` and friends for literal patterns; a glob pattern makes the result unknown. */
function trim(text: string, pattern: string, op: number): string | undefined {
  if (/[*?[]/.test(pattern)) {
    if (/\[/.test(pattern) || text.length > 4096) return undefined;
    // `${PWD%/*}`, `${f##*/}`: the shortest or longest prefix or suffix the glob matches.
    const source = pattern
      .replace(/[.+^${}()|\\]/g, '\\$&')
      .replace(/\*/g, '[\\s\\S]*')
      .replace(/\?/g, '[\\s\\S]');
    const whole = new RegExp(`^${source}$`);
    const prefix = op === PAR.shortPrefix || op === PAR.longPrefix;
    const longest = op === PAR.longPrefix || op === PAR.longSuffix;
    const cuts = [...Array(text.length + 1).keys()];
    if (longest === prefix) cuts.reverse();
    for (const cut of cuts) {
      const part = prefix ? text.slice(0, cut) : text.slice(cut);
      if (whole.test(part)) return prefix ? text.slice(cut) : text.slice(0, cut);
    }
    return text;
  }
  if ((op === PAR.shortPrefix || op === PAR.longPrefix) && text.startsWith(pattern))
    return text.slice(pattern.length);
  if ((op === PAR.shortSuffix || op === PAR.longSuffix) && text.endsWith(pattern))
    return text.slice(0, text.length - pattern.length);
  return text;
}

export function wordString(word: ShNode | undefined, walk: Walk): Value {
  if (!word) return { text: '', known: true };
  const pieces: Piece[] = [];
  for (const part of list(word['Parts'])) partPieces(part, walk, true, pieces);
  return {
    text: pieces.map((p) => p.text).join(''),
    known: pieces.every((p) => !p.dynamic),
    ...(pieces.some((p) => p.reads) ? { reads: pieces.flatMap((p) => p.reads ?? []) } : {}),
    ...(pieces.find((p) => p.opaque)?.opaque ? { opaque: pieces.find((p) => p.opaque)!.opaque! } : {}),
    ...(pieces.some((p) => p.codeLike) ? { codeLike: true } : {}),
  };
}

/**
 * A variable the command line never set: its value is unknown, and in command position opaque.
 * `$AWS_SECRET_ACCESS_KEY`, `$CI_JOB_TOKEN`: what the environment keeps under such a name is a secret.
 */
function unknownVariable(name: string, split: boolean): Piece {
  return {
    text: '',
    split,
    dynamic: true,
    codeLike: true,
    opaque: `$${name}, whose value is unknown`,
    ...(secretInVariable(name) ? { sensitive: secretInVariable(name)! } : {}),
  };
}

function paramPiece(part: ShNode, walk: Walk, quoted: boolean): Piece {
  const name = litValue(part['Param']);
  let value = lookup(walk, name);
  if (part['Excl']) {
    // `${!X}`: the variable named by X's value.
    value = value?.known ? lookup(walk, value.text) : undefined;
  }
  const index = part['Index'] as ShNode | undefined;
  if (index && value !== undefined) value = indexed(value, index, walk);
  const exp = part['Exp'] as ShNode | undefined;
  const via = `$${name}`;
  if (part['Length']) return { text: String(value?.text.length ?? 0), split: false, dynamic: !value?.known };
  if (exp) {
    const op = Number(exp['Op']);
    const arg = () => wordString(exp['Word'] as ShNode | undefined, walk);
    const unsetOrNull = value === undefined || (value.known && value.text === '');
    const colon = op === PAR.def || op === PAR.alt || op === PAR.assign || op === PAR.err;
    const absent = colon ? unsetOrNull : value === undefined;
    if (op === PAR.def || op === PAR.defUnset || op === PAR.assign || op === PAR.assignUnset) {
      // An unknown variable may well be unset: its default is what an attacker hopes runs.
      if (absent || !value?.known) {
        const fallback = arg();
        if (op === PAR.assign || op === PAR.assignUnset) assign(walk, name, fallback);
        return { text: fallback.text, split: !quoted, dynamic: !fallback.known, via };
      }
    } else if (op === PAR.alt || op === PAR.altUnset) {
      if (absent) return { text: '', split: !quoted, dynamic: value === undefined ? false : !value.known };
      const alternative = arg();
      return { text: alternative.text, split: !quoted, dynamic: !alternative.known, via };
    } else if (op >= PAR.shortSuffix && op <= PAR.longPrefix) {
      const pattern = arg();
      const trimmed = value?.known && pattern.known ? trim(value.text, pattern.text, op) : undefined;
      if (trimmed !== undefined) return { text: trimmed, split: !quoted, dynamic: false, via };
      return { text: '', split: !quoted, dynamic: true };
    } else if (op >= PAR.upperFirst && op <= PAR.lowerAll) {
      if (value?.known) return { text: applyCase(value.text, op), split: !quoted, dynamic: false, via };
    } else if (op === PAR.transform) {
      // `${x@P}`, `${x@E}` expand escapes; `@U`, `@u`, `@L` change case; `@Q` quotes.
      const how = wordString(exp['Word'] as ShNode | undefined, walk).text;
      if (value?.known && /^[PEQULu]$/.test(how)) {
        const text =
          how === 'P' || how === 'E'
            ? interpretEscapes(value.text)
            : how === 'U'
              ? value.text.toUpperCase()
              : how === 'L'
                ? value.text.toLowerCase()
                : how === 'u'
                  ? value.text.slice(0, 1).toUpperCase() + value.text.slice(1)
                  : value.text;
        return { text, split: !quoted, dynamic: false, via };
      }
      return {
        text: '',
        split: !quoted,
        dynamic: true,
        codeLike: true,
        opaque: `\${${name}@${how}}, which is not resolved`,
      };
    }
  }
  if (part['Names']) {
    // `${!prefix*}`: the names of the variables that start with the prefix.
    const names = [...(walk.scope.vars?.keys() ?? [])].filter((n) => n.startsWith(name)).sort();
    return { text: names.join(' '), split: !quoted, dynamic: false };
  }
  const repl = part['Repl'] as ShNode | undefined;
  if (repl && value?.known) {
    const from = wordString(repl['Orig'] as ShNode | undefined, walk);
    const to = wordString(repl['With'] as ShNode | undefined, walk);
    // `${x/#/r}`, `${x/%/.bak}`: anchored at the start or the end.
    if (from.known && to.known && /^[#%]/.test(from.text) && !/[*?[]/.test(from.text)) {
      const anchor = from.text.slice(1);
      const text = from.text.startsWith('#')
        ? value.text.startsWith(anchor)
          ? to.text + value.text.slice(anchor.length)
          : value.text
        : value.text.endsWith(anchor)
          ? value.text.slice(0, value.text.length - anchor.length) + to.text
          : value.text;
      return { text, split: !quoted, dynamic: false, via };
    }
    if (from.known && to.known && !/[*?[]/.test(from.text) && from.text !== '') {
      const text = repl['All']
        ? value.text.split(from.text).join(to.text)
        : value.text.replace(from.text, to.text);
      return { text, split: !quoted, dynamic: false, via };
    }
    return { text: '', split: !quoted, dynamic: true };
  }
  const slice = part['Slice'] as ShNode | undefined;
  if (slice && value?.known) {
    const offset = Number(wordString(slice['Offset'] as ShNode | undefined, walk).text);
    const lengthNode = slice['Length'] as ShNode | undefined;
    const length = lengthNode ? Number(wordString(lengthNode, walk).text) : undefined;
    if (Number.isInteger(offset) && (length === undefined || Number.isInteger(length))) {
      const text = value.text.slice(offset, length === undefined ? undefined : offset + length);
      return { text, split: !quoted, dynamic: false, via };
    }
    return { text: '', split: !quoted, dynamic: true };
  }
  if (exp && (Number(exp['Op']) === PAR.err || Number(exp['Op']) === PAR.errUnset) && !value?.known) {
    // `${X:?}`: the shell stops when X is unset, so no empty value ever reaches the command.
    return { text: `\${${name}}`, split: false, dynamic: true };
  }
  if (value === undefined) return unknownVariable(name, !quoted);
  const known = value.known ? { via } : {};
  const whole = value.array === true && value.items !== undefined && part['Index'] != null && quoted;
  return {
    ...(whole ? { items: true } : {}),
    text: whole ? value.items!.join('\0') : value.text,
    split:
      !quoted ||
      (value.array === true && ((part['Index'] !== undefined && part['Index'] !== null) || name === '@')),
    dynamic: !value.known,
    ...(value.reads ? { reads: value.reads } : {}),
    ...(value.opaque ? { opaque: value.opaque } : {}),
    ...(value.codeLike ? { codeLike: true } : {}),
    ...(name === 'HOME' || name === 'PWD' ? {} : known),
  };
}

/** `${a[n]}`: one element of a known array (element 0 of a plain variable); `@` and `*` keep all. */
function indexed(value: Value, index: ShNode, walk: Walk): Value {
  const which = nodeType(index) === 'Word' ? wordString(index, walk) : { text: '', known: false };
  if (which.known && (which.text === '@' || which.text === '*')) return value;
  const n = Number(which.text);
  if (!which.known || !Number.isInteger(n)) return { text: '', known: false, codeLike: true };
  if (!value.known) return value;
  const items = value.items ?? (value.array ? undefined : [value.text]);
  if (items === undefined) return { text: '', known: false, codeLike: true };
  const item = items[n < 0 ? items.length + n : n];
  return item === undefined ? { text: '', known: true } : { text: item, known: true };
}

/**
 * A sequence expression as bash expands it: `{1..10}`, `{10..1..3}`, `{01..10}` (zero-padded to the
 * wider end), `{a..e}`, `{z..a..2}` (letters by character code). Undefined where bash leaves the
 * braces as written (`{a..10}`, `{ab..c}`); `tooMany` past `MAX_FIELDS` items.
 */
function braceSequence(from: string, to: string, by: string | undefined): string[] | 'tooMany' | undefined {
  const step = by === undefined ? 1 : Math.abs(Number(by));
  if (!Number.isInteger(step) || (by !== undefined && !/^[-+]?\d+$/.test(by))) return undefined;
  const stride = step === 0 ? 1 : step;
  const numeric = /^[-+]?\d+$/;
  const letter = /^[A-Za-z]$/;
  let a: number;
  let b: number;
  let show: (n: number) => string;
  if (numeric.test(from) && numeric.test(to)) {
    a = Number(from);
    b = Number(to);
    const padded = /^[-+]?0\d/.test(from) || /^[-+]?0\d/.test(to);
    const width = Math.max(from.replace(/^\+/, '').length, to.replace(/^\+/, '').length);
    show = (n) => {
      if (!padded) return String(n);
      const digits = String(Math.abs(n)).padStart(n < 0 ? width - 1 : width, '0');
      return n < 0 ? `-${digits}` : digits;
    };
  } else if (letter.test(from) && letter.test(to)) {
    a = from.charCodeAt(0);
    b = to.charCodeAt(0);
    show = (n) => String.fromCharCode(n);
  } else return undefined;
  if (!Number.isSafeInteger(a) || !Number.isSafeInteger(b)) return undefined;
  if (Math.floor(Math.abs(b - a) / stride) + 1 > MAX_FIELDS) return 'tooMany';
  const out: string[] = [];
  for (let n = a; a <= b ? n <= b : n >= b; n += a <= b ? stride : -stride) out.push(show(n));
  return out;
}

export const literal = (text: string): ShNode => ({ Value: text, __lit: true }) as unknown as ShNode;

/**
 * The words brace expansion makes of `word`. Past `MAX_FIELDS` words, one word with `*` where
 * each brace stood: a path is then judged as the pattern it could be (`/e{a..z}{a..z}/shadow`
 * names /etc/shadow among 676 words), never as the braces written.
 */
function expandBraces(word: ShNode): ShNode[] {
  const hasBrace = list(word['Parts']).some((p) => nodeType(p) === 'Lit' && litValue(p).includes('{'));
  if (!hasBrace) return [word];
  const split = splitBraces(word);
  const parts = list(split['Parts']);
  const asPattern = (): ShNode[] => [
    {
      Parts: parts.map((part) => (nodeType(part) === 'BraceExp' ? literal('*') : part)),
      __word: true,
      __pattern: true,
    } as unknown as ShNode,
  ];
  let words: ShNode[][] = [[]];
  for (const part of parts) {
    if (nodeType(part) !== 'BraceExp') {
      for (const w of words) w.push(part);
      continue;
    }
    const elems = list(part['Elems']);
    let alternatives: ShNode[][];
    if (part['Sequence']) {
      const [from, to, by] = elems.map((e) => list(e['Parts']).map(litValue).join(''));
      const items = braceSequence(from ?? '', to ?? '', by);
      if (items === 'tooMany') return asPattern();
      // What bash leaves as written is judged as written.
      alternatives = (items ?? [`{${[from, to, by].filter((x) => x !== undefined).join('..')}}`]).map(
        (item) => [literal(item)],
      );
    } else alternatives = elems.map((e) => list(e['Parts']));
    const next: ShNode[][] = [];
    for (const w of words) for (const alt of alternatives) next.push([...w, ...alt]);
    if (next.length > MAX_FIELDS) return asPattern();
    words = next;
  }
  return words.map((parts) => ({ Parts: parts, __word: true }) as unknown as ShNode);
}

export function expandWord(word: ShNode | undefined, walk: Walk): Field[] {
  if (!word) return [];
  const out: Field[] = [];
  const braced = expandBraces(word);
  for (const w of braced) {
    const pieces: Piece[] = [];
    for (const part of list(w['Parts'])) {
      if ((part as unknown as { __lit?: boolean }).__lit)
        pieces.push({ text: litValue(part), split: false, dynamic: false });
      else partPieces(part, walk, false, pieces);
    }
    const pattern = (w as unknown as { __pattern?: boolean }).__pattern;
    if ((braced.length > 1 || pattern) && pieces[0])
      pieces[0].via = pattern ? 'brace expansion, too many words: judged as a pattern' : 'brace expansion';
    out.push(...fieldsOf(pieces, walk));
  }
  return out;
}

export function expandSimpleWord(word: SimpleWord, walk: Walk, split = true): Field[] {
  const pieces: Piece[] = word.parts.map((part) => {
    if ('lit' in part) return { text: part.lit, split: false, dynamic: false };
    const value = lookup(walk, part.param);
    if (value === undefined) return unknownVariable(part.param, split && !part.quoted);
    return {
      text: value.text,
      // "$@" gives each parameter as a field of its own, as in the parser walk.
      split: split && (!part.quoted || (part.param === '@' && value.array === true)),
      dynamic: !value.known,
      ...(value.reads ? { reads: value.reads } : {}),
      ...(value.opaque ? { opaque: value.opaque } : {}),
      ...(value.codeLike ? { codeLike: true } : {}),
      ...(value.known && part.param !== 'HOME' ? { via: `$${part.param}` } : {}),
    };
  });
  return fieldsOf(pieces, walk);
}

export function valueOfFields(fields: Field[]): Value {
  return {
    text: joinFields(fields),
    known: fields.every((f) => !f.dynamic),
    ...(fields.some((f) => f.reads) ? { reads: fields.flatMap((f) => f.reads ?? []) } : {}),
    ...(fields.find((f) => f.opaque) ? { opaque: fields.find((f) => f.opaque)!.opaque! } : {}),
    ...(fields.some((f) => f.codeLike) ? { codeLike: true } : {}),
  };
}
