import { lookupTable } from '../../../lib/lookup-table.ts';
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

export interface PsWord {
  /** The text PowerShell would pass, with unknown expansions shown as `$name` or `(…)`. */
  text: string;
  /** Items of an unquoted comma list (`C:\,D:\`); one item otherwise. */
  items: string[];
  /** Every part is known: no unknown variable, subexpression or member call. */
  literal: boolean;
  /** Written without quotes, so a leading `-` makes it a parameter name. */
  bare: boolean;
  /** A `( )`, `$( )`, `[Type]::…` or `{ }` value rather than a string. */
  expression?: 'group' | 'block' | 'type';
  /** The word as written, for calls such as `[IO.Directory]::Delete('C:\', $true)`. */
  raw: string;
  /** The statements of a `{ }` script block. */
  inner?: PsStatement[];
}

export interface PsStatement {
  words: PsWord[];
  /** Written after the call operator `&` or dot-sourcing `.`: the first word is what runs. */
  invoked: boolean;
  /** The pipeline element before this one, whose output this one reads. */
  pipedFrom?: PsStatement;
  /** `>`/`>>` targets. */
  writes: string[];
  /** Reached through `( )`, `$( )` or a method argument of another statement's word. */
  nested: boolean;
}

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

// ------------------------------------------------------------------------ cmdlets

interface ParameterSpec {
  /** Takes no value: `-Recurse`, `-Force`, or `-Recurse:$false` to turn it off. */
  switch?: boolean;
  aliases?: string[];
}

interface CmdletSpec {
  parameters: Record<string, ParameterSpec>;
  /** Parameters bound by position, in order. */
  positional: string[];
}

const COMMON_PARAMETERS: Record<string, ParameterSpec> = lookupTable({
  Verbose: { switch: true, aliases: ['vb'] },
  Debug: { switch: true, aliases: ['db'] },
  ErrorAction: { aliases: ['ea'] },
  WarningAction: { aliases: ['wa'] },
  InformationAction: { aliases: ['infa'] },
  ProgressAction: { aliases: ['proga'] },
  ErrorVariable: { aliases: ['ev'] },
  WarningVariable: { aliases: ['wv'] },
  InformationVariable: { aliases: ['iv'] },
  OutVariable: { aliases: ['ov'] },
  OutBuffer: { aliases: ['ob'] },
  PipelineVariable: { aliases: ['pv'] },
  WhatIf: { switch: true, aliases: ['wi'] },
  Confirm: { switch: true, aliases: ['cf'] },
});

const PROVIDER_PATH: Record<string, ParameterSpec> = lookupTable({
  Path: {},
  LiteralPath: { aliases: ['PSPath', 'LP'] },
  Filter: {},
  Include: {},
  Exclude: {},
  Force: { switch: true },
  Credential: {},
});

