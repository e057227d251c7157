import type { ShNode } from 'mvdan-sh';
import type { CatalogueContext } from '../../catalogue/index.ts';
import type { Finding } from '../../codes.ts';
import type { Step } from '../../effects.ts';
import type { ExecutionSettings } from '../../execution.ts';
import type { EgressSettings } from '../egress.ts';
import type { PathContext } from '../paths.ts';

/**
 * What one analysis of a command line carries: its context, the fields and streams commands
 * exchange, variable scopes, budgets, and the findings it pushes.
 */

/**
 * Budgets (verdict README, "Budgets"). A script above PARSE_LIMIT is read by the linear word
 * splitter, which resolves no expansion, so an unknown word in command position there is opaque.
 * Past the other limits the command is refused as too complex to resolve: a guard that gave up
 * silently would be walked around by padding.
 */
export const PARSE_LIMIT = 32 * 1024;

/** How deep `bash -c`, `eval`, decoders, functions and inline interpreters may nest. */
const MAX_DEPTH = 8;

/** Simple commands judged in one analysis (loops and functions are walked again per item). */
export const MAX_COMMANDS = 4000;

/** Fields one word may expand to (brace expansion), and items a loop or xargs is judged with. */
export const MAX_FIELDS = 256;
export const MAX_ITEMS = 32;

export interface ShellContext {
  egress: EgressSettings;
  /** Home and the agent's workspace: what a wipe is judged against. */
  paths: PathContext;
  /** Where relative paths resolve now: the workspace, until a `cd`. */
  cwd: PathContext;
  /** The account's home and workspace, when the payload's `cwd` moved the working tree elsewhere. */
  configured: PathContext;
  catalogue: CatalogueContext;
  execution: ExecutionSettings;
  /**
   * Files written earlier in the same command line, by normalised path: what a later
   * `sh file`, `./file`, `source file` or `python file` would run (see `written`).
   */
  written: Map<string, Stream>;
  /** Symbolic links made earlier in the command line (`ln -s /home/agent h`): link → target. */
  links: Map<string, string>;
  /** Files holding secrets that `git add` staged earlier in the command line. */
  staged: string[];
  /** The branch `git checkout` or `git switch` made current earlier in the command line. */
  branch?: string;
  /** Descriptors opened for reading earlier in the command line (`exec 3<<<'…'`). */
  fds?: Map<string, Stream>;
  /** The directory stack of `pushd`, most recent first (shared by the walks of one command). */
  dirs?: string[];
}

/** Scripts written within one command line that are remembered; more are taken as unknown. */
export const MAX_WRITTEN_FILES = 64;

/** One field of a command after expansion: the text the program would receive, when knowable. */
export interface Field {
  text: string;
  /** Part of the field comes from an expansion whose value is not known. */
  dynamic: boolean;
  /** Files that a command substitution in this field reads. */
  reads?: string[];
  /** What the unknown part is: the output of a fetch, of a decoder, of a program. */
  opaque?: string;
  /**
   * The unknown part is an unknown variable, fetched data or decoded data: in command position
   * that is opaque code. (A substitution that computes a path or reads a local file names a
   * program on this machine instead.)
   */
  codeLike?: boolean;
  /** How the field was resolved (`$X`, `an alias`, `base64 -d`…), for messages. */
  via?: string;
  /** The field carries data that must not leave (see Stream.sensitive). */
  sensitive?: string;
  /** The commands a substitution in the field runs (see Stream.from). */
  from?: { name: string; args: string[] }[];
  /** A process substitution `<(…)`: what reading the file it names gives. */
  proc?: Stream;
  /**
   * The text before backslashes were removed, where it differs: cmd and PowerShell keep
   * `C:\Windows\System32` whole, a POSIX shell would not.
   */
  raw?: string;
}

/** What a command writes to its standard output, as far as it is known. */
export interface Stream {
  literal?: string;
  files?: string[];
  /** The output of a network fetch: a URL or a host. */
  fetched?: { url?: string; host?: string; tool: string };
  /** Decoded or generated data that is not literal. */
  unknown?: string;
  /** The unknown data comes out of a decoder (`base64 -d`, `xxd -r`, `rev`, `tr`…). */
  decoded?: boolean;
  /** An interactive shell's output (`sh -i | nc …` is a reverse shell). */
  shell?: boolean;
  /** A network connection's output (`nc host 1 | sh` is a reverse shell). */
  socket?: string;
  /** What the data holds that must not leave: `the process environment` (secrets live there). */
  sensitive?: string;
  /** The command that produced it, and what that command read. */
  producer?: { words: Field[]; stdin?: Stream };
  /** A saved `terraform plan -destroy`: applying it destroys what the configuration manages. */
  destroyPlan?: boolean;
  /** `find` results: its roots, and whether a test narrows them. */
  found?: { roots: Field[]; narrowed: boolean };
}

