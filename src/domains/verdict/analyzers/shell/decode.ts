import { gunzipSync } from 'node:zlib';
import { lookupTable } from '../../../../lib/lookup-table.ts';
/**
 * What the shell's printers and decoders would produce from literal input: `echo -e`, `printf`,
 * `$'…'`, `base64 -d`, `xxd -r`, `rev`, `tr` (rot13 and any other set mapping). The analyzer
 * uses these to judge the command a pipeline would hand to a shell. Every function is linear in
 * its input and the output is capped at MAX_DECODED characters.
 */

/** Decoded text longer than this is cut: nothing an analyzer judges needs more. */
export const MAX_DECODED = 64 * 1024;

function cap(text: string): string {
  return text.length > MAX_DECODED ? text.slice(0, MAX_DECODED) : text;
}

const SIMPLE_ESCAPES: Record<string, string> = lookupTable({
  a: '\x07',
  b: '\b',
  e: '\x1b',
  E: '\x1b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
  v: '\v',
  '\\': '\\',
  "'": "'",
  '"': '"',
  '?': '?',
});

/**
 * Backslash escapes as `echo -e`, `printf` and `$'…'` read them: `\n`, `\xHH`, `\NNN` (octal; `echo
 * -e` wants `\0NNN`), `\uHHHH`, `\UHHHHHHHH`. `\c` ends the output.
 */
export function interpretEscapes(text: string, octal: 'printf' | 'echo' = 'printf'): string {
  if (!text.includes('\\')) return cap(text);
  let out = '';
  for (let i = 0; i < text.length && out.length < MAX_DECODED; i++) {
    const c = text[i]!;
    if (c !== '\\' || i + 1 >= text.length) {
      out += c;
      continue;
    }
    const n = text[++i]!;
    if (n === 'c') break;
    const simple = SIMPLE_ESCAPES[n];
    if (simple !== undefined) {
      out += simple;
      continue;
    }
    if (n === 'x') {
      const hex = /^[0-9a-fA-F]{1,2}/.exec(text.slice(i + 1, i + 3));
      if (hex) {
        out += String.fromCharCode(Number.parseInt(hex[0], 16));
        i += hex[0].length;
      } else out += '\\x';
      continue;
    }
    if (n === 'u' || n === 'U') {
      const hex = (n === 'u' ? /^[0-9a-fA-F]{1,4}/ : /^[0-9a-fA-F]{1,8}/).exec(text.slice(i + 1, i + 9));
      const code = hex ? Number.parseInt(hex[0], 16) : Number.NaN;
      if (hex && code <= 0x10ffff) {
        out += String.fromCodePoint(code);
        i += hex[0].length;
      } else out += `\\${n}`;
      continue;
    }
    if (/[0-7]/.test(n)) {
      // printf and $'…': \NNN; echo -e: \0NNN.
      const start = octal === 'echo' && n === '0' ? i + 1 : i;
      const digits = /^[0-7]{1,3}/.exec(text.slice(start, start + 3));
      if (digits) {
        out += String.fromCharCode(Number.parseInt(digits[0], 8) & 0xff);
        i = start + digits[0].length - 1;
      } else out += '\0';
      continue;
    }
    out += `\\${n}`;
  }
  return cap(out);
}

/** What `echo [-neE] args…` prints. */
export function echoOutput(args: readonly string[]): string {
  let escapes = false;
  let newline = true;
  let i = 0;
  for (; i < args.length; i++) {
    const flag = /^-([neE]+)$/.exec(args[i]!);
    if (!flag) break;
    for (const f of flag[1]!) {
      if (f === 'n') newline = false;
      else if (f === 'e') escapes = true;
      else escapes = false;
    }
  }
  const text = args.slice(i).join(' ');
  return cap((escapes ? interpretEscapes(text, 'echo') : text) + (newline ? '\n' : ''));
}