/** The cmdlets whose parameters the rules read; others keep their words as written. */
const CMDLETS: Record<string, CmdletSpec> = lookupTable<CmdletSpec>({
  'Remove-Item': {
    parameters: { ...PROVIDER_PATH, Recurse: { switch: true }, Stream: {} },
    positional: ['Path'],
  },
  'Get-ChildItem': {
    parameters: {
      ...PROVIDER_PATH,
      Recurse: { switch: true, aliases: ['s'] },
      Depth: {},
      Name: { switch: true },
      Attributes: {},
      Directory: { switch: true, aliases: ['ad', 'd'] },
      File: { switch: true, aliases: ['af'] },
      Hidden: { switch: true, aliases: ['ah', 'h'] },
      ReadOnly: { switch: true, aliases: ['ar'] },
      System: { switch: true, aliases: ['as'] },
      FollowSymlink: { switch: true },
    },
    positional: ['Path', 'Filter'],
  },
  'Get-Item': {
    parameters: { ...PROVIDER_PATH, Stream: {} },
    positional: ['Path'],
  },
  'Get-Content': {
    parameters: {
      ...PROVIDER_PATH,
      ReadCount: {},
      TotalCount: { aliases: ['First', 'Head'] },
      Tail: { aliases: ['Last'] },
      Delimiter: {},
      Wait: { switch: true },
      Raw: { switch: true },
      Encoding: {},
      AsByteStream: { switch: true },
      Stream: {},
    },
    positional: ['Path'],
  },
  'Invoke-Expression': { parameters: { Command: {} }, positional: ['Command'] },
  'Invoke-Command': {
    parameters: {
      ScriptBlock: { aliases: ['Command'] },
      ComputerName: { aliases: ['Cn'] },
      FilePath: {},
      ArgumentList: { aliases: ['Args'] },
      AsJob: { switch: true },
      Session: {},
      NoNewScope: { switch: true },
    },
    positional: ['ScriptBlock'],
  },
  'Start-Process': {
    parameters: {
      FilePath: { aliases: ['PSPath', 'Path'] },
      ArgumentList: { aliases: ['Args'] },
      Verb: {},
      WorkingDirectory: {},
      Wait: { switch: true },
      NoNewWindow: { switch: true, aliases: ['nnw'] },
      PassThru: { switch: true },
      WindowStyle: {},
      Credential: { aliases: ['RunAs'] },
      LoadUserProfile: { switch: true, aliases: ['Lup'] },
      RedirectStandardOutput: { aliases: ['RSO'] },
      RedirectStandardError: { aliases: ['RSE'] },
      RedirectStandardInput: { aliases: ['RSI'] },
      UseNewEnvironment: { switch: true },
    },
    positional: ['FilePath', 'ArgumentList'],
  },
  'Invoke-WebRequest': {
    parameters: {
      Uri: {},
      Method: {},
      OutFile: {},
      UseBasicParsing: { switch: true },
      Headers: {},
      Body: {},
      InFile: {},
    },
    positional: ['Uri'],
  },
  'Invoke-RestMethod': {
    parameters: { Uri: {}, Method: {}, OutFile: {}, Headers: {}, Body: {}, InFile: {} },
    positional: ['Uri'],
  },
  'Format-Volume': {
    parameters: {
      DriveLetter: {},
      FileSystemLabel: {},
      FileSystem: {},
      NewFileSystemLabel: {},
      Full: { switch: true },
      Force: { switch: true },
      Path: {},
      ObjectId: {},
      Partition: {},
      InputObject: {},
    },
    positional: ['DriveLetter'],
  },
  'Clear-Disk': {
    parameters: {
      Number: { aliases: ['DiskNumber'] },
      FriendlyName: {},
      RemoveData: { switch: true },
      RemoveOEM: { switch: true },
      ZeroOutEntireDisk: { switch: true },
      UniqueId: {},
      Path: {},
      InputObject: {},
    },
    positional: ['Number'],
  },
  'Set-MpPreference': {
    parameters: {
      DisableRealtimeMonitoring: {},
      DisableBehaviorMonitoring: {},
      DisableIOAVProtection: {},
      DisableScriptScanning: {},
      DisableIntrusionPreventionSystem: {},
      ExclusionPath: {},
      ExclusionProcess: {},
    },
    positional: [],
  },
  'Set-NetFirewallProfile': {
    parameters: { Profile: {}, Name: {}, Enabled: {}, All: { switch: true } },
    positional: [],
  },
  'Stop-Computer': {
    parameters: {
      ComputerName: { aliases: ['CN', '__SERVER', 'Server', 'IPAddress'] },
      Force: { switch: true },
    },
    positional: ['ComputerName'],
  },
  'Restart-Computer': {
    parameters: {
      ComputerName: { aliases: ['CN', '__SERVER', 'Server', 'IPAddress'] },
      Force: { switch: true },
      Wait: { switch: true },
    },
    positional: ['ComputerName'],
  },
  'Stop-Service': {
    parameters: {
      Name: { aliases: ['ServiceName'] },
      Force: { switch: true },
      DisplayName: {},
      InputObject: {},
    },
    positional: ['Name'],
  },
  'Set-Service': {
    parameters: {
      Name: { aliases: ['ServiceName', 'SN'] },
      StartupType: { aliases: ['StartMode', 'SM', 'ST'] },
      Status: {},
    },
    positional: ['Name'],
  },
  'Clear-EventLog': {
    parameters: { LogName: { aliases: ['LN'] }, ComputerName: { aliases: ['CN'] } },
    positional: ['LogName'],
  },
  'Write-Output': {
    parameters: { InputObject: {}, NoEnumerate: { switch: true } },
    positional: ['InputObject'],
  },
  'Set-Alias': {
    parameters: {
      Name: {},
      Value: {},
      Option: {},
      Scope: {},
      Description: {},
      Force: { switch: true },
      PassThru: { switch: true },
    },
    positional: ['Name', 'Value'],
  },
});

const NO_PARAMETERS: CmdletSpec = { parameters: {}, positional: [] };

/** Other cmdlets and functions PowerShell knows by name: their words are kept as written. */
const OTHER_CMDLETS = [
  'Set-Content',
  'Add-Content',
  'Clear-Content',
  'Copy-Item',
  'Move-Item',
  'New-Item',
  'Rename-Item',
  'Set-Item',
  'Out-File',
  'Set-ItemProperty',
  'Remove-ItemProperty',
  'New-Object',
  'Stop-Process',
  'ForEach-Object',
  'Where-Object',
  'Get-Command',
  'Get-WmiObject',
  'Get-CimInstance',
  'Remove-CimInstance',
  'Remove-WmiObject',
  'Invoke-WmiMethod',
  'Invoke-CimMethod',
  'Remove-Partition',
  'Initialize-Disk',
  'Clear-RecycleBin',
  'Disable-NetFirewallRule',
  'Set-ExecutionPolicy',
  'Set-Location',
  'Get-Location',
  'Write-Host',
  'Select-Object',
  'Sort-Object',
  'Select-String',
  'Test-Path',
  'Get-Process',
  'Get-Service',
  'Start-Service',
  'Restart-Service',
  'wevtutil',
];

