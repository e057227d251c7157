import { normalizePath } from '../../analyzers/paths.ts';
import { type CmdCommand, readCmd } from '../windows-cmd.ts';
import { CMD_PROGRAMS, SHELLS, WINDOWS_PATH, windowsProgramName } from './names.ts';
import { judgeDeleteTarget, judgePath, judgeRecursiveOwnership } from './paths.ts';
import { cmdCommandLine, readShell } from './shells.ts';
import { destructive, MAX_DEPTH, nestedState, opaque, overBudget, type State } from './state.ts';

/**
 * cmd lines, and the native programs cmd or PowerShell run: another shell in turn, or a
 * command in canonical spelling (robocopy, PsExec, diskpart, reg, takeown, icacls).
 */

export function readCmdLine(line: string, state: State): void {
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
export function judgeNative(words: readonly string[], state: State, command?: CmdCommand): void {
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
