import { analyzeSql } from '../analyzers/sql.ts';
import type { SqlDialect } from '../catalog.ts';
import type { Finding } from '../codes.ts';
import { type ArgvSyntax, isFalseValue, normaliseFlag, type ParsedArgv, parseArgv } from './argv.ts';
import { analyzeCypher } from './cypher.ts';
import type { RulePattern } from './patterns.ts';
import type { Breadth, ProgramSpec, ProtectedKind, Rule } from './schema.ts';

/** What a rule's decision depends on besides the command: the account's protected names. */
export type ProtectedLists = Readonly<Partial<Record<ProtectedKind, readonly string[]>>>;

type FlagTest = (parsed: ParsedArgv) => string[] | undefined;

interface CompiledBreadth {
  flags: FlagTest[];
  selectors: FlagTest[];
  operands: RulePattern | undefined;
  noOperands: boolean;
  values: FlagTest[];
}

interface CompiledRef {
  kind: ProtectedKind;
  flags: FlagTest[];
  operands: 'all' | number | undefined;
  pattern: RulePattern | undefined;
}

interface CompiledRule {
  id: string;
  /** Path alternatives; each segment is the set of words it accepts, `null` for any word. */
  paths: (ReadonlySet<string> | null)[][] | undefined;
  any: FlagTest[];
  all: FlagTest[];
  none: FlagTest[];
  operands: {
    min: number;
    max: number;
    first: RulePattern | undefined;
    any: RulePattern | undefined;
    none: RulePattern | undefined;
  };
  values: { flags: FlagTest[]; pattern: RulePattern } | undefined;
  broad: boolean | undefined;
  breadth: CompiledBreadth | undefined;
  refs: CompiledRef[];
  extract:
    | {
        language: 'sql' | 'cypher';
        dialect: SqlDialect | undefined;
        flags: FlagTest[];
        operand: number | undefined;
        stdin: boolean;
      }
    | undefined;
  delegate: boolean;
  code: Finding['code'];
  message: string;
  attack: string[] | undefined;
}

/** One program as the matcher sees it: how to read its arguments, and its rules. */
export interface CompiledProgram {
  name: string;
  syntax: ArgvSyntax;
  foldCommands: boolean;
  safe: FlagTest[];
  breadth: CompiledBreadth;
  rules: CompiledRule[];
}

export type PatternCompiler = (source: string) => RulePattern;

/**
 * A glob star, or a word built by a command substitution the shell could not resolve: the shell
 * passes it as an empty word (or as the text `$(…)`), standing for any number of names; or the
 * `{}` that `xargs -I{}` replaces with each name it reads, left in place when the input is unknown.
 */
