import { DEFAULT_PATH_CONTEXT, type PathContext } from '../analyzers/paths.ts';
import type { Finding } from '../codes.ts';
import { judgeNative, readCmdLine } from './windows-command/cmd-line.ts';
import {
  CMD_PROGRAMS,
  requote,
  restoreSeparators,
  SHARED_NAMES,
  SHELLS,
  WINDOWS_PATH,
  windowsProgramName,
} from './windows-command/names.ts';
import { readPowerShellScript } from './windows-command/powershell-script.ts';
import { readShell } from './windows-command/shells.ts';
import type { Readers, State, WebRequest } from './windows-command/state.ts';
import { cmdletName, POWERSHELL_ONLY_ALIASES } from './windows-powershell.ts';

/** What a reading starts from: nothing gathered yet, at the top level. */
function freshState(paths: PathContext, stdin?: string): State {
  return {
    commands: [],
    findings: [],
    depth: 0,
    paths,
    aliases: new Map(),
    requests: [],
    read: READERS,
    ...(stdin === undefined ? {} : { stdin }),
  };
}

/** The three grammars' readers, handed down in the state so the reader modules never import one another. */
const READERS: Readers = {
  cmdLine: readCmdLine,
  native: (words, state) => judgeNative(words, state),
  powershell: readPowerShellScript,
};

export { restoreSeparators, windowsProgramName } from './windows-command/names.ts';
export { deletesEverything } from './windows-command/paths.ts';
export { decodedLiteral, expressionPath } from './windows-command/powershell-script.ts';
export { decodeEncodedCommand } from './windows-command/shells.ts';
export type { WebRequest } from './windows-command/state.ts';

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
  const state = freshState(paths, stdin);
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
  const state = freshState(paths);
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