export interface Value {
  text: string;
  known: boolean;
  /** A name reference (`declare -n`): the variable whose value this one reads. */
  ref?: string;
  /** An array: `"${a[@]}"` gives its words as separate fields. */
  array?: boolean;
  /** An array's elements, when all are known: `${a[1]}` picks one. */
  items?: string[];
  reads?: string[];
  opaque?: string;
  codeLike?: boolean;
}

interface Scope {
  /** Created on first write: most commands assign nothing. */
  vars?: Map<string, Value>;
  aliases?: Map<string, string>;
  functions?: Map<string, ShNode>;
  positional: Field[];
  /** `set -- …` gave the positional parameters values, so `$@` is known at the top level too. */
  positionalSet?: boolean;
}

export interface Walk {
  ctx: ShellContext;
  findings: Finding[];
  /** Each program run, reduced to its effects (shared by the walks of one command line). */
  steps: Step[];
  depth: number;
  scope: Scope;
  budget: { commands: number; parsed: number; exhausted: boolean };
  /** The walk's entry points (see Walker). */
  run: Walker;
}

/**
 * The walk's entry points, carried by the walk so that what it reaches (an expansion, a judge)
 * can walk nested code without importing the modules above it: arrows point down.
 */
export interface Walker {
  /** One simple command (`command.ts`). */
  command(words: Field[], walk: Walk, stdin?: Stream): Stream | undefined;
  /** A script, parsed or read linearly (`script.ts`). */
  script(script: string, walk: Walk): void;
  /** A parsed statement: a function's body (`statements.ts`). */
  statement(stmt: ShNode, walk: Walk, stdin?: Stream): Stream | undefined;
  /** The statements of a command substitution, in a subshell (`statements.ts`). */
  substitution(stmts: ShNode[], walk: Walk): Stream | undefined;
  /** Text written to a file that runs later, judged as what it will run (`shell.ts`). */
  planted(path: string, text: string, walk: Walk): void;
}

const DEFAULT_IFS = ' \t\n';

export function baseName(word: string): string {
  const slash = Math.max(word.lastIndexOf('/'), word.lastIndexOf('\\'));
  const base = slash >= 0 ? word.slice(slash + 1) : word;
  return base.length > 4 && base.charCodeAt(base.length - 4) === 46 ? base.replace(/\.exe$/i, '') : base;
}

export function describeTarget(target: string): string {
  return target.length > 60 ? `${target.slice(0, 57)}...` : target;
}

export function joinFields(fields: readonly Field[]): string {
  return fields.map((f) => f.text).join(' ');
}

export function push(walk: Walk, code: Finding['code'], message: string, location?: string): void {
  walk.findings.push(location === undefined ? { code, message } : { code, message, location });
}

export function destructive(walk: Walk, message: string, location: string): void {
  push(walk, 'DEST_MUTATION', message, location);
}

/** Code a shell or interpreter would run that cannot be resolved: refused unless the account allows it. */
export function opaque(walk: Walk, what: string): void {
  if (walk.ctx.execution.allow_opaque) return;
  push(
    walk,
    'POLICY_VIOLATION',
    `cannot tell what would run: ${what}; opaque code is refused unless the account allows it (PUT /v1/settings/execution)`,
    'opaque code',
  );
}

export function overBudget(walk: Walk, what: string): void {
  if (walk.budget.exhausted) return;
  walk.budget.exhausted = true;
  push(
    walk,
    'POLICY_VIOLATION',
    `the command is too complex to resolve within the analysis budget (${what})`,
  );
}

export function reverseShell(walk: Walk, how: string): void {
  push(walk, 'EXFILTRATION_BLOCKED', `reverse shell: ${how}`, 'network');
}

export function newScope(positional: Field[] = [], parent?: Scope): Scope {
  const scope: Scope = { positional };
  if (parent?.vars) scope.vars = new Map(parent.vars);
  if (parent?.aliases) scope.aliases = new Map(parent.aliases);
  if (parent?.functions) scope.functions = new Map(parent.functions);
  return scope;
}

