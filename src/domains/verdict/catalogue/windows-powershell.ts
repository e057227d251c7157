import { lookupTable } from '../../../lib/lookup-table.ts';
import type { PsStatement, PsWord } from './windows-powershell/ps-word.ts';

export {
  type BoundCmdlet,
  bindCmdlet,
  cmdletName,
  POWERSHELL_ONLY_ALIASES,
} from './windows-powershell/cmdlets.ts';
export type { PsStatement, PsWord } from './windows-powershell/ps-word.ts';

/**
 * A bounded reader for PowerShell command lines: statements (`;`, newlines, `&&`, `||`),
 * pipelines, quoting (`'…'` with `''`, `"…"` with backtick escapes and `$env:` kept for the path
 * rules), backtick escapes, comments, here-strings, and the nested code of `( )`, `$( )`, `@( )`,
 * `{ }` and `[Type]::Method( )`. It reads what would run, not every construct of the grammar:
 * each command comes out as words, with nested commands listed after the one that holds them.
 */

/** Scripts larger than this are not read; the caller judges what it can without them. */
export const MAX_POWERSHELL_SCRIPT = 32 * 1024;
const MAX_NESTING = 24;
const MAX_STATEMENTS = 512;

export interface PsScript {
  statements: PsStatement[];
  /** Stopped early: the script is larger or deeper than the reader's budget. */
  truncated: boolean;
}

const SINGLE_QUOTES = new Set(["'", '\u2018', '\u2019', '\u201a', '\u201b']);
const DOUBLE_QUOTES = new Set(['"', '\u201c', '\u201d', '\u201e']);
const DASHES = new Set(['-', '\u2013', '\u2014', '\u2015']);
const ESCAPES: Record<string, string> = lookupTable({
  '0': '\0',
  a: '\x07',
  b: '\b',
  e: '\x1b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
  v: '\v',
});
/** Automatic variables whose value is a fixed, harmless literal or a known location. */
const KNOWN_VARIABLES: Record<string, string> = lookupTable({
  true: '$true',
  false: '$false',
  null: '',
  home: '~',
});

interface WordBuilder {
  text: string;
  items: string[];
  itemStart: number;
  inner?: PsStatement[];
  literal: boolean;
  bare: boolean;
  started: boolean;
  start: number;
  expression?: 'group' | 'block' | 'type';
}

class BudgetExceeded extends Error {}

