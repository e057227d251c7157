import { lookupTable } from '../../../lib/lookup-table.ts';
import {
  classifyPath,
  DEFAULT_PATH_CONTEXT,
  isCatastrophicDeleteTarget,
  normalizePath,
  type PathContext,
} from '../analyzers/paths.ts';
import type { Finding } from '../codes.ts';
import { type CmdCommand, readCmd } from './windows-cmd.ts';
import {
  bindCmdlet,
  cmdletName,
  POWERSHELL_ONLY_ALIASES,
  type PsStatement,
  type PsWord,
  readPowerShell,
} from './windows-powershell.ts';

/**
 * Windows command lines as the catalogue judges them. `powershell`/`pwsh` (`-Command`,
 * `-EncodedCommand`), `cmd /c|/k`, cmdlets and cmd built-ins given directly are read with their
 * own grammar (./windows-powershell.ts, ./windows-cmd.ts) into the commands that would run, in a
 * canonical spelling the rule files match (`Remove-Item -Path C:\ -Recurse`, `rd /s /q C:\`).
 * What only a path can tell is judged here through the path rules: privileged paths
 * (FILESYSTEM_DENIED), recursive deletes of a root, a system directory, a home or the working
 * tree (DEST_MUTATION); code that cannot be read statically is POLICY_VIOLATION.
 */
export interface WindowsReading {
  /** The commands that would run, canonical argv each, for the catalogue's rules. */
  commands: string[][];
  findings: Finding[];
  /** HTTP requests the line would make (`Invoke-RestMethod`, `Invoke-WebRequest`), for the egress rules. */
  requests: WebRequest[];
}

/** One request a web cmdlet would send: where, how, and what it sends. */
export interface WebRequest {
  cmdlet: string;
  url: string;
  method: string;
  /** `-InFile`, or the file `Get-Content` pipes in. */
  file?: string;
  /** `-Body` when it is a literal. */
  body?: string;
}

/** How deep shells inside shells (`powershell -c "cmd /c …"`) are read. */
const MAX_DEPTH = 6;

interface State {
  commands: string[][];
  findings: Finding[];
  depth: number;
  paths: PathContext;
  /** What the shell knows the command reads on standard input, if anything. */
  stdin?: string;
  /** `Set-Alias name value` seen so far in the script. */
  aliases: Map<string, string>;
  requests: WebRequest[];
}

const SHELLS = new Set(['powershell', 'pwsh', 'cmd']);

/** cmd built-ins and Windows tools whose words are read with cmd's grammar when run directly. */
const CMD_PROGRAMS = new Set([
  'rd',
  'rmdir',
  'del',
  'erase',
  'format',
  'vssadmin',
  'wmic',
  'wbadmin',
  'bcdedit',
  'cipher',
  'diskpart',
  'reg',
  'takeown',
  'icacls',
  'cacls',
  'netsh',
  'wevtutil',
  'schtasks',
  'fsutil',
  'attrib',
  'sc',
  'type',
  'copy',
  'xcopy',
  'robocopy',
  'move',
  'dir',
  'psexec',
  'psexec64',
  'paexec',
]);

/** Programs whose name is shared with a POSIX tool: Windows only when the words say so. */
const SHARED_NAMES = new Set(['rmdir', 'format', 'type', 'sc', 'attrib', 'move', 'copy', 'dir']);