const DEFAULT_BROAD_OPERAND = /^$|\*|\$\(|^`|\{\}/;

function syntaxOf(spec: ProgramSpec): ArgvSyntax {
  const style = spec.style ?? 'posix';
  const foldFlags = spec.ignoreCase === 'all' || style === 'powershell' || style === 'cmd';
  const base = { style, foldFlags };
  const valueOptions = new Set<string>();
  const attachedOptions = new Set<string>();
  for (const option of spec.valueOptions ?? []) {
    if (option.endsWith('?')) attachedOptions.add(normaliseFlag(option.slice(0, -1), base));
    else valueOptions.add(normaliseFlag(option, base));
  }
  return { style, foldFlags, valueOptions, attachedOptions };
}

/** A flag is given unless every value it has switches it off (`--all=false`). */
function given(values: string[] | undefined): boolean {
  return values?.some((v) => !isFalseValue(v)) === true;
}

/**
 * A flag spec's test: the values of the matching flag when it is on the line. A `*` at the end
 * matches any suffix; under PowerShell any prefix of the parameter given on the line matches, as
 * PowerShell itself resolves it.
 */
function flagTest(spec: string, syntax: ArgvSyntax): FlagTest {
  const prefix = spec.endsWith('*');
  const name = normaliseFlag(prefix ? spec.slice(0, -1) : spec, syntax);
  if (syntax.style === 'powershell') {
    return (parsed) => {
      for (const [given, values] of parsed.flags) {
        const hit = prefix ? given.startsWith(name) : name.startsWith(given) && given.length >= 2;
        if (hit) return values;
      }
      return undefined;
    };
  }
  if (!prefix) return (parsed) => parsed.flags.get(name);
  return (parsed) => {
    for (const [flag, values] of parsed.flags) if (flag.startsWith(name)) return values;
    return undefined;
  };
}

function flagTests(specs: readonly string[] | undefined, syntax: ArgvSyntax): FlagTest[] {
  return (specs ?? []).map((spec) => flagTest(spec, syntax));
}

function compileBreadth(
  b: Breadth | undefined,
  syntax: ArgvSyntax,
  compile: PatternCompiler,
): CompiledBreadth {
  return {
    flags: flagTests(b?.flags, syntax),
    selectors: flagTests(b?.selectors, syntax),
    operands: b?.operands === undefined ? undefined : compile(b.operands),
    noOperands: b?.noOperands === true,
    values: flagTests(b?.values, syntax),
  };
}

export function compileProgram(name: string, spec: ProgramSpec, compile: PatternCompiler): CompiledProgram {
  const syntax = syntaxOf(spec);
  return {
    name,
    syntax,
    foldCommands: spec.ignoreCase === 'commands' || spec.ignoreCase === 'all' || syntax.style !== 'posix',
    safe: flagTests(spec.safeFlags, syntax),
    breadth: compileBreadth(spec.breadth, syntax, compile),
    rules: [],
  };
}

function compilePaths(paths: readonly string[] | undefined, fold: boolean): CompiledRule['paths'] {
  if (paths === undefined) return undefined;
  return paths.map((path) =>
    path
      .trim()
      .split(/\s+/)
      .map((segment) =>
        segment === '*' ? null : new Set(segment.split('|').map((w) => (fold ? w.toLowerCase() : w))),
      ),
  );
}

export function compileRule(rule: Rule, program: CompiledProgram, compile: PatternCompiler): CompiledRule {
  const syntax = program.syntax;
  const opt = (source: string | undefined) => (source === undefined ? undefined : compile(source));
  return {
    id: rule.id,
    paths: compilePaths(rule.path, program.foldCommands),
    any: flagTests(rule.flags?.any, syntax),
    all: flagTests(rule.flags?.all, syntax),
    none: flagTests(rule.flags?.none, syntax),
    operands: {
      min: rule.operands?.min ?? 0,
      max: rule.operands?.max ?? Number.POSITIVE_INFINITY,
      first: opt(rule.operands?.first),
      any: opt(rule.operands?.any),
      none: opt(rule.operands?.none),
    },
    values: rule.values && {
      flags: flagTests(rule.values.flags, syntax),
      pattern: compile(rule.values.pattern),
    },
    broad: rule.broad,
    breadth: rule.breadth && compileBreadth(rule.breadth, syntax, compile),
    refs: (rule.protected ?? []).map((ref) => ({
      kind: ref.kind,
      flags: flagTests(ref.flags, syntax),
      operands: ref.operands,
      pattern: opt(ref.pattern),
    })),
    extract: rule.extract && {
      language: rule.extract.language,
      dialect: rule.extract.dialect,
      flags: flagTests(rule.extract.flags, syntax),
      operand: rule.extract.operand,
      stdin: rule.extract.stdin === true,
    },
    delegate: rule.delegate === true,
    code: rule.code ?? 'DEST_MUTATION',
    message: rule.message ?? `${program.name} ${rule.path?.[0] ?? ''}`.trim(),
    attack: rule.attack,
  };
}

/** Index of the first operand after the path, or -1 when no alternative matches. */
function matchPath(rule: CompiledRule, parsed: ParsedArgv, fold: boolean): number {
  if (rule.paths === undefined) return 0;
  const words = parsed.positionals;
  for (const segments of rule.paths) {
    let i = 0;
    let ok = true;
    for (const segment of segments) {
      while (
        i < words.length &&
        parsed.maybeValue[i] &&
        segment !== null &&
        !segment.has(fold ? words[i]!.toLowerCase() : words[i]!)
      ) {
        i++;
      }
      const word = words[i];
      if (word === undefined || (segment !== null && !segment.has(fold ? word.toLowerCase() : word))) {
        ok = false;
        break;
      }
      i++;
    }
    if (ok) return i;
  }
  return -1;
}

/** A label selector that selects everything: empty, or made only of negative requirements. */
export function selectsEverything(selector: string): boolean {
  const requirements = selector
    .replace(/\([^)]*\)/g, '()')
    .split(',')
    .map((r) => r.trim())
    .filter((r) => r !== '');
  return requirements.every((r) => r.startsWith('!') || r.includes('!=') || /\snotin\s/.test(r));
}

function isBroad(b: CompiledBreadth, parsed: ParsedArgv, operands: readonly string[]): boolean {
  for (const test of b.flags) if (given(test(parsed))) return true;
  for (const test of b.selectors) {
    if (test(parsed)?.some(selectsEverything)) return true;
  }
  if (b.noOperands && operands.length === 0) return true;
  const broad = (word: string) => (b.operands ? b.operands.test(word) : DEFAULT_BROAD_OPERAND.test(word));
  for (const operand of operands) if (broad(operand)) return true;
  for (const test of b.values) if (test(parsed)?.some(broad)) return true;
  return false;
}

function protectedName(name: string, list: readonly string[]): boolean {
  for (const entry of list) {
    if (entry.endsWith('*') ? name.startsWith(entry.slice(0, -1)) : name === entry) return true;
  }
  return false;
}

function namesProtected(
  ref: CompiledRef,
  parsed: ParsedArgv,
  operands: readonly string[],
  lists: ProtectedLists,
): boolean {
  const list = lists[ref.kind] ?? [];
  if (list.length === 0) return false;
  const check = (value: string) => {
    const name = ref.pattern ? ref.pattern.capture(value) : value;
    return name !== undefined && name !== '' && protectedName(name, list);
  };
  for (const test of ref.flags) if (test(parsed)?.some(check)) return true;
  if (ref.operands === 'all') return operands.some(check);
  if (typeof ref.operands === 'number') {
    const operand = operands[ref.operands];
    return operand !== undefined && check(operand);
  }
  return false;
}

/** What one judgement reads besides the arguments, and where its findings go. */
export interface Judgement {
  lists: ProtectedLists;
  /** The command's standard input, when the shell knows it. */
  stdin: string | undefined;
  out: Finding[];
  /** Judges a command another one runs (`npx aws-cdk destroy`). */
  nested(argv: string[]): void;
}

/** `@aws-cdk/cli@2.1` → `cli`, `aws-cdk@latest` → `aws-cdk`: the name a package runner resolves. */
function packageBin(word: string): string {
  const unscoped = word.startsWith('@') ? word.slice(word.indexOf('/') + 1) : word;
  const at = unscoped.indexOf('@');
  return at > 0 ? unscoped.slice(0, at) : unscoped;
}

function where(label: string, rule: CompiledRule): string {
  return `command "${label}", rule ${rule.id}`;
}

function judgeRule(
  program: CompiledProgram,
  rule: CompiledRule,
  args: readonly string[],
  parsed: ParsedArgv,
  j: Judgement,
  label: string,
): void {
  const { lists, out } = j;
  const start = matchPath(rule, parsed, program.foldCommands);
  if (start < 0) return;
  for (const test of rule.none) if (given(test(parsed))) return;
  if (rule.any.length > 0 && !rule.any.some((test) => given(test(parsed)))) return;
  for (const test of rule.all) if (!given(test(parsed))) return;
  const operands = start === 0 ? parsed.positionals : parsed.positionals.slice(start);
  const o = rule.operands;
  if (operands.length < o.min || operands.length > o.max) return;
  if (o.first && (operands[0] === undefined || !o.first.test(operands[0]))) return;
  if (o.any && !operands.some((w) => o.any!.test(w))) return;
  if (o.none && operands.some((w) => o.none!.test(w))) return;
  if (rule.values) {
    const pattern = rule.values.pattern;
    if (!rule.values.flags.some((test) => test(parsed)?.some((v) => pattern.test(v)))) return;
  }
  if (rule.broad !== undefined && isBroad(rule.breadth ?? program.breadth, parsed, operands) !== rule.broad)
    return;
  if (rule.refs.length > 0 && !rule.refs.some((ref) => namesProtected(ref, parsed, operands, lists))) return;
  if (rule.delegate) {
    const at = parsed.index[start];
    if (at !== undefined) j.nested([packageBin(args[at]!), ...args.slice(at + 1)]);
    return;
  }
  if (rule.extract) {
    const texts: string[] = [];
    for (const test of rule.extract.flags) texts.push(...(test(parsed) ?? []));
    if (rule.extract.operand !== undefined) {
      const operand = operands[rule.extract.operand];
      if (operand !== undefined) texts.push(operand);
    }
    if (rule.extract.stdin && j.stdin !== undefined) texts.push(j.stdin);
    for (const text of texts) {
      if (text.trim() === '') continue;
      const findings =
        rule.extract.language === 'cypher'
          ? analyzeCypher(text)
          : analyzeSql(text, { dialect: rule.extract.dialect });
      for (const finding of findings) {
        out.push(
          withAttack(
            { code: finding.code, message: `${label}: ${finding.message}`, location: where(label, rule) },
            rule,
          ),
        );
      }
    }
    return;
  }
  out.push(withAttack({ code: rule.code, message: rule.message, location: where(label, rule) }, rule));
}

function withAttack(finding: Finding, rule: CompiledRule): Finding {
  if (rule.attack !== undefined) finding.attack = rule.attack;
  return finding;
}

/**
 * Findings of one program's rules for its arguments (argv without the program name), at most one
 * per code: the first rule in file order that fires with a code speaks for it.
 */
export function judgeProgram(
  program: CompiledProgram,
  args: readonly string[],
  j: Judgement,
  label: string,
  rules: readonly CompiledRule[] = program.rules,
): void {
  if (rules.length === 0) return;
  const parsed = parseArgv(args, program.syntax);
  for (const test of program.safe) if (given(test(parsed))) return;
  const start = j.out.length;
  for (const rule of rules) {
    if (rule.extract === undefined && !rule.delegate && hasCode(j.out, start, rule.code)) continue;
    judgeRule(program, rule, args, parsed, j, label);
  }
}

function hasCode(out: readonly Finding[], start: number, code: Finding['code']): boolean {
  for (let i = start; i < out.length; i++) if (out[i]!.code === code) return true;
  return false;
}

export type { CompiledRule };