/** What `printf FORMAT args…` prints, for `%s`, `%b`, `%c`, `%d` and literal text. */
export function printfOutput(args: readonly string[]): string | undefined {
  let rest = args;
  if (rest[0] === '--') rest = rest.slice(1);
  if (rest[0] === '-v') return undefined;
  const format = rest[0];
  if (format === undefined) return undefined;
  const values = rest.slice(1);
  let out = '';
  let next = 0;
  // The format is reused while arguments remain, as printf does.
  do {
    for (let i = 0; i < format.length && out.length < MAX_DECODED; i++) {
      const c = format[i]!;
      if (c === '\\') {
        const end = /^\\(?:x[0-9a-fA-F]{1,2}|[0-7]{1,3}|u[0-9a-fA-F]{1,4}|.)/s.exec(format.slice(i));
        out += interpretEscapes(end![0]);
        i += end![0].length - 1;
      } else if (c === '%') {
        const spec = /^%[-+ #0]*\d*(?:\.\d+)?([sbcdiouxXq%])/.exec(format.slice(i));
        if (!spec) return undefined;
        i += spec[0].length - 1;
        const kind = spec[1]!;
        if (kind === '%') out += '%';
        else {
          const value = values[next++] ?? '';
          if (kind === 'b') out += interpretEscapes(value, 'echo');
          else if (kind === 'c') out += value.slice(0, 1);
          else if (kind === 's' || kind === 'q') out += value;
          else out += String(Number.parseInt(value, 10) || 0);
        }
      } else out += c;
    }
  } while (next > 0 && next < values.length && out.length < MAX_DECODED);
  return cap(out);
}

const BASE64 = /^[A-Za-z0-9+/=_\-\s]*$/;

export function decodeBase64(text: string): string | undefined {
  const clean = text.replace(/\s+/g, '');
  if (!BASE64.test(clean) || clean.length === 0) return undefined;
  const bytes = Buffer.from(clean.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
  return cap(bytes.toString('latin1'));
}

/** `xxd -r -p` (plain hex) and `xxd -r` (a hex dump with offsets and an ASCII column). */
export function decodeHex(text: string, plain: boolean): string | undefined {
  let hex: string;
  if (plain) hex = text.replace(/\s+/g, '');
  else {
    hex = '';
    for (const line of text.split('\n')) {
      const m = /^[0-9a-fA-F]+:\s+((?:[0-9a-fA-F]{2,4}\s?)+)/.exec(line.trim());
      if (m) hex += m[1]!.replace(/\s+/g, '');
    }
  }
  if (!/^(?:[0-9a-fA-F]{2})*$/.test(hex) || hex.length === 0) return undefined;
  return cap(Buffer.from(hex, 'hex').toString('latin1'));
}

/** `rev`: every line reversed. */
export function reverseLines(text: string): string {
  return cap(
    text
      .split('\n')
      .map((line) => [...line].reverse().join(''))
      .join('\n'),
  );
}

/** A `tr` set with ranges (`a-z`), escapes and the classes agents use. */
function trSet(spec: string): string | undefined {
  const classes: Record<string, string> = {
    '[:lower:]': 'abcdefghijklmnopqrstuvwxyz',
    '[:upper:]': 'ABCDEFGHIJKLMNOPQRSTUVWXYZ',
    '[:digit:]': '0123456789',
  };
  let s = interpretEscapes(spec);
  for (const [name, chars] of Object.entries(classes)) s = s.replaceAll(name, chars);
  let out = '';
  for (let i = 0; i < s.length; i++) {
    if (s[i + 1] === '-' && i + 2 < s.length) {
      const from = s.charCodeAt(i);
      const to = s.charCodeAt(i + 2);
      if (to < from || to - from > 256) return undefined;
      for (let c = from; c <= to; c++) out += String.fromCharCode(c);
      i += 2;
    } else out += s[i];
  }
  return out.length > 1024 ? undefined : out;
}

/** `tr SET1 SET2` (translate) or `tr -d SET` (delete); undefined for other options. */
export function translate(text: string, args: readonly string[]): string | undefined {
  if (args[0] === '-s' && (args.length === 2 || args.length === 3)) {
    // Squeeze runs of the (last) set's characters to one, after translating when given two sets.
    const mapped = args.length === 3 ? translate(text, args.slice(1)) : text;
    const set = trSet(args[args.length - 1]!);
    if (mapped === undefined || set === undefined) return undefined;
    let out = '';
    for (const c of mapped) if (!(set.includes(c) && out.endsWith(c))) out += c;
    return cap(out);
  }
  if (args[0] === '-d' && args.length === 2) {
    const set = trSet(args[1]!);
    if (set === undefined) return undefined;
    let out = '';
    for (const c of text) if (!set.includes(c)) out += c;
    return cap(out);
  }
  if (args.length !== 2) return undefined;
  const from = trSet(args[0]!);
  const to = trSet(args[1]!);
  if (from === undefined || to === undefined || to.length === 0) return undefined;
  const map = new Map<string, string>();
  for (let i = 0; i < from.length; i++) map.set(from[i]!, to[Math.min(i, to.length - 1)]!);
  let out = '';
  for (const c of text) out += map.get(c) ?? c;
  return cap(out);
}

/**
 * Output of a filter command applied to known input, or undefined when the command is not a
 * decoder this module knows (or its input does not decode).
 */
export function applyFilter(name: string, args: readonly string[], input: string): string | undefined {
  switch (name) {
    case 'base64':
    case 'base32':
    case 'basenc': {
      const decode = args.some((a) => a === '-d' || a === '--decode' || a === '-D' || /^-[a-z]*d/.test(a));
      if (!decode) return undefined;
      if (name === 'base32') return decodeBase32(input);
      return decodeBase64(input);
    }
    case 'openssl':
      if ((args[0] === 'base64' || (args[0] === 'enc' && args.includes('-base64'))) && args.includes('-d'))
        return decodeBase64(input);
      return undefined;
    case 'xxd':
      if (!args.some((a) => /^-[a-z]*r/.test(a))) return undefined;
      return decodeHex(
        input,
        args.some((a) => a === '-p' || a === '-ps' || a === '-plain' || /^-[a-z]*p/.test(a)),
      );
    case 'rev':
      return args.length === 0 ? reverseLines(input) : undefined;
    case 'tr':
      return translate(input, args);
    case 'cat':
      return args.length === 0 || (args.length === 1 && args[0] === '-') ? input : undefined;
    case 'gunzip':
    case 'zcat':
    case 'gzip':
    case 'pigz':
      if (name !== 'zcat' && name !== 'gunzip' && !args.some((a) => /^-[a-z]*d|^--decompress$/.test(a)))
        return undefined;
      return gunzipText(input);
    case 'sed':
      return sedText(input, args);
    case 'cut':
      return cutText(input, args);
    case 'paste':
      return pasteText(input, args);
    case 'head':
    case 'tail':
      return lineRange(name, input, args);
    case 'uudecode':
      // Only to standard output: otherwise it writes the file its header names.
      return args.some(
        (a, i) => (a === '-o' || a === '--output-file') && /^(?:-|\/dev\/stdout)$/.test(args[i + 1] ?? ''),
      )
        ? uudecodeText(input)
        : undefined;
    default:
      return undefined;
  }
}

/** Splits `-fN`, `-f N`, `-d:`, `-d :` into [flag, value] pairs; undefined on anything else. */
function shortOptions(args: readonly string[], valued: string): [string, string | undefined][] | undefined {
  const out: [string, string | undefined][] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (!/^-[a-zA-Z]/.test(a)) return undefined;
    // A cluster: `-sd,` is `-s -d ,`; a valued letter takes the rest of the word or the next one.
    for (let k = 1; k < a.length; k++) {
      const flag = a[k]!;
      if (!/[a-zA-Z]/.test(flag)) return undefined;
      if (valued.includes(flag)) {
        const value = k + 1 < a.length ? a.slice(k + 1) : args[++i];
        if (value === undefined) return undefined;
        out.push([flag, value]);
        break;
      }
      out.push([flag, undefined]);
    }
  }
  return out;
}

/** `sed 's/a/b/g'`, `sed -n '2p'`, `sed -n '2,3p'`, `sed '1d'`: the forms that pick or rewrite text. */
function sedText(input: string, args: readonly string[]): string | undefined {
  let quiet = false;
  const scripts: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '-n' || a === '--quiet' || a === '--silent') quiet = true;
    else if (a === '-e') scripts.push(args[++i] ?? '');
    else if (a === '-E' || a === '-r') continue;
    else if (a.startsWith('-')) return undefined;
    else if (scripts.length === 0) scripts.push(a);
    else return undefined;
  }
  let lines = input.replace(/\n$/, '').split('\n');
  for (const script of scripts.flatMap((x) => x.split(/;\s*|\n/)).filter((x) => x.trim() !== '')) {
    const sub = /^s(.)((?:(?!\1).)*)\1((?:(?!\1).)*)\1(g?)$/.exec(script.trim());
    if (sub) {
      if (/[\\.*[\]^$+?(){}|]/.test(sub[2]!)) return undefined;
      lines = lines.map((l) => (sub[4] ? l.split(sub[2]!).join(sub[3]!) : l.replace(sub[2]!, sub[3]!)));
      continue;
    }
    const pick = /^(\d+)(?:,(\d+|\$))?([pd])$/.exec(script.trim());
    if (!pick) return undefined;
    const from = Number(pick[1]) - 1;
    const to = pick[2] === undefined ? from : pick[2] === '$' ? lines.length - 1 : Number(pick[2]) - 1;
    const inRange = (k: number) => k >= from && k <= to;
    lines =
      pick[3] === 'p'
        ? quiet
          ? lines.filter((_, k) => inRange(k))
          : lines.flatMap((l, k) => (inRange(k) ? [l, l] : [l]))
        : lines.filter((_, k) => !inRange(k));
    quiet = false;
  }
  if (quiet) return '';
  return cap(`${lines.join('\n')}\n`);
}