const TYPE_LITERAL = /\[[\w.`]{1,200}(?:\[\])?\]/y;
const VARIABLE_NAME = /[\w?:]{1,200}/y;
const MEMBER = /(?:\.|::)[\w`]{1,200}/y;

class Reader {
  private i = 0;
  readonly statements: PsStatement[] = [];
  private readonly variables = new Map<string, string>();

  constructor(private readonly s: string) {}

  /** Reads statements until `stop` (a closing `)` or `}`) or the end; returns after `stop`. */
  readStatements(stop: string | undefined, depth: number, nested: boolean): void {
    if (depth > MAX_NESTING) throw new BudgetExceeded();
    const s = this.s;
    let words: PsWord[] = [];
    let writes: string[] = [];
    let invoked = false;
    let pipedFrom: PsStatement | undefined;
    let assignTo: string | undefined;
    let word = this.newWord();

    const endWord = () => {
      if (word.started) {
        word.items.push(word.text.slice(word.itemStart));
        words.push({
          text: word.text,
          items: word.items.filter((item) => item !== ''),
          literal: word.literal,
          bare: word.bare,
          raw: s.slice(word.start, this.i),
          ...(word.expression ? { expression: word.expression } : {}),
          ...(word.inner ? { inner: word.inner } : {}),
        });
      }
      word = this.newWord();
    };
    const endStatement = (pipe: boolean) => {
      endWord();
      let statement: PsStatement | undefined;
      if (words.length > 0 || invoked) {
        statement = { words, invoked, writes, nested, ...(pipedFrom ? { pipedFrom } : {}) };
        if (this.statements.length >= MAX_STATEMENTS) throw new BudgetExceeded();
        this.statements.push(statement);
      }
      if (assignTo !== undefined) {
        const only = words.length === 1 ? words[0] : undefined;
        if (only?.literal && !only.bare && only.expression === undefined)
          this.variables.set(assignTo, only.text);
        else this.variables.delete(assignTo);
      }
      words = [];
      writes = [];
      invoked = false;
      assignTo = undefined;
      pipedFrom = pipe ? statement : undefined;
    };

    while (this.i < s.length) {
      const ch = s[this.i]!;
      if (stop !== undefined && ch === stop) {
        this.i++;
        endStatement(false);
        return;
      }
      if (ch === ' ' || ch === '\t' || ch === '\f' || ch === '\v' || ch === '\u00a0') {
        endWord();
        this.i++;
      } else if (ch === '\n' || ch === '\r' || ch === ';') {
        endStatement(false);
        this.i++;
      } else if (ch === '|') {
        const double = s[this.i + 1] === '|';
        endStatement(!double);
        this.i += double ? 2 : 1;
      } else if (ch === '&') {
        if (s[this.i + 1] === '&') {
          endStatement(false);
          this.i += 2;
        } else if (!word.started && words.length === 0) {
          invoked = true;
          this.i++;
        } else {
          endStatement(false);
          this.i++;
        }
      } else if (ch === '#' && !word.started) {
        while (this.i < s.length && s[this.i] !== '\n') this.i++;
      } else if (ch === '<' && s[this.i + 1] === '#') {
        const end = s.indexOf('#>', this.i + 2);
        this.i = end < 0 ? s.length : end + 2;
      } else if ((ch === '>' || (/[1-6*]/.test(ch) && s[this.i + 1] === '>')) && !word.started) {
        this.readRedirect(writes);
      } else if (ch === '.' && !word.started && words.length === 0 && /\s/.test(s[this.i + 1] ?? '')) {
        invoked = true;
        this.i++;
      } else if (ch === '=' && s[this.i + 1] !== '=' && this.assignedName(word, words) !== undefined) {
        assignTo = this.assignedName(word, words);
        word = this.newWord();
        words = [];
        this.i++;
      } else {
        // `IEX(IWR …)`: a command name ends where a parenthesis opens.
        if (ch === '(' && words.length === 0 && word.started && word.bare && /^[\w.-]+$/.test(word.text))
          endWord();
        this.readWordPart(word, depth, nested);
      }
    }
    endStatement(false);
  }

  /** `$name = …` (with or without spaces): the variable the statement assigns. */
  private assignedName(word: WordBuilder, words: PsWord[]): string | undefined {
    const raw = word.started
      ? words.length === 0
        ? this.s.slice(word.start, this.i)
        : ''
      : words.length === 1
        ? words[0]!.raw
        : '';
    const match = /^\$([\w:]+?)[+-]?$/.exec(raw);
    return match ? match[1]!.toLowerCase() : undefined;
  }

  private newWord(): WordBuilder {
    return { text: '', items: [], itemStart: 0, literal: true, bare: true, started: false, start: this.i };
  }

  private readRedirect(writes: string[]): void {
    const s = this.s;
    while (this.i < s.length && /[1-6*>]/.test(s[this.i]!)) this.i++;
    if (s[this.i] === '&') {
      this.i++;
      while (this.i < s.length && /\d/.test(s[this.i]!)) this.i++;
      return;
    }
    while (s[this.i] === ' ' || s[this.i] === '\t') this.i++;
    const target = this.newWord();
    while (this.i < s.length && !/[\s;|&)}]/.test(s[this.i]!)) this.readWordPart(target, 0, true);
    if (target.text !== '') writes.push(target.text);
  }

  /** Reads one piece of a word (a run of plain characters, a quoted string, an expansion…). */
  private readWordPart(word: WordBuilder, depth: number, nested: boolean): void {
    const s = this.s;
    const ch = s[this.i]!;
    if (!word.started) {
      word.start = this.i;
      word.started = true;
    }
    if (SINGLE_QUOTES.has(ch)) {
      word.bare = false;
      this.i++;
      while (this.i < s.length) {
        const c = s[this.i]!;
        if (SINGLE_QUOTES.has(c)) {
          if (SINGLE_QUOTES.has(s[this.i + 1] ?? '')) {
            word.text += c;
            this.i += 2;
            continue;
          }
          this.i++;
          return;
        }
        word.text += c;
        this.i++;
      }
      return;
    }
    if (DOUBLE_QUOTES.has(ch)) {
      word.bare = false;
      this.i++;
      this.readDoubleQuoted(word, depth);
      return;
    }
    if (ch === '@' && (s[this.i + 1] === "'" || s[this.i + 1] === '"') && /^\s*$/.test(this.restOfLine(2))) {
      this.readHereString(word);
      return;
    }
    if (ch === '`') {
      const next = s[this.i + 1];
      this.i += 2;
      if (next === undefined || next === '\n' || next === '\r') return;
      word.text += next;
      return;
    }
    if (ch === '$') {
      this.readDollar(word, depth, false);
      return;
    }
    if ((ch === '(' || (ch === '@' && s[this.i + 1] === '(')) && word.text === '') {
      const open = this.i;
      this.i += ch === '@' ? 2 : 1;
      this.readNested(')', depth, true);
      const joined = literalConcatenation(s.slice(open, this.i));
      if (joined !== undefined && !/^[.[]/.test(s[this.i] ?? '')) {
        word.text += joined;
        word.bare = false;
        return;
      }
      word.literal = false;
      word.expression = 'group';
      word.text += '(…)';
      this.readMembers(word, depth);
      return;
    }
    if (ch === '{' || (ch === '@' && s[this.i + 1] === '{')) {
      this.i += ch === '@' ? 2 : 1;
      const before = this.statements.length;
      this.readNested('}', depth, nested);
      word.inner = this.statements.slice(before);
      word.literal = false;
      word.expression ??= 'block';
      word.text += '{…}';
      return;
    }
    if (ch === '[' && word.text === '' && this.matchAt(TYPE_LITERAL, this.i) !== undefined) {
      const end = s.indexOf(']', this.i);
      word.text += s.slice(this.i, end + 1);
      this.i = end + 1;
      word.literal = false;
      word.expression = 'type';
      this.readMembers(word, depth);
      return;
    }
    if (ch === ',' && word.bare) {
      word.items.push(word.text.slice(word.itemStart));
      word.text += ',';
      word.itemStart = word.text.length;
      this.i++;
      return;
    }
    word.text += DASHES.has(ch) && word.text === '' ? '-' : ch;
    this.i++;
  }

  /** The match of a sticky pattern at `at`, without copying the rest of the script. */
  private matchAt(pattern: RegExp, at: number): string | undefined {
    pattern.lastIndex = at;
    return pattern.exec(this.s)?.[0];
  }

  private restOfLine(from: number): string {
    const end = this.s.indexOf('\n', this.i + from);
    return this.s.slice(this.i + from, end < 0 ? this.s.length : end);
  }

  private readHereString(word: WordBuilder): void {
    const quote = this.s[this.i + 1]!;
    const end = this.s.indexOf(`\n${quote}@`, this.i + 2);
    const bodyStart = this.s.indexOf('\n', this.i + 2) + 1;
    const stop = end < 0 ? this.s.length : end;
    word.text += this.s.slice(bodyStart, stop).replace(/\r$/, '');
    word.bare = false;
    if (quote === '"' && /\$[\w({]/.test(word.text)) word.literal = false;
    this.i = end < 0 ? this.s.length : end + 3;
  }

  private readDoubleQuoted(word: WordBuilder, depth: number): void {
    const s = this.s;
    while (this.i < s.length) {
      const c = s[this.i]!;
      if (DOUBLE_QUOTES.has(c)) {
        if (DOUBLE_QUOTES.has(s[this.i + 1] ?? '')) {
          word.text += c;
          this.i += 2;
          continue;
        }
        this.i++;
        return;
      }
      if (c === '`') {
        const next = s[this.i + 1] ?? '';
        word.text += ESCAPES[next] ?? next;
        this.i += 2;
        continue;
      }
      if (c === '$') {
        this.readDollar(word, depth, true);
        continue;
      }
      word.text += c;
      this.i++;
    }
  }

  /** `$name`, `${name}`, `$env:Name`, `$( … )` and `@( … )` inside or outside quotes. */
  private readDollar(word: WordBuilder, depth: number, quoted: boolean): void {
    const s = this.s;
    const next = s[this.i + 1];
    if (next === '(') {
      this.i += 2;
      this.readNested(')', depth, true);
      word.literal = false;
      word.text += '$(…)';
      if (!quoted) {
        word.expression = 'group';
        this.readMembers(word, depth);
      }
      return;
    }
    let name: string;
    if (next === '{') {
      const end = s.indexOf('}', this.i + 2);
      name = s.slice(this.i + 2, end < 0 ? s.length : end);
      this.i = end < 0 ? s.length : end + 1;
    } else {
      const match = this.matchAt(VARIABLE_NAME, this.i + 1);
      if (match === undefined) {
        word.text += '$';
        this.i++;
        return;
      }
      name = match.replace(/:$/, '');
      this.i += 1 + name.length;
    }
    const lower = name.toLowerCase();
    if (lower.startsWith('env:')) word.text += `$env:${name.slice(4)}`;
    else if (this.variables.has(lower)) word.text += this.variables.get(lower);
    else if (lower in KNOWN_VARIABLES) word.text += KNOWN_VARIABLES[lower];
    else {
      word.text += `$${name}`;
      word.literal = false;
    }
    if (!quoted && s[this.i] === '.' && /[A-Za-z]/.test(s[this.i + 1] ?? '')) {
      word.literal = false;
      word.expression = 'group';
      this.readMembers(word, depth);
    }
  }

  /** `.Member`, `::Member`, `[index]` and `(arguments)` after an expression. */
  private readMembers(word: WordBuilder, depth: number): void {
    const s = this.s;
    for (let guard = 0; guard < 64 && this.i < s.length; guard++) {
      const member = this.matchAt(MEMBER, this.i);
      if (member !== undefined) {
        word.text += member.replaceAll('`', '');
        this.i += member.length;
        continue;
      }
      if (s[this.i] === '(') {
        this.i++;
        this.readNested(')', depth, true);
        word.text += '(…)';
        continue;
      }
      if (s[this.i] === '[') {
        const end = s.indexOf(']', this.i);
        if (end < 0) return;
        word.text += s.slice(this.i, end + 1);
        this.i = end + 1;
        continue;
      }
      return;
    }
  }

  private readNested(stop: string, depth: number, nested: boolean): void {
    this.readStatements(stop, depth + 1, nested);
  }
}

/** `('C:' + '\')`: string literals joined with `+` are one literal. */
function literalConcatenation(group: string): string | undefined {
  const match = /^@?\(\s*((?:'[^']*'|"[^"$`]*")(?:\s*\+\s*(?:'[^']*'|"[^"$`]*"))*)\s*\)$/.exec(group);
  if (!match) return undefined;
  return [...match[1]!.matchAll(/'([^']*)'|"([^"]*)"/g)].map((m) => m[1] ?? m[2]).join('');
}

/** Reads a PowerShell script into the statements it would run, nested ones included. */
export function readPowerShell(script: string): PsScript {
  if (script.length > MAX_POWERSHELL_SCRIPT) return { statements: [], truncated: true };
  const reader = new Reader(script);
  try {
    reader.readStatements(undefined, 0, false);
    return { statements: reader.statements, truncated: false };
  } catch (err) {
    if (err instanceof BudgetExceeded) return { statements: reader.statements, truncated: true };
    throw err;
  }
}
