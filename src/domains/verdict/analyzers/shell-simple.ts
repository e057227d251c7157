/**
 * A linear reader for the shell commands agents send most: words, quotes, plain `$VAR` and
 * `${VAR}` expansions, simple redirections and `|`, `&&`, `||`, `;`, `&` lists. It yields
 * exactly what the mvdan/sh walk in shell.ts would see for such a script (the differential
 * test holds the two to that) and gives up, returning undefined, on anything with more
 * structure: substitutions, subshells, groups, here-documents, escapes, comments, keywords,
 * declarations. Those go to the real parser.
 */

/** A piece of a word: literal text, or a `$NAME` expansion (split into fields when unquoted). */
export type SimplePart = { lit: string } | { param: string; quoted: boolean };

export interface SimpleWord {
  text: string;
  dynamic: boolean;
  parts: SimplePart[];
}

export interface SimpleRedirect {
  kind: 'out' | 'in';
  target: string;
  /** An output redirection of standard output (`>`, `>>`, `&>`), not of another descriptor. */
  stdout?: boolean;
  /** `>>` or `&>>`: appended to the file. */
  append?: boolean;
}

export interface SimpleStatement {
  /** Leading `NAME=value` assignments. */
  assigns: { name: string; value: SimpleWord }[];
  words: SimpleWord[];
  redirects: SimpleRedirect[];
  /** The statement reads the output of the one before it through a pipe. */
  piped: boolean;
}

/** The shell's reserved words (bash's `compgen -k`): the one list the shell readers share. */
export const RESERVED_WORDS: ReadonlySet<string> = new Set([
  '!',
  'case',
  'coproc',
  'do',
  'done',
  'elif',
  'else',
  'esac',
  'fi',
  'for',
  'function',
  'if',
  'in',
  'select',
  'then',
  'time',
  'until',
  'while',
  '{',
  '}',
  '[[',
  ']]',
]);