/** `C:\Windows\System32\CMD.EXE`, `"pwsh.exe"` → `cmd`, `pwsh`. */
export function windowsProgramName(word: string): string {
  // Most names are plain words: nothing for restoreSeparators to put back.
  const bare = word.replace(/^["']|["']$/g, '');
  const trimmed = /[\\:%$]/.test(bare) ? restoreSeparators(bare) : bare;
  const slash = Math.max(trimmed.lastIndexOf('\\'), trimmed.lastIndexOf('/'));
  return trimmed
    .slice(slash + 1)
    .toLowerCase()
    .replace(/\.(?:exe|com)$/, '');
}

const WINDOWS_PATH = /^[A-Za-z]:|\\|%[A-Za-z_][\w()]*%|^\$env:/i;

/**
 * Reads an argv the shell resolved when it is a Windows command line, or returns undefined.
 * POSIX quoting has already been removed; cmd and PowerShell see a command line again, so the
 * words are joined back, each with spaces quoted unless the space was escaped the POSIX way.
 */
export function readWindowsArgv(
  argv: readonly string[],
  paths: PathContext = DEFAULT_PATH_CONTEXT,
  stdin?: string,
): WindowsReading | undefined {
  const first = argv[0];
  if (first === undefined) return undefined;
  const program = windowsProgramName(first);
  const rest = argv.slice(1);
  const state: State = {
    commands: [],
    findings: [],
    depth: 0,
    paths,
    aliases: new Map(),
    requests: [],
    ...(stdin === undefined ? {} : { stdin }),
  };
  if (SHELLS.has(program)) {
    // Windows' argv rules: `\"` is a literal quote for powershell; cmd reads its line as is.
    const words = program === 'cmd' ? rest : rest.map((word) => word.replace(/\\"/g, '"'));
    readShell(program, words.map(restoreSeparators), state);
    return reading(state);
  }
  if (isPowerShellCommand(first, rest)) {
    readPowerShellScript([first, ...rest.map(restoreSeparators)].map(requote("'")).join(' '), state);
    return reading(state);
  }
  if (isCmdCommand(program, rest)) {
    readCmdLine([first, ...rest.map(restoreSeparators)].map(requote('"')).join(' '), state);
    return reading(state);
  }
  return undefined;
}

/**
 * A Windows command line read as a whole, for a caller that has it before any POSIX reading:
 * `powershell …`, `cmd /c …`, cmdlets and cmd built-ins with their backslashes intact. Undefined
 * when the line does not look like one.
 */
export function readWindowsCommandLine(
  line: string,
  paths: PathContext = DEFAULT_PATH_CONTEXT,
): WindowsReading | undefined {
  const grammar = windowsGrammar(line);
  if (grammar === undefined) return undefined;
  const state: State = { commands: [], findings: [], depth: 0, paths, aliases: new Map(), requests: [] };
  if (grammar === 'powershell') readPowerShellScript(line, state);
  else readCmdLine(line, state);
  return reading(state);
}

function reading(state: State): WindowsReading {
  return { commands: state.commands, findings: state.findings, requests: state.requests };
}

/** Which grammar a raw line is written in, judged from its first word; undefined: not Windows. */
export function windowsGrammar(line: string): 'powershell' | 'cmd' | undefined {
  const first = /^[\s@(]*(?:"([^"]+)"|([^\s()&|]+))/.exec(line);
  const word = first?.[1] ?? first?.[2];
  if (word === undefined) return undefined;
  const program = windowsProgramName(word);
  const rest = line
    .slice(first![0].length)
    .trim()
    .split(/\s+/)
    .filter((w) => w !== '');
  if (program === 'powershell' || program === 'pwsh') return 'powershell';
  if (program === 'cmd') return 'cmd';
  if (isPowerShellCommand(word, rest)) return 'powershell';
  if (isCmdCommand(program, rest)) return 'cmd';
  // `(echo select disk 0 & echo clean) | diskpart`: a Windows-only tool further on.
  for (const other of line.split(/[\s()&|]+/)) if (WINDOWS_ONLY.has(windowsProgramName(other))) return 'cmd';
  return undefined;
}

/** Tools no other system ships: a line that runs one is a cmd line. */
const WINDOWS_ONLY = new Set([
  'diskpart',
  'vssadmin',
  'wbadmin',
  'bcdedit',
  'wmic',
  'cipher',
  'takeown',
  'icacls',
  'netsh',
  'wevtutil',
]);

/** Windows directory names, to put back the separators a POSIX reading of `C:\Windows\System32` drops. */
const KNOWN_COMPONENTS = [
  'Windows',
  'System32',
  'SysWOW64',
  'WinSxS',
  'config',
  'drivers',
  'etc',
  'Temp',
  'Users',
  'Public',
  'Default',
  'Administrator',
  'Program Files (x86)',
  'Program Files',
  'ProgramData',
  'AppData',
  'Roaming',
  'LocalLow',
  'Local',
  'Microsoft',
  'Credentials',
  'Protect',
  'Vault',
  'Crypto',
  'NTDS',
  'repair',
  'Recovery',
  'Boot',
  'SAM',
  'SYSTEM',
  'SECURITY',
  'SOFTWARE',
];
const KNOWN_COMPONENT = new RegExp(
  `^(?:${KNOWN_COMPONENTS.map((c) => c.replace(/[()]/g, '\\$&')).join('|')})`,
  'i',
);
/** Environment variables PowerShell names as `$env:Name`, which a POSIX reading of `"$env:Name"` leaves as `:Name`. */
const ENV_NAMES =
  /(^|[\s"'(,=])(?<!\$env):(SystemRoot|windir|SystemDrive|USERPROFILE|HOMEDRIVE|HOMEPATH|APPDATA|LOCALAPPDATA|ProgramData|ProgramFiles|ALLUSERSPROFILE|PUBLIC|TEMP|TMP)\b/gi;

/** `$_.FullName` with `$_` expanded away by a POSIX reading of a double-quoted script. */
const PIPELINE_ITEM = /(^|[\s(,{])\.(FullName|PSPath|PSChildName|PSParentPath)\b/g;

/**
 * Undoes what a POSIX reading does to a Windows word: `C:\Windows\System32` arrives as
 * `C:WindowsSystem32`, `%SystemRoot%\*` as `%SystemRoot%*`, `"$env:USERPROFILE"` as `:USERPROFILE`.
 * A word that still holds a backslash was quoted and is kept; separators are put back after a
 * drive or a variable and between well-known Windows directory names.
 */
export function restoreSeparators(word: string): string {
  // `\\?\C:\…` halved to `\?\C:\…` inside double quotes; `C:\ -Recurse` (an escaped space) to `C: -Recurse`.
  const text = word
    .replace(ENV_NAMES, '$1$$env:$2')
    .replace(PIPELINE_ITEM, '$1$$_.$2')
    .replace(/(^|[\s'"(=,])\\([?.])\\/g, '$1\\\\$2\\')
    .replace(/^([A-Za-z]:)(?=\s)/, '$1\\');
  // `\\host\C$\Users` arrives as `\hostC$Users`: an administrative share is recognisable by its `$`.
  const share = /^\\([^\\\s]+?)(ADMIN\$|IPC\$|[A-Za-z]\$)(.*)$/i.exec(text);
  if (share)
    return `\\\\${share[1]}\\${share[2]}${share[3] ? `\\${restoreSeparators(`C:${share[3]}`).slice(3)}` : ''}`;
  if (text.includes('\\')) return text;
  const head = /^([A-Za-z]:|%[A-Za-z_][\w()]*%)(?=[^\s/:%])/.exec(text);
  if (!head) return text;
  let rest = text.slice(head[0].length);
  const parts: string[] = [];
  for (let guard = 0; guard < 16; guard++) {
    const match = KNOWN_COMPONENT.exec(rest);
    if (!match) break;
    parts.push(match[0]);
    rest = rest.slice(match[0].length);
  }
  if (rest !== '') parts.push(rest);
  return `${head[0]}\\${parts.join('\\')}`;
}

function isPowerShellCommand(first: string, args: readonly string[]): boolean {
  if (first.includes('/')) return false;
  const lower = first.toLowerCase();
  if (POWERSHELL_ONLY_ALIASES.has(lower)) return true;
  if (/^[a-z]+-[a-z]+$/i.test(first) && cmdletName(first) !== undefined) return true;
  // `rd`, `del`, `rmdir` with PowerShell parameters are Remove-Item.
  return ['rd', 'del', 'erase', 'rmdir'].includes(lower) && args.some((a) => /^-[A-Za-z]{2,}/.test(a));
}

function isCmdCommand(program: string, args: readonly string[]): boolean {
  if (!CMD_PROGRAMS.has(program)) return false;
  if (!SHARED_NAMES.has(program)) return true;
  return (
    args.some((a) => /^\/[A-Za-z?]/.test(a) && !a.includes('/', 1)) || args.some((a) => WINDOWS_PATH.test(a))
  );
}

/**
 * Joins a word back into a command line: quoted when it holds a space that was not escaped. A POSIX
 * reading glues `C:\ -Force` or `C:\Users\ -Recurse` into one word (the backslash escapes the
 * space); for cmd and PowerShell the backslash is a path separator, so those are two words again. A
 * word with a space before its first escaped one was quoted (`"-c Remove-Item C:\ -Recurse"`).
 */
function requote(quote: string): (word: string) => string {
  return (word) => {
    if (!/\s/.test(word) || /^\S*\\\s/.test(word) || word.includes(quote)) return word;
    return `${quote}${word}${quote}`;
  };
}

// ---------------------------------------------------------------------------- shells

function readShell(program: string, args: readonly string[], state: State): void {
  const inner = nestedState(state);
  if (program === 'cmd') {
    // Without /c or /k, cmd runs the lines it reads on standard input.
    const line = cmdCommandLine(args) ?? state.stdin;
    if (line !== undefined) readCmdLine(line, inner);
    return;
  }
  const script = powerShellCommand(program, args, state);
  if (script !== undefined) readPowerShellScript(script, inner);
}

/** What `cmd [/q /d /v:on …] /c|/k|/r command…` runs. */
function cmdCommandLine(args: readonly string[]): string | undefined {
  for (let i = 0; i < args.length; i++) {
    const match = /^\/(?:[a-z](?::\w+)?\/)*[ckr](.*)$/i.exec(args[i]!);
    if (match) {
      const rest = [...(match[1] ? [match[1]] : []), ...args.slice(i + 1)];
      return rest.length === 1 ? rest[0] : rest.map(requote('"')).join(' ');
    }
    if (!args[i]!.startsWith('/')) return args.slice(i).join(' ');
  }
  return undefined;
}

/** powershell.exe / pwsh parameters that take a value in the next word. */
const POWERSHELL_VALUE_PARAMETERS = [
  'executionpolicy',
  'ep',
  'windowstyle',
  'inputformat',
  'outputformat',
  'version',
  'psconsolefile',
  'configurationname',
  'workingdirectory',
  'wd',
  'settingsfile',
  'custompipename',
  'encodedarguments',
  'ea',
];

/** The script a powershell/pwsh command line runs, decoded; undefined for `-File` or nothing. */
function powerShellCommand(program: string, args: readonly string[], state: State): string | undefined {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    const option = /^(?:--?|\/)([A-Za-z]+)(?::(.*))?$/.exec(arg);
    if (!option) {
      // A bare first word: Windows PowerShell runs the rest as a command, pwsh as a file, unless
      // it is no script file (`pwsh "Remove-Item …"` then fails; judging it as code costs nothing).
      if (program === 'pwsh' && /\.ps1$/i.test(arg)) return undefined;
      return args.slice(i).join(' ');
    }
    const name = option[1]!.toLowerCase();
    const attached = option[2];
    if (name === 'e' || name === 'ec' || (name.length >= 2 && 'encodedcommand'.startsWith(name))) {
      const encoded = attached ?? args[i + 1] ?? '';
      const decoded = decodeEncodedCommand(encoded);
      if (decoded === undefined) {
        opaque(state, 'an -EncodedCommand that is not base64 UTF-16LE text cannot be read');
        return undefined;
      }
      return decoded;
    }
    if (name === 'c' || (name.length >= 3 && 'command'.startsWith(name))) {
      const rest = attached !== undefined ? [attached, ...args.slice(i + 1)] : args.slice(i + 1);
      // `-Command -` runs what it reads on standard input.
      return rest[0] === '-' ? state.stdin : rest.join(' ');
    }
    if (name === 'cwa' || name === 'commandwithargs') return attached ?? args[i + 1];
    if (name === 'f' || (name.length >= 2 && 'file'.startsWith(name))) return undefined;
    const takesValue = POWERSHELL_VALUE_PARAMETERS.some(
      (parameter) => parameter.startsWith(name) && !'noninteractive'.startsWith(name),
    );
    if (takesValue && attached === undefined) i++;
  }
  return undefined;
}

/** `-EncodedCommand` text: base64 of UTF-16LE. */
export function decodeEncodedCommand(encoded: string): string | undefined {
  const compact = encoded.replace(/\s+/g, '');
  if (compact === '' || !/^[A-Za-z0-9+/]+={0,2}$/.test(compact) || compact.length > 256 * 1024)
    return undefined;
  const bytes = Buffer.from(compact, 'base64');
  if (bytes.length < 2 || bytes.length % 2 !== 0) return undefined;
  const text = bytes.toString('utf16le');
  // Text, not bytes that happen to decode: mostly printable characters.
  const printable = text.replace(/[^\t\n\r\x20-\x7e\u00a0-\uffff]/g, '').length;
  return printable >= text.length * 0.9 ? text : undefined;
}

// ------------------------------------------------------------------------ PowerShell

const KEYWORDS = new Set([
  'if',
  'elseif',
  'else',
  'foreach',
  'for',
  'while',
  'do',
  'until',
  'switch',
  'try',
  'catch',
  'finally',
  'function',
  'filter',
  'param',
  'return',
  'throw',
  'trap',
  'break',
  'continue',
  'exit',
  'begin',
  'process',
  'end',
  'data',
  'class',
  'enum',
]);

/** Cmdlets and methods that fetch content from the network. */
const FETCH =
  /\b(?:Invoke-WebRequest|Invoke-RestMethod|iwr|irm|curl|wget|Net\.WebClient|DownloadString|DownloadData|DownloadFile|Start-BitsTransfer|HttpClient|GetStringAsync)\b/i;

function readPowerShellScript(script: string, state: State): void {
  if (state.depth > MAX_DEPTH) {
    overBudget(state, `more than ${MAX_DEPTH} levels of nested shells or Invoke-Expression`);
    return;
  }
  const { statements, truncated } = readPowerShell(script);
  if (truncated) overBudget(state, 'a PowerShell script longer or deeper than the reader reads');
  for (const statement of statements) judgeStatement(statement, state);
  if (deletesShadowCopies(script)) {
    destructive(
      state,
      "deletes the volume shadow copies, the machine's restore points",
      'command "Win32_ShadowCopy"',
    );
  }
  for (const { target, how } of recursiveDeleteCalls(script)) judgeDeleteTarget(target, state, how);
}

/**
 * .NET calls that delete a directory tree: `[IO.Directory]::Delete(p, $true)`,
 * `(Get-Item p).Delete($true)`, `[IO.DirectoryInfo]::new(p).Delete($true)`,
 * `[Microsoft.VisualBasic.FileIO.FileSystem]::DeleteDirectory(p, 'DeleteAllContents')`. The path
 * may be a literal, a variable PowerShell knows (`$env:USERPROFILE`, `${env:SystemDrive}`, `$HOME`,
 * `$PWD`), `[Environment]::GetFolderPath('UserProfile')` or those joined with `+`. A second argument
 * the POSIX reading erased (`"…Delete($env:X, $true)"` in double quotes arrives as `Delete(…, )`)
 * is read as `$true`.
 */
function recursiveDeleteCalls(script: string): { target: string; how: string }[] {
  const out: { target: string; how: string }[] = [];
  const calls =
    /\[(?:System\.)?IO\.Directory\]::Delete\(|\[Microsoft\.VisualBasic\.FileIO\.FileSystem\]::DeleteDirectory\(|\(\s*(?:Get-Item|gi)\s+|\[(?:System\.)?IO\.DirectoryInfo\]::new\(|New-Object\s+(?:System\.)?IO\.DirectoryInfo\s*\(?/gi;
  for (const call of script.matchAll(calls)) {
    const at = call.index + call[0].length;
    const head = call[0].toLowerCase();
    if (head.includes('::delete')) {
      const args = callArguments(script, at);
      if (args === undefined || args.length < 2) continue;
      const recursive = head.includes('deletedirectory')
        ? /deleteallcontents/i.test(args[1]!)
        : /^(?:\$true|1|)$/i.test(args[1]!.trim());
      const target = recursive ? expressionPath(args[0]!) : undefined;
      if (target !== undefined)
        out.push({
          target,
          how: head.includes('deletedirectory') ? 'DeleteDirectory' : '[IO.Directory]::Delete',
        });
      continue;
    }
    // `(Get-Item p).Delete($true)`, `[IO.DirectoryInfo]::new(p).Delete($true)`: the object, then the call.
    const getItem = head.startsWith('(');
    const args = getItem ? [script.slice(at).split(/\)/, 1)[0]!.trim()] : callArguments(script, at);
    if (args === undefined || args.length === 0) continue;
    const rest = script.slice(at);
    const close = getItem ? rest.indexOf(')') : closingParen(rest);
    if (close < 0) continue;
    const after = rest.slice(close + 1);
    if (!/^\s*\)?\s*\.Delete\(\s*(?:\$true|1|)\s*\)/i.test(after)) continue;
    const item = getItem ? args[0]!.replace(/^-(?:LiteralPath|Path)\s+/i, '').split(/\s+-/, 1)[0]! : args[0]!;
    const target = expressionPath(item);
    if (target !== undefined) out.push({ target, how: 'DirectoryInfo.Delete($true)' });
  }
  return out;
}

/**
 * One pass over an argument list starting at 0: the index of the `)` that closes it and its
 * top-level arguments, or undefined when it does not close (or closes with `]`/`}`).
 */
function scanCall(text: string): { close: number; args: string[] } | undefined {
  const args: string[] = [];
  let depth = 0;
  let quote: string | undefined;
  let from = 0;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quote !== undefined) {
      if (ch === quote) quote = undefined;
      continue;
    }
    if (ch === "'" || ch === '"') quote = ch;
    else if (ch === '(' || ch === '[' || ch === '{') depth++;
    else if (ch === ')' || ch === ']' || ch === '}') {
      if (depth > 0) depth--;
      else if (ch !== ')') return undefined;
      else {
        args.push(text.slice(from, i).trim());
        return { close: i, args };
      }
    } else if (ch === ',' && depth === 0) {
      args.push(text.slice(from, i).trim());
      from = i + 1;
    }
  }
  return undefined;
}

/** Index of the `)` that closes the argument list starting at 0, or -1. */
function closingParen(text: string): number {
  return scanCall(text)?.close ?? -1;
}

/** The top-level arguments of a call whose `(` ends just before `start`. */
function callArguments(script: string, start: number): string[] | undefined {
  return scanCall(script.slice(start, start + 4096))?.args;
}

/** Folders `[Environment]::GetFolderPath(…)` names, as the variables the path rules read. */
const SPECIAL_FOLDERS: Record<string, string> = {
  userprofile: '$env:USERPROFILE',
  windows: '$env:SystemRoot',
  system: '$env:SystemRoot\\System32',
  programfiles: '$env:ProgramFiles',
  programfilesx86: '$env:ProgramFiles(x86)',
  commonapplicationdata: '$env:ProgramData',
};

/**
 * The path a PowerShell expression names, when it can be told without running anything: a literal,
 * `$env:X`, `${env:X}`, `$HOME`, `$PWD`, `[Environment]::GetFolderPath('UserProfile')`,
 * `[Environment]::GetEnvironmentVariable('X')`, and those joined with `+`. Undefined otherwise.
 */
export function expressionPath(expression: string): string | undefined {
  const parts = expression
    .trim()
    .replace(/^\((.*)\)$/s, '$1')
    .split(/\s*\+\s*/);
  let path = '';
  for (const raw of parts) {
    const part = raw.trim();
    let value: string | undefined;
    const literal = /^(['"])(.*)\1$/s.exec(part);
    if (literal) value = literal[2]!;
    else if (/^\$env:[A-Za-z_][\w()]*$/i.test(part)) value = part;
    else if (/^\$\{env:[^}]+\}$/i.test(part)) value = `$env:${part.slice(6, -1)}`;
    else if (/^\$HOME$/i.test(part)) value = '$HOME';
    // A bare path, as a command argument is written: `(Get-Item C:\Users\agent)`.
    else if (/^(?:[A-Za-z]:|[\\/.~])[^\s'"$(),]*$/.test(part)) value = part;
    else if (/^(?:\$PWD|\(?(?:Get-Location|pwd|gl)\)?)$/i.test(part)) value = '.';
    else {
      const folder =
        /^\[(?:System\.)?Environment\]::GetFolderPath\(\s*(?:['"](\w+)['"]|\[(?:System\.)?Environment\+SpecialFolder\]::(\w+))\s*\)$/i.exec(
          part,
        );
      const variable =
        /^\[(?:System\.)?Environment\]::GetEnvironmentVariable\(\s*['"]([A-Za-z_][\w()]*)['"]\s*\)$/i.exec(
          part,
        );
      if (folder) value = SPECIAL_FOLDERS[(folder[1] ?? folder[2]!).toLowerCase()];
      else if (variable) value = `$env:${variable[1]}`;
    }
    if (value === undefined) return undefined;
    path += value;
  }
  // `${env:X}` inside a double-quoted string, as the path rules spell it.
  path = path.replace(/\$\{env:([^}]+)\}/gi, '$$env:$1');
  return path === '' ? undefined : path;
}

/**
 * The PowerShell forms of `vssadmin delete shadows`: instances of Win32_ShadowCopy, however they
 * are fetched (`Get-WmiObject`, `gwmi`, `Get-CimInstance`, `gcim`, `-Query "SELECT * FROM …"`,
 * `[wmiclass]`), deleted by `.Delete()`, `Remove-CimInstance`/`rcim` or `Remove-WmiObject`/`rwmi`.
 * Read through backtick escapes and literals joined with `+` (`'Win32_Shadow'+'Copy'`). A listing
 * (`Get-CimInstance Win32_ShadowCopy | Select-Object ID`) passes.
 */
function deletesShadowCopies(script: string): boolean {
  const text = script.replace(/`/g, '');
  return (
    /win32_shadowcopy/i.test(text.replace(/['"+\s\\]/g, '')) &&
    /\.Delete\s*\(|Remove-(?:Cim|Wmi)(?:Instance|Object)|\b(?:rcim|rwmi)\b/i.test(text)
  );
}

function judgeStatement(statement: PsStatement, state: State): void {
  const [first, ...rest] = statement.words;
  for (const target of statement.writes) judgePath(target, state, true);
  if (first === undefined) return;
  for (const word of statement.words) judgePathWord(word, state);
  if (statement.invoked) {
    if (!first.literal && first.expression !== 'block') {
      const script = scriptBlockText(first.raw);
      if (typeof script === 'string') {
        readPowerShellScript(script, nestedState(state));
        return;
      }
      const fetched = FETCH.test(first.raw);
      opaque(
        state,
        `${fetched ? 'code fetched from the network' : 'a command built at run time'} is invoked with & or .`,
      );
      return;
    }
    if (first.expression === 'block') return;
  } else if (!first.bare || first.expression !== undefined || /^[$\d@(['"]/.test(first.raw)) {
    // An expression statement: `'text'`, `$x.Method()`, `(1+1)`. Nested commands come on their own.
    judgeExpressionCalls(statement, state);
    return;
  }
  const name = state.aliases.get(first.text.toLowerCase()) ?? first.text;
  if (KEYWORDS.has(name.toLowerCase())) return;
  const cmdlet = name.includes('.') || /^[A-Za-z]:|^\.?\\/.test(name) ? undefined : cmdletName(name);
  if (cmdlet === undefined) {
    judgeNative([name, ...rest.map((word) => word.text)], state);
    return;
  }
  // `rd /s /q C:\` in PowerShell fails (Remove-Item takes no /s); judged as the cmd line it resembles.
  if (
    cmdlet === 'Remove-Item' &&
    /^(?:rd|rmdir|del|erase)$/i.test(name) &&
    rest.some((w) => /^\/[a-z]$/i.test(w.text))
  ) {
    readCmdLine([name, ...rest.map((word) => word.text)].map(requote('"')).join(' '), state);
    return;
  }
  const bound = bindCmdlet(cmdlet, rest);
  // PowerShell 7 has no `curl` or `wget` alias: with the native tool's own options (`curl -X DELETE`),
  // which Invoke-WebRequest cannot bind, the native program runs.
  if (
    cmdlet === 'Invoke-WebRequest' &&
    /^(?:curl|wget)$/i.test(name) &&
    bound.rest.some((word) => word.startsWith('-'))
  ) {
    judgeNative([name, ...rest.map((word) => word.text)], state);
    return;
  }
  state.commands.push(bound.argv);
  switch (cmdlet) {
    case 'Invoke-Expression':
      judgeInvokeExpression(bound.named.get('Command'), rest, statement, state);
      return;
    case 'Start-Process': {
      const file = bound.named.get('FilePath')?.[0];
      if (file === undefined) return;
      const argumentList = bound.named.get('ArgumentList') ?? [];
      judgeNative(
        [file, ...argumentList.flatMap((value) => value.split(/\s+/)).filter((w) => w !== '')],
        state,
      );
      return;
    }
    case 'Invoke-Command':
      return;
    case 'ForEach-Object':
      judgeForEachRemove(rest, statement, state);
      return;
    case 'Set-Alias': {
      const alias = bound.named.get('Name')?.[0];
      const target = bound.named.get('Value')?.[0];
      if (alias !== undefined && target !== undefined) state.aliases.set(alias.toLowerCase(), target);
      return;
    }
    case 'Remove-Item':
      judgeRemoveItem(bound.named, statement, state);
      return;
    case 'Invoke-WebRequest':
    case 'Invoke-RestMethod':
      rememberWebRequest(cmdlet, bound.named, statement, state);
      return;
    default:
      return;
  }
}

/** Cmdlets whose output is a file's content when they head a pipeline: `Get-Content .env | irm …`. */
const FILE_READERS = new Set(['Get-Content']);

/**
 * `Invoke-RestMethod -Uri u -Method Post -InFile .env`, `Get-Content .env | Invoke-RestMethod u
 * -Method Post`: what the request sends and where, for the same egress rules as curl's.
 */
function rememberWebRequest(
  cmdlet: string,
  named: ReadonlyMap<string, string[]>,
  statement: PsStatement,
  state: State,
): void {
  const url = named.get('Uri')?.[0];
  if (url === undefined || state.requests.length >= 32) return;
  const body = named.get('Body')?.[0];
  let file = named.get('InFile')?.[0];
  const source = statement.pipedFrom;
  const [head, ...args] = source?.words ?? [];
  if (file === undefined && head?.bare && FILE_READERS.has(cmdletName(head.text) ?? '')) {
    file = args.find((word) => !(word.bare && /^-/.test(word.text)))?.text;
  }
  state.requests.push({
    cmdlet,
    url,
    method: (
      named.get('Method')?.[0] ?? (file !== undefined || body !== undefined ? 'POST' : 'GET')
    ).toUpperCase(),
    ...(file !== undefined ? { file } : {}),
    ...(body !== undefined ? { body } : {}),
  });
}

/**
 * The code `[scriptblock]::Create(…)` or `.InvokeScript(…)` in an expression runs: the literal
 * text, null when it is built at run time, undefined when the expression makes no such call.
 */
function scriptBlockText(raw: string): string | null | undefined {
  const call = /\[(?:System\.Management\.Automation\.)?scriptblock\]::Create\(|\.InvokeScript\(/i.exec(raw);
  if (!call) return undefined;
  const rest = raw.slice(call.index + call[0].length);
  const argument = /^\s*(['"])([^'"]*)\1\s*\)/.exec(rest);
  if (argument && !(argument[1] === '"' && argument[2]!.includes('$'))) return argument[2]!;
  return decodedLiteral(rest) ?? null;
}

/** Runs text as code, like Invoke-Expression: read when literal, refused when not. */
function judgeExpressionCalls(statement: PsStatement, state: State): void {
  for (const word of statement.words) {
    const script = scriptBlockText(word.raw);
    if (script === undefined) continue;
    if (script !== null) readPowerShellScript(script, nestedState(state));
    else
      opaque(
        state,
        `${FETCH.test(word.raw) ? 'code fetched from the network' : 'code built at run time'} is turned into a script block`,
      );
  }
}

const TEXT_ENCODINGS: Record<string, BufferEncoding> = lookupTable({
  unicode: 'utf16le',
  utf8: 'utf8',
  ascii: 'latin1',
  default: 'utf8',
});

/**
 * `[Text.Encoding]::Unicode.GetString([Convert]::FromBase64String('…'))`: literal data decoded
 * in place is as readable as the literal itself.
 */
export function decodedLiteral(raw: string): string | undefined {
  const match =
    /\[(?:System\.)?Text\.Encoding\]::(Unicode|UTF8|ASCII|Default)\.GetString\(\s*\[(?:System\.)?Convert\]::FromBase64String\(\s*(['"])([A-Za-z0-9+/=\s]{1,65536})\2\s*\)\s*\)/i.exec(
      raw,
    );
  if (!match) return undefined;
  const text = Buffer.from(match[3]!.replace(/\s+/g, ''), 'base64').toString(
    TEXT_ENCODINGS[match[1]!.toLowerCase()] ?? 'utf8',
  );
  return text.includes('\uFFFD') ? undefined : text;
}

function nestedState(state: State): State {
  return { ...state, depth: state.depth + 1 };
}

function judgeInvokeExpression(
  command: string[] | undefined,
  words: readonly PsWord[],
  statement: PsStatement,
  state: State,
): void {
  const argument = words.find((word) => !(word.bare && /^-/.test(word.text)));
  if (command !== undefined && argument !== undefined) {
    const decoded = argument.literal ? argument.text : decodedLiteral(argument.raw);
    if (decoded !== undefined) readPowerShellScript(decoded, nestedState(state));
    else {
      const fetched = FETCH.test(argument.raw);
      opaque(
        state,
        `Invoke-Expression runs ${fetched ? 'code fetched from the network' : 'code built at run time'}`,
      );
    }
    return;
  }
  const source = statement.pipedFrom;
  const printed = source ? printedLiteral(source) : undefined;
  if (printed !== undefined) readPowerShellScript(printed, nestedState(state));
  else {
    const fetched = source?.words.some((word) => FETCH.test(word.raw));
    opaque(
      state,
      `Invoke-Expression runs ${fetched ? 'code fetched from the network' : 'what it reads from the pipeline'}`,
    );
  }
}

/** What a statement writes to the pipeline when that is a literal: `'text'`, `echo 'text'`. */
function printedLiteral(statement: PsStatement): string | undefined {
  const [first, ...rest] = statement.words;
  if (first === undefined) return undefined;
  if (!first.bare && first.literal && rest.length === 0) return first.text;
  if (
    first.bare &&
    cmdletName(first.text) === 'Write-Output' &&
    rest.length > 0 &&
    rest.every((w) => w.literal)
  ) {
    return rest.map((word) => word.text).join(' ');
  }
  return undefined;
}

/**
 * A `-Filter` or `-Include` narrows a listing unless it is made only of wildcards (`*`, `*.*`):
 * `-Filter *.tmp` narrows, `-Include *` does not. `-Exclude` never narrows: everything but the
 * excluded names still goes (`Get-ChildItem C:\ -Exclude Windows`).
 */
function narrows(named: ReadonlyMap<string, string[]>): boolean {
  const everything = (pattern: string) => pattern.includes('*') && /^[*?.]+$/.test(pattern.trim());
  const filters = [...(named.get('Filter') ?? []), ...(named.get('Include') ?? [])];
  return filters.length > 0 && !filters.some(everything);
}

/** Pipeline stages that pass every item on, reordered or reshaped: `Sort-Object`, `Select-Object FullName`. */
function passesEverything(statement: PsStatement): boolean {
  const [first, ...rest] = statement.words;
  if (first === undefined || !first.bare) return false;
  const cmdlet = cmdletName(first.text);
  if (cmdlet === 'Sort-Object') return !rest.some((w) => w.bare && /^-(?:top|bottom|u)/i.test(w.text));
  if (cmdlet === 'Select-Object') {
    return !rest.some((w) => w.bare && /^-(?:f|l|sk|ind|u)/i.test(w.text));
  }
  return false;
}

/**
 * What a `Get-ChildItem` (`gci`, `ls`, `dir`) or `Get-Item` (`gi`) earlier in the pipeline writes
 * to it in full: every child of a root, or the root itself. The producer's parameters are bound as
 * PowerShell binds them, so switches and common parameters in any order and spelling
 * (`-Force`, `-fo`, `-ErrorAction SilentlyContinue`, `-ea 0`, `-Hidden`, `-Directory`, `-Depth 1`)
 * leave the listing whole; only a filter that narrows it does not. Stages that pass every item on
 * (`Sort-Object`, `Select-Object FullName`) are looked through.
 */
function listedRoot(
  source: PsStatement | undefined,
): { root: string; recurse: boolean; producer: string } | undefined {
  let producer = source;
  for (let hops = 0; producer !== undefined && hops < 8 && passesEverything(producer); hops++) {
    producer = producer.pipedFrom;
  }
  const [first, ...rest] = producer?.words ?? [];
  if (first === undefined || !first.bare) return undefined;
  const cmdlet = cmdletName(first.text);
  if (cmdlet !== 'Get-ChildItem' && cmdlet !== 'Get-Item') return undefined;
  const listing = bindCmdlet(cmdlet, rest).named;
  if (narrows(listing)) return undefined;
  const root = listing.get('Path')?.[0] ?? listing.get('LiteralPath')?.[0] ?? '.';
  return { root, recurse: listing.has('Recurse'), producer: cmdlet };
}

/**
 * `Get-ChildItem C:\Users | ForEach-Object { Remove-Item $_.FullName -Recurse }`, `{ $_.Delete($true) }`:
 * every child of a root. `.Delete()` without `$true` removes files and empty folders, so it wipes
 * the tree only over a recursive listing.
 */
function judgeForEachRemove(words: readonly PsWord[], statement: PsStatement, state: State): void {
  const listed = listedRoot(statement.pipedFrom);
  if (listed === undefined) return;
  for (const block of words) {
    for (const inner of block.inner ?? []) {
      const [first, ...rest] = inner.words;
      const call = first && /^\$(?:_|PSItem)\.Delete\(\s*(\$true|1)?\s*\)/i.exec(first.raw);
      if (call && (call[1] !== undefined || listed.recurse)) {
        judgeDeleteTarget(listed.root, state, `${listed.producer} | ForEach-Object { $_.Delete() }`);
        continue;
      }
      if (first === undefined || cmdletName(first.text) !== 'Remove-Item') continue;
      const named = bindCmdlet('Remove-Item', rest).named;
      const targets = [...(named.get('Path') ?? []), ...(named.get('LiteralPath') ?? [])];
      // No target at all: a POSIX reading may have expanded `$_` away.
      const eachItem = targets.length === 0 || targets.some((target) => /^\$(?:_|PSItem)\b/i.test(target));
      if (eachItem && !named.has('WhatIf') && (named.has('Recurse') || listed.recurse)) {
        judgeDeleteTarget(listed.root, state, `${listed.producer} | ForEach-Object { Remove-Item }`);
      }
    }
  }
}

function judgeRemoveItem(named: Map<string, string[]>, statement: PsStatement, state: State): void {
  if (named.has('WhatIf')) return;
  const recurse = named.has('Recurse');
  const targets = [...(named.get('Path') ?? []), ...(named.get('LiteralPath') ?? [])];
  const narrowed = narrows(named);
  if (recurse && !narrowed)
    for (const target of targets) judgeDeleteTarget(target, state, 'Remove-Item -Recurse');
  // `Get-ChildItem C:\ | Remove-Item -Recurse`: every child of the root.
  if (targets.length > 0) return;
  const listed = listedRoot(statement.pipedFrom);
  if (listed === undefined || (!recurse && !listed.recurse)) return;
  judgeDeleteTarget(listed.root, state, `${listed.producer} | Remove-Item`);
}

// ------------------------------------------------------------------------------- cmd

function readCmdLine(line: string, state: State): void {
  if (state.depth > MAX_DEPTH) {
    overBudget(state, `more than ${MAX_DEPTH} levels of nested shells`);
    return;
  }
  const { commands, truncated } = readCmd(line);
  if (truncated) overBudget(state, 'a cmd line longer than the reader reads');
  for (const command of commands) {
    for (const target of command.writes) judgePath(target, state, true);
    for (const source of command.reads) judgePath(source, state, false);
    judgeNative(command.words, state, command);
  }
}

/** `rd/s/q` → `rd /s /q`; `/S/Q` → `/s /q`; `rmdir` → `rd`, `erase` → `del`. */
function canonicalCmdArgv(words: readonly string[]): string[] {
  const [head = '', ...rest] = words;
  const glued = /^([A-Za-z]+)(\/.*)$/.exec(head);
  const first = glued && CMD_PROGRAMS.has(glued[1]!.toLowerCase()) ? glued[1]! : head;
  const args = glued && first !== head ? [glued[2]!, ...rest] : rest;
  let program = windowsProgramName(first);
  if (program === 'rmdir') program = 'rd';
  if (program === 'erase') program = 'del';
  const out = [program];
  for (const arg of args) {
    if (
      /^\/[A-Za-z?]/.test(arg) &&
      !WINDOWS_PATH.test(arg.slice(0, 2)) &&
      /^(?:\/[A-Za-z?][^/]*)+$/.test(arg)
    ) {
      for (const part of arg.split(/(?=\/[A-Za-z?])/))
        out.push(part.replace(/^\/[A-Za-z?]+/, (s) => s.toLowerCase()));
    } else out.push(arg);
  }
  return out;
}

/** A program run by cmd or PowerShell: another shell is read in turn; anything else is a command. */
function judgeNative(words: readonly string[], state: State, command?: CmdCommand): void {
  if (words.length === 0) return;
  const program = windowsProgramName(words[0]!);
  if (SHELLS.has(program)) {
    readShell(program, words.slice(1), state);
    return;
  }
  const argv =
    command !== undefined || CMD_PROGRAMS.has(program)
      ? canonicalCmdArgv(words)
      : [program, ...words.slice(1)];
  state.commands.push(argv);
  const [name, ...args] = argv as [string, ...string[]];
  for (const arg of args)
    if (!/^\/[A-Za-z?]/.test(arg) || arg.includes('/', 1))
      judgePath(arg.replace(/^\/[a-z]+:/i, ''), state, false);
  switch (name) {
    case 'rd':
    case 'del':
      if (args.includes('/s')) {
        for (const target of args.filter((arg) => !arg.startsWith('/')))
          judgeDeleteTarget(target, state, `${name} /s`);
      }
      return;
    case 'takeown':
      if (args.includes('/r')) judgeRecursiveOwnership(optionValue(args, '/f'), state, 'takeown /r');
      return;
    case 'icacls':
    case 'cacls':
      if (args.some((arg) => arg === '/t')) judgeRecursiveOwnership(args[0], state, `${name} /t`);
      return;
    case 'diskpart':
      judgeDiskpart(args, command?.pipedFrom, state);
      return;
    case 'robocopy':
      judgeRobocopy(args, state);
      return;
    case 'psexec':
    case 'psexec64':
    case 'paexec': {
      // The command PsExec runs on the remote machine (or locally) is judged as if typed there.
      const remote = psexecCommand(args);
      if (remote.length > 0) judgeNative(remote, nestedState(state));
      return;
    }
    case 'reg':
      judgeReg(args, state);
      return;
    default:
      return;
  }
}

/**
 * `robocopy <source> <destination> … /MIR|/PURGE`: the destination is made a copy of the source,
 * and whatever it has that the source lacks is deleted, as `rsync --delete` does. Mirroring onto a
 * drive root, a system directory, a home or the working tree (`robocopy C:\empty C:\Users\agent
 * /MIR`) wipes it; `/XX` (keep the extra files) makes it a copy and `/L` only lists. Into a build
 * directory it passes, and so does a deploy onto a share (`\\web01\site`): a share is a target, not
 * a machine's root (an administrative share, `\\host\C$`, is a privileged path in any case).
 */
function judgeRobocopy(args: readonly string[], state: State): void {
  const switches = args.filter((arg) => arg.startsWith('/')).map((arg) => arg.toLowerCase());
  if (!switches.some((s) => s === '/mir' || s === '/purge')) return;
  if (switches.includes('/xx') || switches.includes('/l')) return;
  const paths = args.filter((arg) => !arg.startsWith('/'));
  const destination = paths[1]?.replace(/^"|"$/g, '');
  if (destination === undefined || normalizePath(destination, state.paths).startsWith('//')) return;
  const how = switches.includes('/mir') ? 'robocopy /MIR' : 'robocopy /PURGE';
  judgeDeleteTarget(destination, state, how);
}

/** PsExec options that take a value in the next word. */
const PSEXEC_VALUED = new Set(['-u', '-p', '-n', '-r', '-w', '-a', '-g']);

/**
 * The command line `psexec [\\computer[,…] | @file] [options] command [arguments]` runs:
 * PsExec's own options (`-s -d -h -l -e -x -c -f -v -i [session] -u user -p pw -w dir -n s
 * -r name -a cpus -low … -accepteula -nobanner`) and the computers are skipped.
 */
function psexecCommand(args: readonly string[]): string[] {
  let i = 0;
  while (i < args.length) {
    const arg = args[i]!;
    const lower = arg.toLowerCase();
    if (/^(?:\\\\?|@)/.test(arg)) {
      i++;
      continue;
    }
    if (!/^-[a-z]/i.test(arg)) break;
    i++;
    if (PSEXEC_VALUED.has(lower) && i < args.length) i++;
    // `-i` takes an optional session number.
    else if (lower === '-i' && /^\d+$/.test(args[i] ?? '')) i++;
  }
  return args.slice(i);
}

function optionValue(args: readonly string[], option: string): string | undefined {
  const index = args.indexOf(option);
  return index >= 0 ? args[index + 1] : undefined;
}

/**
 * diskpart runs a script from `/s file` or its input. What it reads from an `echo` is judged:
 * `clean` (and `clean all`) wipes the selected disk. A script it reads from a file or an unknown
 * input cannot be judged, and diskpart has few uses an agent needs: refused as opaque code.
 */
function judgeDiskpart(args: readonly string[], pipedFrom: CmdCommand | undefined, state: State): void {
  if (args.some((arg) => arg === '/?')) return;
  const script = pipedFrom ? printedText(pipedFrom) : state.stdin;
  if (script === undefined) {
    opaque(state, 'diskpart runs a script the verdict cannot read');
    return;
  }
  if (/\b(?:clean|format|delete\s+(?:partition|volume|disk))\b/i.test(script)) {
    destructive(state, 'diskpart wipes a disk (clean, format or delete)', 'command "diskpart"');
  }
}

/** What `echo …`, `(echo a & echo b)` or `cmd /c (echo …)` prints into a pipe. */
function printedText(command: CmdCommand): string | undefined {
  const program = windowsProgramName(command.words[0] ?? '');
  if (program === 'echo') return command.words.slice(1).join(' ');
  if (program !== 'cmd') return undefined;
  const line = cmdCommandLine(command.words.slice(1));
  if (line === undefined) return undefined;
  const inner = readCmd(line).commands;
  if (inner.length === 0 || inner.some((c) => windowsProgramName(c.words[0] ?? '') !== 'echo'))
    return undefined;
  return inner.map((c) => c.words.slice(1).join(' ')).join('\n');
}

const SENSITIVE_HIVES = /^(?:HKLM|HKEY_LOCAL_MACHINE)\\?(?:SAM|SECURITY|SYSTEM)\\?$/i;

/** `reg save|export HKLM\SAM`: the hive file `C:\Windows\System32\config\SAM` by another name. */
function judgeReg(args: readonly string[], state: State): void {
  const verb = args[0]?.toLowerCase();
  if ((verb === 'save' || verb === 'export') && SENSITIVE_HIVES.test(args[1] ?? '')) {
    state.findings.push({
      code: 'FILESYSTEM_DENIED',
      message: 'copies a registry hive that holds credentials (SAM, SECURITY, SYSTEM)',
      location: `command "reg ${verb}"`,
    });
  }
}

// ----------------------------------------------------------------------------- paths

/** Candidates for a path: a drive, a separator, `~`, `.\`, a Windows variable. */
const PATH_LIKE = /^[A-Za-z]:|[\\/]|^~|%[A-Za-z_][\w()]*%|\$env:/i;

function judgePathWord(word: PsWord, state: State): void {
  if (!word.literal && !word.text.includes('$env:')) return;
  if (word.bare && /^-/.test(word.text)) {
    const colon = word.text.indexOf(':');
    if (colon > 0) judgePath(word.text.slice(colon + 1), state, false);
    return;
  }
  for (const item of word.items.length > 0 ? word.items : [word.text]) judgePath(item, state, false);
}

function stripProvider(path: string): string {
  return path.replace(/^(?:Microsoft\.PowerShell\.Core\\)?FileSystem::/i, '');
}

function judgePath(raw: string, state: State, writes: boolean): void {
  const text = stripProvider(raw.trim());
  if (text === '' || text.length > 4096 || text.includes('://') || !PATH_LIKE.test(text)) return;
  if (/^(?:HK[A-Z]{1,3}|HKEY_[A-Z_]+):?\\/i.test(text)) return;
  const cls = classifyPath(normalizePath(text, state.paths));
  if (cls === null) return;
  state.findings.push({
    code: 'FILESYSTEM_DENIED',
    message: `${writes ? 'writes to' : 'touches'} a ${cls === 'secret' ? 'credential or identity file' : 'protected system path'}`,
    location: `path ${describe(text)}`,
  });
}

/** `.`, `..`, `*`, `.\*`: the working tree itself. */
const WORKING_TREE = /^(?:\.{1,2}[\\/]?|(?:\.{1,2}[\\/])?\*(?:\.\*)?)$/;

/** Whether removing `target` and everything under it wipes a root, a system tree, a home or the working tree. */
export function deletesEverything(target: string, paths: PathContext = DEFAULT_PATH_CONTEXT): boolean {
  let text = stripProvider(target.trim());
  if (text === '') return false;
  if (WORKING_TREE.test(text)) return true;
  // `C:` alone is the current directory of drive C.
  if (/^[A-Za-z]:$/.test(text)) return true;
  text = text.replace(/[\\/]\*(?:\.\*)?$/, '\\');
  return isCatastrophicDeleteTarget(normalizePath(text, paths), paths);
}

function judgeDeleteTarget(target: string, state: State, how: string): void {
  if (!deletesEverything(target, state.paths)) return;
  destructive(
    state,
    `${how} of ${describe(target)}: a drive root, a system directory, a home or the working tree`,
    `command "${how}"`,
  );
}

/** `takeown /r /f C:\`, `icacls C:\ /grant Everyone:F /t`: every file's owner or ACL below a root. */
function judgeRecursiveOwnership(target: string | undefined, state: State, how: string): void {
  if (target === undefined) return;
  const text = target.replace(/[\\/]\*(?:\.\*)?$/, '\\');
  if (/^[A-Za-z]:\\?$/.test(text) || deletesEverything(text, state.paths)) {
    destructive(
      state,
      `${how} changes ownership or permissions of everything under ${describe(target)}`,
      `command "${how}"`,
    );
  }
}

// ---------------------------------------------------------------------------- findings

function describe(text: string): string {
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

function destructive(state: State, message: string, location: string): void {
  state.findings.push({ code: 'DEST_MUTATION', message, location });
}

/** Past a budget the command is refused, never let through unread (the shell's wording). */
function overBudget(state: State, what: string): void {
  if (state.findings.some((finding) => finding.message.includes('analysis budget'))) return;
  state.findings.push({
    code: 'POLICY_VIOLATION',
    message: `the command is too complex to resolve within the analysis budget (${what})`,
    location: 'Windows command line',
  });
}

/** Code that would run but cannot be read: refused, in the shell's words and location. */
function opaque(state: State, what: string): void {
  state.findings.push({
    code: 'POLICY_VIOLATION',
    message: `cannot tell what would run: ${what}; opaque code is refused unless the account allows it (PUT /v1/settings/execution)`,
    location: 'opaque code',
  });
}