export function child(walk: Walk, scope?: Scope): Walk | undefined {
  if (walk.depth + 1 > MAX_DEPTH) {
    overBudget(walk, `more than ${MAX_DEPTH} levels of nested code`);
    return undefined;
  }
  return { ...walk, depth: walk.depth + 1, scope: scope ?? walk.scope };
}

export function lookup(walk: Walk, name: string, hops = 0): Value | undefined {
  const value = walk.scope.vars?.get(name);
  if (value?.ref !== undefined && hops < 8) return lookup(walk, value.ref, hops + 1);
  if (value !== undefined) return value;
  if (/^\d$/.test(name)) {
    const field = walk.scope.positional[Number(name)];
    if (field) return { text: field.text, known: !field.dynamic };
    // A shell.exec command line is run with no arguments: at the top level `$1` is empty.
    return walk.depth === 0 && !walk.scope.positionalSet ? { text: '', known: true } : undefined;
  }
  if (name === '@' || name === '*') {
    const rest = walk.scope.positional.slice(1);
    const known = rest.every((f) => !f.dynamic);
    // "$@" gives each parameter as a field of its own, like an array.
    return name === '@' && known
      ? { text: joinFields(rest), known, array: true, items: rest.map((f) => f.text) }
      : { text: joinFields(rest), known };
  }
  if (name === '#') return { text: String(Math.max(0, walk.scope.positional.length - 1)), known: true };
  switch (name) {
    case 'HOME':
      return { text: walk.ctx.paths.home, known: true };
    case 'PWD':
      return { text: walk.ctx.cwd.workspace, known: true };
    case 'IFS':
      return { text: DEFAULT_IFS, known: true };
    case 'PATH':
      return { text: '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin', known: true };
    case 'SHELL':
      return { text: '/bin/sh', known: true };
    case 'USER':
    case 'LOGNAME':
      return { text: baseName(walk.ctx.paths.home), known: true };
    default:
      return undefined;
  }
}

export function assign(walk: Walk, name: string, value: Value): void {
  walk.scope.vars ??= new Map();
  if (walk.scope.vars.size < 4096) walk.scope.vars.set(name, value);
}

export function ifsOf(walk: Walk): string {
  const ifs = walk.scope.vars?.get('IFS');
  return ifs?.known ? ifs.text : DEFAULT_IFS;
}

export function describeStream(stream: Stream | undefined): string | undefined {
  if (!stream) return undefined;
  if (stream.fetched)
    return `what ${stream.fetched.tool} fetches from ${stream.fetched.url ?? stream.fetched.host ?? 'the network'}`;
  if (stream.unknown) return stream.unknown;
  if (stream.files && stream.files.length > 0)
    return `the contents of ${describeTarget(stream.files.join(' '))}`;
  if (stream.socket) return `what ${stream.socket} receives`;
  return undefined;
}

export function hostOf(url: string | undefined): string | undefined {
  if (url === undefined) return undefined;
  try {
    return new URL(url).hostname;
  } catch {
    return undefined;
  }
}

/** The commands that made a stream, in pipeline order (`pg_dump prod | gzip`). */
export function producersOf(stream: Stream | undefined): { name: string; args: string[] }[] | undefined {
  const steps: { name: string; args: string[] }[] = [];
  for (let at = stream; at?.producer !== undefined && steps.length < 8; at = at.producer.stdin) {
    const words = at.producer.words;
    if (words[0])
      steps.unshift({ name: baseName(words[0].text), args: words.slice(1, 33).map((w) => w.text) });
  }
  return steps.length > 0 ? steps : undefined;
}

export type ShellOptions = {
  egress?: EgressSettings;
  paths?: PathContext;
  catalogue?: CatalogueContext;
  execution?: ExecutionSettings;
  cwd?: string;
  /** Environment the command runs with (`shell.exec` payload `env`): its values are known. */
  env?: Record<string, string>;
  /** False sends the top-level script to mvdan/sh even when a linear reader could take it. */
  fastPaths?: boolean;
};

/** What a shell.exec command line would do: its findings and the programs it runs, as effects. */
export interface ShellReading {
  findings: Finding[];
  steps: Step[];
}

/** One program run by the command line, as its judges see it (`program-judges.ts`). */
export interface ProgramCall {
  /** The program's name as written (its base name). */
  name: string;
  args: Field[];
  /** The arguments' texts, with what the program also reads from its settings (`TF_CLI_ARGS`). */
  texts: string[];
  walk: Walk;
  stdin?: Stream;
}

/** A judge's answer when the program's next judge, and in the end its generic reading, still apply. */
export const NEXT = Symbol('next judge');