/** Words that open or shape a compound command, or declare: the parser reads them differently. */
export const STRUCTURAL: ReadonlySet<string> = new Set([
  ...RESERVED_WORDS,
  'export',
  'declare',
  'local',
  'readonly',
  'typeset',
  'let',
  'nameref',
]);
const NAME_START = /[A-Za-z_]/;
const NAME_CHAR = /[A-Za-z0-9_]/;
const SPECIAL_PARAM = /[?#$!@*\-0-9]/;
const UNQUOTED_STOP = new Set([' ', '\t', '|', '&', ';', '<', '>']);
/** Characters that end the fast path wherever they appear outside single quotes. */
const GIVE_UP = new Set(['(', ')', '`', '\\', '{', '}', '\n', '\r']);

/** Characters that end a run of plain word characters. */
const PLAIN_STOP = new Set([...UNQUOTED_STOP, ...GIVE_UP, '!', "'", '"', '$']);

class GiveUp extends Error {}

/** Appends literal text to a word's parts, joining it to a literal part before it. */
function pushLit(parts: SimplePart[], text: string): void {
  const last = parts[parts.length - 1];
  if (last !== undefined && 'lit' in last) last.lit += text;
  else parts.push({ lit: text });
}

/** The value part of a `NAME=value` word. */
function assignedWord(word: SimpleWord): SimpleWord {
  const parts = [...word.parts];
  const first = parts[0];
  if (first !== undefined && 'lit' in first) {
    const rest = first.lit.slice(first.lit.indexOf('=') + 1);
    if (rest === '') parts.shift();
    else parts[0] = { lit: rest };
  }
  return { text: word.text.slice(word.text.indexOf('=') + 1), dynamic: word.dynamic, parts };
}

export function readSimpleScript(script: string): SimpleStatement[] | undefined {
  try {
    return new Reader(script).statements();
  } catch (err) {
    if (err instanceof GiveUp) return undefined;
    throw err;
  }
}

class Reader {
  private i = 0;

  constructor(private readonly s: string) {}

  statements(): SimpleStatement[] {
    const out: SimpleStatement[] = [];
    let piped = false;
    for (;;) {
      this.skipBlanks();
      if (this.i >= this.s.length) {
        if (piped) throw new GiveUp();
        return out;
      }
      const stmt = this.statement(piped);
      out.push(stmt);
      this.skipBlanks();
      if (this.i >= this.s.length) return out;
      const c = this.s[this.i];
      const next = this.s[this.i + 1];
      if (c === '|' && next === '|') {
        this.i += 2;
        piped = false;
        this.requireMore();
      } else if (c === '|') {
        if (next === '&') throw new GiveUp();
        this.i += 1;
        piped = true;
        this.requireMore();
      } else if (c === '&' && next === '&') {
        this.i += 2;
        piped = false;
        this.requireMore();
      } else if (c === ';' || c === '&') {
        if (next === ';' || next === '&' || next === '|') throw new GiveUp();
        this.i += 1;
        piped = false;
      } else {
        throw new GiveUp();
      }
    }
  }

  private requireMore(): void {
    this.skipBlanks();
    if (this.i >= this.s.length) throw new GiveUp();
  }

  private statement(piped: boolean): SimpleStatement {
    const stmt: SimpleStatement = { assigns: [], words: [], redirects: [], piped };
    for (;;) {
      this.skipBlanks();
      if (this.i >= this.s.length) break;
      const c = this.s[this.i]!;
      if (c === '|' || c === ';') break;
      if (c === '&') {
        if (this.s[this.i + 1] === '>') {
          const append = this.s[this.i + 2] === '>';
          this.i += append ? 3 : 2;
          this.redirect(stmt, 'out', true, append);
          continue;
        }
        break;
      }
      if (c === '>' || c === '<') {
        this.redirection(stmt, true);
        continue;
      }
      const start = this.i;
      const word = this.word();
      const raw = this.s.slice(start, this.i);
      // `2>file`: a word of digits glued to a redirection is the descriptor, not an argument.
      if (/^\d+$/.test(raw) && (this.s[this.i] === '>' || this.s[this.i] === '<')) {
        this.redirection(stmt, raw === '1');
        continue;
      }
      if (stmt.words.length === 0) {
        if (/^[A-Za-z_][A-Za-z0-9_]*(?:\+=|\[)/.test(raw)) throw new GiveUp();
        if (/^[A-Za-z_][A-Za-z0-9_]*=/.test(raw)) {
          stmt.assigns.push({ name: raw.slice(0, raw.indexOf('=')), value: assignedWord(word) });
          continue;
        }
        if (STRUCTURAL.has(raw)) throw new GiveUp();
      }
      stmt.words.push(word);
    }
    if (stmt.words.length === 0 && stmt.assigns.length === 0 && stmt.redirects.length === 0)
      throw new GiveUp();
    return stmt;
  }

  private redirection(stmt: SimpleStatement, stdout: boolean): void {
    const c = this.s[this.i]!;
    const next = this.s[this.i + 1];
    if (c === '<') {
      if (next === '<' || next === '>' || next === '&' || next === '(') throw new GiveUp();
      this.i += 1;
      this.redirect(stmt, 'in', false, false);
      return;
    }
    if (next === '|' || next === '(') throw new GiveUp();
    // `>&file` is a duplication the parser walk does not take as a write of standard output.
    if (next === '>') this.i += 2;
    else if (next === '&') {
      this.i += 2;
      this.redirect(stmt, 'out', false, false);
      return;
    } else this.i += 1;
    this.redirect(stmt, 'out', stdout, next === '>');
  }

  private redirect(stmt: SimpleStatement, kind: 'out' | 'in', stdout: boolean, append: boolean): void {
    this.skipBlanks();
    if (this.i >= this.s.length || UNQUOTED_STOP.has(this.s[this.i]!)) throw new GiveUp();
    const target = this.word().text;
    // Like the parser walk: `>&2`, `2>&1`, `>&-` (and a file named by digits alone) are not paths.
    if (kind === 'in' || !/^\d+$|^-$/.test(target))
      stmt.redirects.push(stdout ? { kind, target, stdout, append } : { kind, target });
  }

  private word(): SimpleWord {
    let text = '';
    let dynamic = false;
    const parts: SimplePart[] = [];
    const s = this.s;
    if (s[this.i] === '#') throw new GiveUp();
    while (this.i < s.length) {
      const c = s[this.i]!;
      if (UNQUOTED_STOP.has(c)) break;
      if (GIVE_UP.has(c) || c === '!') throw new GiveUp();
      if (c === "'") {
        const end = s.indexOf("'", this.i + 1);
        if (end < 0) throw new GiveUp();
        text += s.slice(this.i + 1, end);
        pushLit(parts, s.slice(this.i + 1, end));
        this.i = end + 1;
      } else if (c === '"') {
        // `""` is a word, if an empty one.
        pushLit(parts, '');
        this.i += 1;
        for (;;) {
          if (this.i >= s.length) throw new GiveUp();
          const d = s[this.i]!;
          if (d === '"') {
            this.i += 1;
            break;
          }
          if (d === '`' || d === '\\') throw new GiveUp();
          if (d === '$') {
            const param = this.param();
            text += param.text;
            dynamic ||= param.dynamic;
            parts.push({ param: param.name, quoted: true });
          } else {
            text += d;
            pushLit(parts, d);
            this.i += 1;
          }
        }
      } else if (c === '$') {
        const param = this.param();
        text += param.text;
        dynamic ||= param.dynamic;
        parts.push({ param: param.name, quoted: false });
      } else {
        // A run of plain characters at once.
        let end = this.i + 1;
        while (end < s.length && !PLAIN_STOP.has(s[end]!)) end++;
        const run = s.slice(this.i, end);
        text += run;
        pushLit(parts, run);
        this.i = end;
      }
    }
    return { text, dynamic, parts };
  }

  /** `$NAME`, `${NAME}` or a special parameter; the parser's walk writes `$HOME` as `~`. */
  private param(): { text: string; dynamic: boolean; name: string } {
    const s = this.s;
    let name: string;
    const next = s[this.i + 1] ?? '';
    if (next === '{') {
      let j = this.i + 2;
      if (!NAME_START.test(s[j] ?? '')) throw new GiveUp();
      while (NAME_CHAR.test(s[j] ?? '')) j++;
      if (s[j] !== '}') throw new GiveUp();
      name = s.slice(this.i + 2, j);
      this.i = j + 1;
    } else if (NAME_START.test(next)) {
      let j = this.i + 1;
      while (NAME_CHAR.test(s[j] ?? '')) j++;
      name = s.slice(this.i + 1, j);
      this.i = j;
    } else if (SPECIAL_PARAM.test(next) && next !== '') {
      name = next;
      this.i += 2;
    } else {
      throw new GiveUp();
    }
    return name === 'HOME' ? { text: '~', dynamic: false, name } : { text: `$${name}`, dynamic: true, name };
  }

  private skipBlanks(): void {
    while (this.s[this.i] === ' ' || this.s[this.i] === '\t') this.i++;
  }
}