/** `cut -d' ' -f2-`, `cut -c3-`. */
function cutText(input: string, args: readonly string[]): string | undefined {
  const options = shortOptions(args, 'dfc');
  if (options === undefined) return undefined;
  const delimiter = options.find(([f]) => f === 'd')?.[1] ?? '\t';
  const fields = options.find(([f]) => f === 'f')?.[1];
  const chars = options.find(([f]) => f === 'c')?.[1];
  const spec = fields ?? chars;
  if (spec === undefined || !/^\d*-?\d*(?:,\d*-?\d*)*$/.test(spec)) return undefined;
  const picks = (n: number) =>
    spec.split(',').some((part) => {
      const [a, b] = part.includes('-') ? part.split('-') : [part, part];
      return n >= (a === '' ? 1 : Number(a)) && n <= (b === '' ? Number.POSITIVE_INFINITY : Number(b));
    });
  const out = input
    .replace(/\n$/, '')
    .split('\n')
    .map((line) =>
      fields !== undefined
        ? line
            .split(delimiter)
            .filter((_, k) => picks(k + 1))
            .join(delimiter)
        : [...line].filter((_, k) => picks(k + 1)).join(''),
    );
  return cap(`${out.join('\n')}\n`);
}

/** `paste -s -d' '`: the lines joined. */
function pasteText(input: string, args: readonly string[]): string | undefined {
  const options = shortOptions(args, 'd');
  if (options === undefined || !options.some(([f]) => f === 's')) return undefined;
  const delimiter = options.find(([f]) => f === 'd')?.[1] ?? '\t';
  return cap(`${input.replace(/\n$/, '').split('\n').join(delimiter.slice(0, 1))}\n`);
}

