import type { Finding } from '../codes.ts';
import {
  buildRegistry,
  describeErrors,
  programNames,
  type Registry,
  readRuleFiles,
  rulePatterns,
  ruleProblems,
  validateRule,
} from './load.ts';
import {
  type CompiledProgram,
  type CompiledRule,
  compileProgram,
  compileRule,
  type Judgement,
  judgeProgram,
} from './matcher.ts';
import { linearPattern } from './patterns.ts';
import { FORMAT_VERSION, type Rule } from './schema.ts';
import {
  readWindowsArgv,
  readWindowsCommandLine,
  type WebRequest,
  type WindowsReading,
} from './windows-command.ts';

/**
 * Names an account never lets an agent delete or force-push, by kind (issue: destructive
 * operations across the tool belt). Matching is exact and case-sensitive, except that a
 * trailing `*` in a stored name matches any suffix (`release-*`).
 */
export interface ProtectedResources {
  branches: string[];
  namespaces: string[];
  databases: string[];
  buckets: string[];
  projects: string[];
}

export const EMPTY_PROTECTED_RESOURCES: ProtectedResources = Object.freeze({
  branches: [],
  namespaces: [],
  databases: [],
  buckets: [],
  projects: [],
}) as unknown as ProtectedResources;

/** One rule of the catalogue, format version 1 (./schema.ts, ./README.md). */
export type CatalogueRule = Rule;

/** What a catalogue decision depends on besides the command itself. */
export interface CatalogueContext {
  protected: ProtectedResources;
  /** The account's own rules, already validated; judged after the built-in ones. */
  accountRules: readonly CatalogueRule[];
  /**
   * Judges an HTTP request a Windows line would send (`Invoke-RestMethod -InFile .env …`) by the
   * egress rules, which know the account's trusted hosts; the shell analyzer supplies it.
   */
  webRequest?: (request: WebRequest) => Finding[];
}

export const DEFAULT_CATALOGUE_CONTEXT: CatalogueContext = Object.freeze({
  protected: EMPTY_PROTECTED_RESOURCES,
  accountRules: [],
});

export const RULES_DIR = new URL('./rules/', import.meta.url);

/** Reads, validates and compiles the rule files of a directory; throws, naming every problem. */
export function loadBuiltInRules(dir: URL): Registry {
  const built = buildRegistry(readRuleFiles(dir));
  if (!built.ok) {
    throw new Error(
      `The destructive-operation catalogue has invalid rule files:\n  ${built.errors.join('\n  ')}`,
    );
  }
  return built.registry;
}

// Loaded once, when the verdict engine is first imported: a broken built-in file stops the start.
const BUILT_IN = loadBuiltInRules(RULES_DIR);

/** How many built-in rules are loaded, per program attachment. */
export const BUILT_IN_RULE_COUNT = BUILT_IN.ruleCount;

/** `/usr/local/bin/kubectl`, `C:\tools\KUBECTL.EXE` → `kubectl`. */
function programKey(word: string): string {
  if (!/[A-Z/\\.]/.test(word)) return word;
  const slash = Math.max(word.lastIndexOf('/'), word.lastIndexOf('\\'));
  return word
    .slice(slash + 1)
    .toLowerCase()
    .replace(/\.(?:exe|cmd|bat|com)$/, '');
}

/** Whether the built-in catalogue has rules for a program: it judges the breadth of its deletes. */
export function catalogueJudges(program: string): boolean {
  return BUILT_IN.byName.has(programKey(program));
}

/** Account rules compiled once per rule list: attached to the built-in programs they name. */
interface AccountIndex {
  onBuiltIn: Map<CompiledProgram, CompiledRule[]>;
  /** Programs the built-in files do not define, read with the default POSIX syntax. */
  own: Map<string, CompiledProgram>;
}

const accountIndexes = new WeakMap<readonly CatalogueRule[], AccountIndex>();

function accountIndex(rules: readonly CatalogueRule[]): AccountIndex {
  let index = accountIndexes.get(rules);
  if (index !== undefined) return index;
  index = { onBuiltIn: new Map(), own: new Map() };
  for (const rule of rules) {
    for (const name of programNames(rule)) {
      const key = name.toLowerCase();
      const builtIn = BUILT_IN.byName.get(key);
      if (builtIn === undefined) {
        let program = index.own.get(key);
        if (program === undefined) {
          program = compileProgram(key, {}, linearPattern);
          index.own.set(key, program);
        }
        program.rules.push(compileRule(rule, program, linearPattern));
        continue;
      }
      for (const program of builtIn) {
        const list = index.onBuiltIn.get(program) ?? [];
        list.push(compileRule(rule, program, linearPattern));
        index.onBuiltIn.set(program, list);
      }
    }
  }
  accountIndexes.set(rules, index);
  return index;
}