const ALIASES: Record<string, string> = lookupTable({
  rm: 'Remove-Item',
  del: 'Remove-Item',
  erase: 'Remove-Item',
  rd: 'Remove-Item',
  rmdir: 'Remove-Item',
  ri: 'Remove-Item',
  iex: 'Invoke-Expression',
  icm: 'Invoke-Command',
  iwr: 'Invoke-WebRequest',
  curl: 'Invoke-WebRequest',
  wget: 'Invoke-WebRequest',
  irm: 'Invoke-RestMethod',
  gc: 'Get-Content',
  cat: 'Get-Content',
  type: 'Get-Content',
  gci: 'Get-ChildItem',
  ls: 'Get-ChildItem',
  dir: 'Get-ChildItem',
  saps: 'Start-Process',
  start: 'Start-Process',
  echo: 'Write-Output',
  write: 'Write-Output',
  sc: 'Set-Content',
  ac: 'Add-Content',
  clc: 'Clear-Content',
  cp: 'Copy-Item',
  copy: 'Copy-Item',
  cpi: 'Copy-Item',
  mv: 'Move-Item',
  move: 'Move-Item',
  mi: 'Move-Item',
  ni: 'New-Item',
  rni: 'Rename-Item',
  ren: 'Rename-Item',
  gi: 'Get-Item',
  sp: 'Set-ItemProperty',
  rp: 'Remove-ItemProperty',
  kill: 'Stop-Process',
  spps: 'Stop-Process',
  '%': 'ForEach-Object',
  foreach: 'ForEach-Object',
  '?': 'Where-Object',
  where: 'Where-Object',
  gcm: 'Get-Command',
  gwmi: 'Get-WmiObject',
  rwmi: 'Remove-WmiObject',
  gcim: 'Get-CimInstance',
  rcim: 'Remove-CimInstance',
  cd: 'Set-Location',
  sl: 'Set-Location',
  chdir: 'Set-Location',
  pwd: 'Get-Location',
  gl: 'Get-Location',
  sal: 'Set-Alias',
  nal: 'Set-Alias',
  'new-alias': 'Set-Alias',
  ps: 'Get-Process',
  gps: 'Get-Process',
  gsv: 'Get-Service',
  spsv: 'Stop-Service',
  select: 'Select-Object',
  sort: 'Sort-Object',
  sls: 'Select-String',
});

const CANONICAL = new Map<string, string>();
for (const name of [...Object.keys(CMDLETS), ...OTHER_CMDLETS]) CANONICAL.set(name.toLowerCase(), name);
for (const [alias, name] of Object.entries(ALIASES)) CANONICAL.set(alias, name);

/** Aliases that only exist in PowerShell; `rm`, `cat`, `curl`… are also programs elsewhere. */
export const POWERSHELL_ONLY_ALIASES = new Set([
  'iex',
  'icm',
  'iwr',
  'irm',
  'gc',
  'gci',
  'ri',
  'saps',
  'gwmi',
  'rwmi',
  'gcim',
  'rcim',
  'spps',
  'gsv',
  'spsv',
]);

/** The cmdlet a command name stands for (`rm` → `Remove-Item`), or undefined. */
export function cmdletName(name: string): string | undefined {
  const unqualified = name.slice(name.lastIndexOf('\\') + 1).toLowerCase();
  const known = CANONICAL.get(unqualified);
  if (known) return known;
  const verb = /^([a-z]+)-[a-z][a-z0-9]*$/.exec(unqualified)?.[1];
  return verb !== undefined && APPROVED_VERBS.has(verb) ? unqualified : undefined;
}

/** PowerShell's approved verbs (Get-Verb): `apt-get` or `docker-compose` are no cmdlets. */
const APPROVED_VERBS = new Set(
  (
    'add approve assert backup block build checkpoint clear close compare complete compress confirm connect ' +
    'convert convertfrom convertto copy debug deny deploy disable disconnect dismount edit enable enter exit ' +
    'expand export find format get grant group hide import initialize install invoke join limit lock measure ' +
    'merge mount move new open optimize out ping pop protect publish push read receive redo register remove ' +
    'rename repair request reset resize resolve restart restore resume revoke save search select send set show ' +
    'skip split start step stop submit suspend switch sync test trace unblock undo uninstall unlock unprotect ' +
    'unpublish unregister update use wait watch where write foreach'
  ).split(' '),
);