/** `head -n 2`, `head -2`, `tail -n 1`, `tail -n +2`. */
function lineRange(name: string, input: string, args: readonly string[]): string | undefined {
  let n: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '-n') n = args[++i];
    else if (/^-n?\+?\d+$/.test(a)) n = a.replace(/^-n?/, '');
    else return undefined;
  }
  const lines = input.replace(/\n$/, '').split('\n');
  if (n === undefined) n = '10';
  const from = n.startsWith('+');
  const count = Number(n.replace('+', ''));
  if (!Number.isInteger(count)) return undefined;
  const picked =
    name === 'head'
      ? lines.slice(0, count)
      : from
        ? lines.slice(Math.max(0, count - 1))
        : lines.slice(-count || lines.length);
  return cap(`${picked.join('\n')}\n`);
}

/** gzip data held as latin1 text (what the other decoders give): decompressed within the cap. */
function gunzipText(input: string): string | undefined {
  try {
    return cap(gunzipSync(Buffer.from(input, 'latin1'), { maxOutputLength: MAX_DECODED }).toString('latin1'));
  } catch {
    return undefined;
  }
}

/** uuencoded text (`begin 644 name` … `end`). */
function uudecodeText(input: string): string | undefined {
  const lines = input.split('\n');
  const begin = lines.findIndex((l) => /^begin(?:-base64)? [0-7]{3,4} /.test(l));
  if (begin < 0) return undefined;
  if (lines[begin]!.startsWith('begin-base64')) {
    const end = lines.findIndex((l, i) => i > begin && l.trim() === '====');
    return decodeBase64(lines.slice(begin + 1, end < 0 ? undefined : end).join(''));
  }
  const bytes: number[] = [];
  for (const line of lines.slice(begin + 1)) {
    if (line.trim() === 'end' || line === '`' || line === '') break;
    const n = (line.charCodeAt(0) - 32) & 63;
    const chars = [...line.slice(1)].map((c) => (c.charCodeAt(0) - 32) & 63);
    const out: number[] = [];
    for (let i = 0; i + 3 < chars.length + 1 && out.length < n; i += 4) {
      const [a = 0, b = 0, c = 0, d = 0] = chars.slice(i, i + 4);
      out.push(((a << 2) | (b >> 4)) & 255, ((b << 4) | (c >> 2)) & 255, ((c << 6) | d) & 255);
    }
    bytes.push(...out.slice(0, n));
    if (bytes.length > MAX_DECODED) break;
  }
  return cap(Buffer.from(bytes).toString('latin1'));
}

const BASE32_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

export function decodeBase32(text: string): string | undefined {
  const clean = text.replace(/[\s=]+/g, '').toUpperCase();
  if (clean.length === 0) return undefined;
  let bits = 0;
  let value = 0;
  let out = '';
  for (const c of clean) {
    const index = BASE32_ALPHABET.indexOf(c);
    if (index < 0) return undefined;
    value = (value << 5) | index;
    bits += 5;
    if (bits >= 8) {
      out += String.fromCharCode((value >>> (bits - 8)) & 0xff);
      bits -= 8;
    }
  }
  return cap(out);
}