/**
 * Findings for one resolved command: `argv[0]` is the program as the shell would run it (any
 * wrappers such as sudo already removed, variables already expanded). A Windows command line
 * (`powershell -c …`, `cmd /c …`, a cmdlet or a cmd built-in) is first read with its own grammar
 * into the commands it would run (./windows-command.ts), and each of those is judged. `stdin` is
 * what the shell knows the command reads on its standard input (a pipe from `echo`, a
 * here-document), if anything: `echo 'DROP TABLE users' | psql prod` is judged by its SQL.
 */
export function judgeArgv(
  argv: readonly string[],
  ctx: CatalogueContext = DEFAULT_CATALOGUE_CONTEXT,
  stdin?: string,
): Finding[] {
  const windows = posixProgram(argv[0]) ? undefined : readWindowsArgv(argv, undefined, stdin);
  if (windows !== undefined) return judgeWindows(windows, ctx);
  const findings: Finding[] = [];
  judgeInto(argv, ctx, stdin, findings, 0);
  return findings;
}

/**
 * Findings for a raw Windows command line, for a caller that has it before any POSIX reading
 * (which drops the backslashes of `C:\Windows`); undefined when the line is not a Windows one.
 */
export function judgeWindowsCommandLine(
  line: string,
  ctx: CatalogueContext = DEFAULT_CATALOGUE_CONTEXT,
): Finding[] | undefined {
  const windows = readWindowsCommandLine(line);
  return windows === undefined ? undefined : judgeWindows(windows, ctx);
}

function judgeWindows(reading: WindowsReading, ctx: CatalogueContext): Finding[] {
  const findings = [...reading.findings];
  for (const command of reading.commands) judgeInto(command, ctx, undefined, findings, 0);
  if (ctx.webRequest) for (const request of reading.requests) findings.push(...ctx.webRequest(request));
  return findings;
}

/**
 * A program the rule files define with a POSIX or single-dash syntax (`redis-cli`, `docker-compose`)
 * is what it says, even when its name looks like a cmdlet's Verb-Noun.
 */
function posixProgram(word: string | undefined): boolean {
  if (word === undefined) return false;
  const programs = BUILT_IN.byName.get(programKey(word));
  return programs?.every((p) => p.syntax.style === 'posix' || p.syntax.style === 'single-dash') === true;
}

/** How many package runners (`npx`, `pnpm dlx`, `yarn`) deep a command is followed. */
const MAX_NESTING = 4;

function judgeInto(
  argv: readonly string[],
  ctx: CatalogueContext,
  stdin: string | undefined,
  out: Finding[],
  depth: number,
): void {
  const first = argv[0];
  if (first === undefined) return;
  const key = programKey(first);
  const programs = BUILT_IN.byName.get(key);
  // xargs and parallel hand their command to the shell analyzer, which judges it on its own.
  if (programs === undefined && key !== 'xargs' && key !== 'parallel')
    judgeUnknownProgram(key, argv.slice(1), out);
  const account = ctx.accountRules.length > 0 ? accountIndex(ctx.accountRules) : undefined;
  if (programs === undefined && account === undefined) return;
  // A method, not an arrow property: the development loader names every closure at a cost.
  const j: Judgement = {
    lists: ctx.protected,
    stdin,
    out,
    nested(inner) {
      if (depth < MAX_NESTING) judgeInto(inner, ctx, stdin, out, depth + 1);
    },
  };
  const args = argv.slice(1);
  if (programs !== undefined) {
    for (const program of programs) judgeProgram(program, args, j, key);
    if (account !== undefined) {
      for (const program of programs) {
        const rules = account.onBuiltIn.get(program);
        if (rules !== undefined) judgeProgram(program, args, j, key, rules);
      }
    }
  } else if (account !== undefined) {
    const own = account.own.get(key);
    if (own !== undefined) judgeProgram(own, args, j, key);
  }
}

/** Verbs that destroy what they name, in the subcommand path of a CLI the rule files do not define. */
const DESTRUCTIVE_VERB = /^(?:delete|del|remove|rm|destroy|purge|terminate|drop|uninstall|erase|wipe|nuke)$/i;
const BREADTH_FLAG = /^(?:--all|-A|--all-namespaces|--everything)$/;
/** Programs whose operands are words to print, look up or search for, not resources. */
const WORD_PRINTERS = new Set([
  'echo',
  'printf',
  'type',
  'which',
  'whereis',
  'man',
  'help',
  'info',
  'tldr',
  'whatis',
  'apropos',
  'command',
  ':',
  'true',
  'false',
  'test',
  '[',
  'alias',
  'hash',
  'complete',
  'compgen',
  'declare',
  'find',
  'grep',
  'rg',
  'ag',
  'sed',
  'awk',
  'cowsay',
  'figlet',
  'say',
  'espeak',
]);

