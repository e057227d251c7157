import { requote } from './names.ts';
import { nestedState, opaque, type State } from './state.ts';

/**
 * `powershell`, `pwsh` and `cmd` run as programs: the code their command line runs
 * (`-Command`, `-EncodedCommand`, `/c`, or standard input).
 */

export function readShell(program: string, args: readonly string[], state: State): void {
  const inner = nestedState(state);
  if (program === 'cmd') {
    // Without /c or /k, cmd runs the lines it reads on standard input.
    const line = cmdCommandLine(args) ?? state.stdin;
    if (line !== undefined) inner.read.cmdLine(line, inner);
    return;
  }
  const script = powerShellCommand(program, args, state);
  if (script !== undefined) inner.read.powershell(script, inner);
}

/** What `cmd [/q /d /v:on …] /c|/k|/r command…` runs. */
export function cmdCommandLine(args: readonly string[]): string | undefined {
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
