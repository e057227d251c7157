import { lookupTable } from '../../../lib/lookup-table.ts';
/**
 * A bounded reader for cmd.exe command lines: `&`, `&&`, `||`, `|`, `( )` blocks, `^` escapes,
 * `"…"` quoting, `%Var%` and `!Var!` expansion (with `:~start,length` substrings) of the
 * variables whose value is known, `@`, `call`, `start`, `if` conditions and `for … do` loops,
 * whose variable takes the loop's set (`for /d %i in (C:\*) do rd /s /q %i` removes `C:\*`).
 */

export const MAX_CMD_LINE = 32 * 1024;
const MAX_COMMANDS = 1024;

export interface CmdCommand {
  /** Words as the program receives them, quotes removed; the program is the first. */
  words: string[];
  /** `>`/`>>` targets. */
  writes: string[];
  /** `<` sources. */
  reads: string[];
  /** The command before this one in a `|` pipeline. */
  pipedFrom?: CmdCommand;
}

/** What the usual variables hold on a default installation; others stay as written. */
const CMD_VARIABLES: Record<string, string> = lookupTable({
  systemdrive: 'C:',
  systemroot: 'C:\\Windows',
  windir: 'C:\\Windows',
  comspec: 'C:\\Windows\\System32\\cmd.exe',
  homedrive: 'C:',
  homepath: '\\Users\\agent',
  userprofile: 'C:\\Users\\agent',
  public: 'C:\\Users\\Public',
  allusersprofile: 'C:\\ProgramData',
  programdata: 'C:\\ProgramData',
  programfiles: 'C:\\Program Files',
  'programfiles(x86)': 'C:\\Program Files (x86)',
  appdata: 'C:\\Users\\agent\\AppData\\Roaming',
  localappdata: 'C:\\Users\\agent\\AppData\\Local',
  temp: 'C:\\Users\\agent\\AppData\\Local\\Temp',
  tmp: 'C:\\Users\\agent\\AppData\\Local\\Temp',
});

