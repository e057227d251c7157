/**
 * Reads a command's arguments the way its program would: which words are options, which options
 * carry a value, which words are positional. Each program declares its option style and the
 * options that take a value; everything else follows the style's conventions.
 */

export type OptionStyle = 'posix' | 'single-dash' | 'powershell' | 'cmd';

export interface ArgvSyntax {
  style: OptionStyle;
  /** Flags compare without case (PowerShell, cmd switches); names are stored lower-cased. */
  foldFlags: boolean;
  /** Options whose value may be the next word, by normalised name. */
  valueOptions: ReadonlySet<string>;
  /** Options that take a value only when it is attached (`-psecret`). */
  attachedOptions: ReadonlySet<string>;
}

export interface ParsedArgv {
  positionals: string[];
  /**
   * Per positional: it directly follows an option we do not know, so it may be that option's
   * value rather than a positional. Path matching may skip such words.
   */
  maybeValue: boolean[];
  /** Per positional: its index in the arguments, so a nested command can be cut out. */
  index: number[];
  /** Normalised flag name → the values it was given (`''` when none). */
  flags: Map<string, string[]>;
}

/** Values that switch a boolean flag off: `--all=false`, `-Force:$false`, `--dry-run=none`. */
const FALSE_VALUES = new Set(['false', 'no', 'off', 'none', '$false']);

export function isFalseValue(value: string): boolean {
  return FALSE_VALUES.has(value.toLowerCase());
}

/** The name a flag is stored and looked up under for a syntax. */
export function normaliseFlag(name: string, syntax: Pick<ArgvSyntax, 'style' | 'foldFlags'>): string {
  let n = syntax.foldFlags ? name.toLowerCase() : name;
  if (syntax.style === 'single-dash' && n.startsWith('--')) n = n.slice(1);
  return n;
}

function add(flags: Map<string, string[]>, name: string, value: string): void {
  const values = flags.get(name);
  if (values === undefined) flags.set(name, [value]);
  else values.push(value);
}

/** PowerShell accepts any unambiguous prefix of a parameter name. */
function powershellValueOption(name: string, syntax: ArgvSyntax): boolean {
  if (syntax.valueOptions.has(name)) return true;
  if (name.length < 3) return false;
  for (const option of syntax.valueOptions) if (option.startsWith(name)) return true;
  return false;
}

const CMD_SWITCHES = /^(?:\/[A-Za-z0-9?]+(?::[^/]*)?)+$/;
const CMD_SWITCH = /\/([A-Za-z0-9?]+)(?::([^/]*))?/g;

export function parseArgv(args: readonly string[], syntax: ArgvSyntax): ParsedArgv {
  const positionals: string[] = [];
  const maybeValue: boolean[] = [];
  const index: number[] = [];
  const flags = new Map<string, string[]>();
  let unknownBefore = false;
  let optionsEnded = false;
  for (let i = 0; i < args.length; i++) {
    const word = args[i]!;
    const first = word.charCodeAt(0);
    const second = word.charCodeAt(1);
    const option =
      !optionsEnded &&
      word.length >= 2 &&
      (syntax.style === 'cmd' ? first === 47 /* / */ && CMD_SWITCHES.test(word) : first === 45) /* - */ &&
      !(second >= 48 && second <= 57) /* -1 is a number */;
    if (!option) {
      index.push(i);
      positionals.push(word);
      maybeValue.push(unknownBefore);
      unknownBefore = false;
      continue;
    }
    if (syntax.style === 'cmd') {
      // `/S /Q`, `/s/q`, `/FS:NTFS`; a leading `-` is not a switch for cmd built-ins.
      for (const m of word.matchAll(CMD_SWITCH)) add(flags, `/${m[1]!.toLowerCase()}`, m[2] ?? '');
      unknownBefore = false;
      continue;
    }
    if (word === '--' && syntax.style !== 'powershell') {
      optionsEnded = true;
      continue;
    }
    if (syntax.style === 'powershell') {
      const colon = word.indexOf(':');
      const name = normaliseFlag(colon < 0 ? word : word.slice(0, colon), syntax);
      if (colon >= 0) add(flags, name, word.slice(colon + 1));
      else if (powershellValueOption(name, syntax) && i + 1 < args.length) add(flags, name, args[++i]!);
      else add(flags, name, '');
      unknownBefore = false;
      continue;
    }
    if (second === 45 /* -- */ || syntax.style === 'single-dash') {
      const eq = word.indexOf('=');
      const name = normaliseFlag(eq < 0 ? word : word.slice(0, eq), syntax);
      if (eq >= 0) {
        add(flags, name, word.slice(eq + 1));
        unknownBefore = false;
      } else if (syntax.valueOptions.has(name) && i + 1 < args.length) {
        add(flags, name, args[++i]!);
        unknownBefore = false;
      } else {
        add(flags, name, '');
        unknownBefore = !syntax.attachedOptions.has(name);
      }
      continue;
    }
    // A cluster of short options: `-rf`, `-Af`, `-nprod`, `-n=prod`, `-psecret`.
    unknownBefore = false;
    for (let j = 1; j < word.length; j++) {
      const name = normaliseFlag(`-${word[j]}`, syntax);
      if (syntax.valueOptions.has(name) || syntax.attachedOptions.has(name)) {
        let rest = word.slice(j + 1);
        if (rest.startsWith('=')) rest = rest.slice(1);
        if (rest !== '') add(flags, name, rest);
        else if (syntax.valueOptions.has(name) && i + 1 < args.length) add(flags, name, args[++i]!);
        else add(flags, name, '');
        break;
      }
      add(flags, name, '');
      if (j === word.length - 1) unknownBefore = true;
    }
  }
  return { positionals, maybeValue, index, flags };
}