/**
 * The breadth rule for CLIs no rule file defines (`hcloud`, `linode-cli`, a vendor's own tool):
 * a destructive verb among the first words, and then nothing named (the names come from xargs or
 * a substitution the shell could not resolve), a wildcard, or `--all` with no name. One named
 * resource passes, as it does for the defined tools.
 */
function judgeUnknownProgram(program: string, args: readonly string[], out: Finding[]): void {
  if (WORD_PRINTERS.has(program)) return;
  // The subcommand path: the first positional words, while they read as subcommands.
  const positional: number[] = [];
  for (let i = 0; i < args.length && positional.length < 3; i++) {
    if (args[i]!.startsWith('-')) continue;
    if (!/^[a-z][a-z0-9-]*$/.test(args[i]!)) break;
    positional.push(i);
  }
  const verbAt = positional.find((i) => DESTRUCTIVE_VERB.test(args[i]!));
  if (verbAt === undefined) return;
  const grouped = positional.indexOf(verbAt) > 0;
  const rest = args.slice(verbAt + 1);
  const operands = rest.filter((a) => !a.startsWith('-'));
  const unnamed = operands.length === 0;
  const wildcard = operands.some((a) => a === '' || a === '*' || a.includes('{}'));
  const all = rest.some((a) => BREADTH_FLAG.test(a)) && unnamed;
  // Nothing at all after `group delete` is how xargs hands over the names.
  if (!wildcard && !all && !(unnamed && rest.length === 0 && grouped)) return;
  out.push({
    code: 'DEST_MUTATION',
    message: `${program} ${args
      .slice(0, verbAt + 1)
      .filter((a) => !a.startsWith('-'))
      .join(' ')} with ${
      all
        ? '--all'
        : wildcard
          ? 'names from a substitution, xargs or a wildcard'
          : 'no name: the names come from elsewhere (xargs)'
    }: everything of a kind`,
    location: `catalogue generic.delete-breadth (${program})`,
  });
}

/** Limits on what one account may submit. */
export const ACCOUNT_RULE_LIMITS = Object.freeze({ rules: 100, patternLength: 200 });

export type RuleParse = { ok: true; rules: CatalogueRule[] } | { ok: false; errors: string[] };

/**
 * Validates rules an account submits through the API against the rule schema: either
 * `{"version": 1, "rules": [...]}` or the bare list. Patterns must be RE2 (linear-time) syntax;
 * account rules can only add refusals, after the built-in ones.
 */
export function parseAccountRules(input: unknown): RuleParse {
  let rules: unknown = input;
  if (typeof input === 'object' && input !== null && !Array.isArray(input)) {
    const { version, rules: list, ...rest } = input as Record<string, unknown>;
    const extra = Object.keys(rest);
    if (version !== FORMAT_VERSION) return { ok: false, errors: [`version: must be ${FORMAT_VERSION}`] };
    if (extra.length > 0) return { ok: false, errors: [`top level: has an unknown field "${extra[0]}"`] };
    rules = list;
  }
  if (!Array.isArray(rules)) return { ok: false, errors: ['rules: must be a list of rules'] };
  if (rules.length > ACCOUNT_RULE_LIMITS.rules) {
    return { ok: false, errors: [`rules: at most ${ACCOUNT_RULE_LIMITS.rules} rules, got ${rules.length}`] };
  }
  const errors: string[] = [];
  const ids = new Set<string>();
  rules.forEach((rule: unknown, index) => {
    if (!validateRule(rule)) {
      const located = (validateRule.errors ?? []).map((e) => ({
        ...e,
        instancePath: `/rules/${index}${e.instancePath}`,
      }));
      errors.push(...describeErrors(located, rules));
      return;
    }
    const at = `rule ${index} (${rule.id})`;
    if (ids.has(rule.id)) errors.push(`${at}, field id: is used by an earlier rule`);
    ids.add(rule.id);
    for (const [field, source] of rulePatterns(rule)) {
      if (source.length > ACCOUNT_RULE_LIMITS.patternLength) {
        errors.push(`${at}, field ${field}: is longer than ${ACCOUNT_RULE_LIMITS.patternLength} characters`);
      }
    }
    for (const [field, problem] of ruleProblems(rule)) errors.push(`${at}, field ${field}: ${problem}`);
  });
  if (errors.length > 0) return { ok: false, errors };
  return { ok: true, rules: rules as CatalogueRule[] };
}