/** Expands `%Var%`, `%Var:~s,n%`, `%Var:a=b%` and `!Var!` where the value is known. */
export function expandCmdVariables(line: string): string {
  return line.replace(
    /%([A-Za-z_][\w()]{0,40})(?::(~-?\d+(?:,-?\d+)?|[^%=]*=[^%]*))?%|!([A-Za-z_][\w()]{0,40})!/g,
    (whole, name: string | undefined, edit: string | undefined, delayed: string | undefined) => {
      const value = CMD_VARIABLES[(name ?? delayed ?? '').toLowerCase()];
      if (value === undefined) return whole;
      if (edit === undefined) return value;
      if (edit.startsWith('~')) {
        const [startText, lengthText] = edit.slice(1).split(',');
        let start = Number(startText);
        if (start < 0) start = Math.max(0, value.length + start);
        let end = value.length;
        if (lengthText !== undefined) {
          const length = Number(lengthText);
          end = length < 0 ? value.length + length : start + length;
        }
        return value.slice(start, Math.max(start, end));
      }
      const eq = edit.indexOf('=');
      const from = edit.slice(0, eq);
      return from === '' ? value : value.split(new RegExp(escapeRegExp(from), 'i')).join(edit.slice(eq + 1));
    },
  );
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

type Token = { word: string; quoted: boolean } | { op: string };

/** Splits a line into words and operators the way cmd's parser does. */
function tokenize(line: string): Token[] {
  const tokens: Token[] = [];
  let word = '';
  let inWord = false;
  let quoted = false;
  let wasQuoted = false;
  const endWord = () => {
    if (inWord) tokens.push({ word, quoted: wasQuoted });
    word = '';
    inWord = false;
    wasQuoted = false;
  };
  for (let i = 0; i < line.length; i++) {
    const ch = line[i]!;
    if (quoted) {
      if (ch === '"') quoted = false;
      else if (ch === '\n') {
        quoted = false;
        endWord();
        tokens.push({ op: '\n' });
      } else word += ch;
      continue;
    }
    if (ch === '"') {
      quoted = true;
      inWord = true;
      wasQuoted = true;
    } else if (ch === '^') {
      const next = line[i + 1];
      if (next === '\n') i++;
      else if (next !== undefined) {
        word += next;
        inWord = true;
        i++;
      }
    } else if (ch === ' ' || ch === '\t' || ((ch === ',' || ch === ';') && !word.startsWith('\\'))) {
      // `,` and `;` part the words of cmd's built-ins, but not a computer list or UNC path
      // (`psexec \\fs01,fs02 …`), which the program receives whole.
      endWord();
    } else if (ch === '&' || ch === '|') {
      endWord();
      const double = line[i + 1] === ch;
      tokens.push({ op: double ? ch + ch : ch });
      if (double) i++;
    } else if (ch === '\n' || ch === '\r' || ch === '(' || ch === ')') {
      endWord();
      tokens.push({ op: ch === '\r' ? '\n' : ch });
    } else if (ch === '>' || ch === '<') {
      // `2>`, `1>>`: the stream digit belongs to the operator.
      if (inWord && /^[0-9]$/.test(word)) {
        word = '';
        inWord = false;
      }
      endWord();
      let op = ch;
      if (line[i + 1] === '>' && ch === '>') {
        op = '>>';
        i++;
      }
      if (line[i + 1] === '&') {
        i += 2;
        continue;
      }
      tokens.push({ op });
    } else {
      word += ch;
      inWord = true;
    }
  }
  endWord();
  return tokens;
}

/** Reads a cmd line into the simple commands it would run, in order. */
export function readCmd(line: string): { commands: CmdCommand[]; truncated: boolean } {
  if (line.length > MAX_CMD_LINE) return { commands: [], truncated: true };
  const tokens = tokenize(expandCmdVariables(line));
  const commands: CmdCommand[] = [];
  let current: CmdCommand = { words: [], writes: [], reads: [] };
  let pipedFrom: CmdCommand | undefined;
  /** `for` loop variables and the set each stands for. */
  const loopValues = new Map<string, string>();
  /** `set name=value` seen so far, for `!name!` (delayed expansion) and later lines' `%name%`. */
  const setValues = new Map<string, RegExp>();
  const setText = new Map<string, string>();
  /** Where each open `(` group starts in `commands`, and the last group closed. */
  const groups: number[] = [];
  let closed: CmdCommand[] | undefined;
  const finish = (pipe: boolean) => {
    const assignment =
      current.words[0]?.toLowerCase() === 'set'
        ? /^([^=\s/]{1,40})=(.*)$/.exec(current.words[1] ?? '')
        : null;
    if (assignment && setValues.size < 64) {
      const name = assignment[1]!.toLowerCase();
      setValues.set(name, new RegExp(`[!%]${escapeRegExp(name)}[!%]`, 'gi'));
      setText.set(name, assignment[2]!);
    }
    if (current.words.length > 0) {
      const command = pipedFrom ? { ...current, pipedFrom } : current;
      commands.push(command);
      pipedFrom = pipe ? command : undefined;
    } else if (pipe && closed !== undefined) {
      // `(echo a & echo b) | prog`: prog reads what every echo of the group prints.
      const printed = closed
        .filter((c) => c.words[0]?.toLowerCase() === 'echo')
        .flatMap((c) => c.words.slice(1));
      pipedFrom = { words: ['echo', ...printed], writes: [], reads: [] };
    } else if (!pipe) pipedFrom = undefined;
    closed = undefined;
    current = { words: [], writes: [], reads: [] };
  };
  for (let t = 0; t < tokens.length && commands.length < MAX_COMMANDS; t++) {
    const token = tokens[t]!;
    if ('op' in token) {
      if (token.op === '>' || token.op === '>>' || token.op === '<') {
        const target = tokens[t + 1];
        if (target && 'word' in target) {
          (token.op === '<' ? current.reads : current.writes).push(target.word);
          t++;
        }
      } else if (token.op === '(' && current.words.length > 0) {
        // Only a command's start opens a group; elsewhere `(…)` is text (`cmd /c for … in (C:\*) do …`).
        const inner: string[] = [];
        let depth = 1;
        for (t++; t < tokens.length; t++) {
          const next = tokens[t]!;
          const text = 'op' in next ? next.op : next.word;
          if (text === '(') depth++;
          else if (text === ')' && --depth === 0) break;
          inner.push(text);
        }
        current.words.push(`(${inner.join(' ')})`);
      } else if (token.op === '(') {
        finish(false);
        groups.push(commands.length);
      } else if (token.op === ')' && groups.length === 0) {
        current.words.push(')');
      } else if (token.op === ')') {
        finish(false);
        closed = commands.slice(groups.pop() ?? 0);
      } else finish(token.op === '|');
      continue;
    }
    let text = token.word;
    for (const [variable, value] of loopValues) text = text.split(variable).join(value);
    if (text.includes('!') || text.includes('%')) {
      for (const [name, pattern] of setValues) text = text.replace(pattern, () => setText.get(name) ?? '');
    }
    if (current.words.length === 0) {
      const keyword = text.replace(/^@+/, '').toLowerCase();
      if (keyword === '') continue;
      if (keyword === 'call' || keyword === 'else' || keyword === 'do') continue;
      if (keyword === 'start') {
        t = skipStartOptions(tokens, t);
        continue;
      }
      if (keyword === 'if') {
        t = skipIfCondition(tokens, t);
        continue;
      }
      if (keyword === 'for') {
        t = readForHeader(tokens, t, loopValues);
        continue;
      }
      text = text.replace(/^@+/, '');
    }
    current.words.push(text);
  }
  finish(false);
  return { commands, truncated: commands.length >= MAX_COMMANDS };
}

function wordAt(tokens: Token[], t: number): string | undefined {
  const token = tokens[t];
  return token && 'word' in token ? token.word : undefined;
}

/** `start ["title"] [/b /wait /min /d dir …] command`: the index of the last option. */
function skipStartOptions(tokens: Token[], t: number): number {
  let k = t + 1;
  const first = tokens[k];
  // A quoted first argument is the window title.
  if (first && 'word' in first && first.quoted) k++;
  for (;;) {
    const option = wordAt(tokens, k);
    if (option === undefined || !option.startsWith('/')) break;
    k += /^\/(d|affinity|node)$/i.test(option) ? 2 : 1;
  }
  return k - 1;
}

/** `if [/i] [not] exist X | defined X | errorlevel N | a==b | a op b`: the condition's end. */
function skipIfCondition(tokens: Token[], t: number): number {
  let k = t + 1;
  while (/^(\/i|not)$/i.test(wordAt(tokens, k) ?? '')) k++;
  const head = (wordAt(tokens, k) ?? '').toLowerCase();
  if (['exist', 'defined', 'errorlevel', 'cmdextversion'].includes(head)) return k + 1;
  if (head.includes('==')) return head.endsWith('==') ? k + 1 : k;
  if (wordAt(tokens, k + 1) === '==' || /^(equ|neq|lss|leq|gtr|geq)$/i.test(wordAt(tokens, k + 1) ?? ''))
    return k + 2;
  if ((wordAt(tokens, k + 1) ?? '').startsWith('==')) return k + 1;
  return k;
}

/**
 * `for [/d|/r [root]|/l|/f "opts"] %x in (set) do`: records what `%x` stands for (the set's
 * first item, under `/r` joined to the root) and returns the index of `do`.
 */
function readForHeader(tokens: Token[], t: number, loopValues: Map<string, string>): number {
  let k = t + 1;
  let root: string | undefined;
  for (;;) {
    const option = wordAt(tokens, k);
    if (option === undefined || !option.startsWith('/')) break;
    k++;
    if (/^\/r$/i.test(option) && !(wordAt(tokens, k) ?? '%').startsWith('%')) root = wordAt(tokens, k++);
    else if (/^\/f$/i.test(option) && !(wordAt(tokens, k) ?? '%').startsWith('%')) k++;
  }
  const variable = wordAt(tokens, k);
  if (variable === undefined || !/^%%?\w$/.test(variable)) return k - 1;
  k++;
  if ((wordAt(tokens, k) ?? '').toLowerCase() !== 'in') return k - 1;
  k++;
  const open = tokens[k];
  if (!open || !('op' in open) || open.op !== '(') return k - 1;
  const set: string[] = [];
  k++;
  while (k < tokens.length) {
    const token = tokens[k]!;
    if ('op' in token) break;
    set.push(token.word);
    k++;
  }
  k++;
  const first = set[0] ?? '';
  let value = first;
  if (root !== undefined) value = `${root.replace(/[\\/]+$/, '')}\\${first}`;
  loopValues.set(variable, value);
  loopValues.set(variable.replace(/^%%/, '%'), value);
  if ((wordAt(tokens, k) ?? '').toLowerCase() === 'do') return k;
  return k - 1;
}