export interface BoundCmdlet {
  name: string;
  /** Parameter values by full name; switches hold `'$true'`. */
  named: Map<string, string[]>;
  /** Words that bound to no parameter. */
  rest: string[];
  /** The same, as an argv a rule can read: `[name, -Param, value, …, rest…]`. */
  argv: string[];
}

interface ParameterTable {
  exact: Map<string, [string, ParameterSpec]>;
  names: [string, ParameterSpec][];
}

const parameterTables = new WeakMap<CmdletSpec, ParameterTable>();

function parameterTable(spec: CmdletSpec): ParameterTable {
  let table = parameterTables.get(spec);
  if (table !== undefined) return table;
  const names = Object.entries({ ...COMMON_PARAMETERS, ...spec.parameters });
  const exact = new Map<string, [string, ParameterSpec]>();
  for (const entry of names) {
    exact.set(entry[0].toLowerCase(), entry);
    for (const alias of entry[1].aliases ?? []) exact.set(alias.toLowerCase(), entry);
  }
  table = {
    exact,
    names: names.map(([name, parameter]) => [name.toLowerCase(), parameter] as [string, ParameterSpec]),
  };
  parameterTables.set(spec, table);
  return table;
}

function resolveParameter(spec: CmdletSpec, typed: string): [string, ParameterSpec] | undefined {
  const table = parameterTable(spec);
  const lower = typed.toLowerCase();
  const exact = table.exact.get(lower);
  if (exact !== undefined) return exact;
  const candidates = table.names
    .filter(([name]) => name.startsWith(lower))
    .map(([name]) => table.exact.get(name)!);
  // PowerShell refuses an ambiguous prefix (`-f`: Filter or Force?). Reading it as the switch
  // it could be keeps the path after it a path, the reading that can do harm.
  return candidates.find(([, parameter]) => parameter.switch) ?? candidates[0];
}

/**
 * Binds a cmdlet's words the way PowerShell would: parameter names by unambiguous prefix
 * (`-Rec` is `-Recurse`), `-Name:value`, switches turned off with `:$false`, positional values.
 */
export function bindCmdlet(name: string, words: readonly PsWord[]): BoundCmdlet {
  const spec = CMDLETS[name] ?? NO_PARAMETERS;
  const named = new Map<string, string[]>();
  const rest: string[] = [];
  const add = (parameter: string, values: string[]) => {
    named.set(parameter, [...(named.get(parameter) ?? []), ...values]);
  };
  let position = 0;
  for (let i = 0; i < words.length; i++) {
    const word = words[i]!;
    const parameterForm = word.bare && /^-[A-Za-z_?][\w-]*:?/.exec(word.text);
    if (parameterForm) {
      const colon = word.text.indexOf(':');
      const typed = word.text.slice(1, colon < 0 ? undefined : colon);
      const resolved = resolveParameter(spec, typed);
      if (resolved === undefined) {
        rest.push(word.text);
        continue;
      }
      const [parameter, { switch: isSwitch }] = resolved;
      if (colon >= 0) {
        const inline = word.text.slice(colon + 1);
        const value = inline === '' ? (words[++i]?.text ?? '') : inline;
        if (isSwitch) {
          if (!/^\$?(false|0)$/i.test(value)) add(parameter, ['$true']);
        } else
          add(parameter, colon >= 0 && inline !== '' ? splitItems(inline) : (words[i]?.items ?? [value]));
      } else if (isSwitch) add(parameter, ['$true']);
      else {
        // A value parameter with nothing after it keeps an empty value: a POSIX reading of
        // `"… -DisableRealtimeMonitoring $true"` erases `$true`.
        const value = words[++i];
        add(parameter, value ? (value.items.length > 0 ? value.items : [value.text]) : ['']);
      }
      continue;
    }
    const slot = spec.positional[position];
    if (slot !== undefined && !named.has(slot)) {
      add(slot, word.items.length > 0 ? word.items : [word.text]);
      position++;
    } else rest.push(word.text);
  }
  const argv = [name];
  const own = CMDLETS[name]?.parameters ?? {};
  const specOf = (parameter: string) =>
    Object.hasOwn(own, parameter) ? own[parameter] : COMMON_PARAMETERS[parameter];
  for (const [parameter, values] of named) {
    for (const value of values) {
      argv.push(`-${parameter}`);
      if (value !== '$true' || !specOf(parameter)?.switch) argv.push(value);
    }
  }
  argv.push(...rest);
  return { name, named, rest, argv };
}

function splitItems(text: string): string[] {
  return text.split(',').filter((item) => item !== '');
}
