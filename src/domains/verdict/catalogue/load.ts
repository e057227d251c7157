import fs from 'node:fs';
import { Ajv, type ErrorObject } from 'ajv';
import { type CompiledProgram, compileProgram, compileRule, type PatternCompiler } from './matcher.ts';
import { linearPatternError, trustedPattern } from './patterns.ts';
import { type ProgramSpec, type Rule, type RuleFile, RuleFileSchema, RuleSchema } from './schema.ts';

const ajv = new Ajv({ allErrors: true, strict: true });
const validateFile = ajv.compile<RuleFile>(RuleFileSchema);
export const validateRule = ajv.compile<Rule>(RuleSchema);

/** Programs by every name that runs them, with their rules compiled in. */
export interface Registry {
  /** Lower-cased program name or alias → the programs it may be. */
  byName: Map<string, CompiledProgram[]>;
  /** Canonical name → program. */
  programs: Map<string, CompiledProgram>;
  ruleCount: number;
}

/** `rules/3/code` → `rule 3 (kubectl.delete-ns), field code`. */
function where(path: string, rules: readonly unknown[] | undefined): string {
  const parts = path.split('/').filter((p) => p !== '');
  if (parts[0] === 'rules' && parts[1] !== undefined) {
    const index = Number(parts[1]);
    const id = (rules?.[index] as { id?: unknown } | undefined)?.id;
    const named = typeof id === 'string' ? ` (${id})` : '';
    const field = parts.slice(2).join('.');
    return `rule ${index}${named}${field === '' ? '' : `, field ${field}`}`;
  }
  return parts.length === 0 ? 'top level' : `field ${parts.join('.')}`;
}

/** Readable schema errors: one per place, the most specific message first. */
export function describeErrors(
  errors: readonly ErrorObject[],
  rules: readonly unknown[] | undefined,
  prefix = '',
): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const e of errors) {
    if (e.keyword === 'anyOf') continue;
    const place = where(e.instancePath, rules);
    let message = e.message ?? 'is invalid';
    if (e.keyword === 'additionalProperties')
      message = `has an unknown field "${String(e.params['additionalProperty'])}"`;
    if (e.keyword === 'enum')
      message = `must be one of ${(e.params['allowedValues'] as string[]).join(', ')}`;
    if (e.keyword === 'const') message = `must be ${JSON.stringify(e.params['allowedValue'])}`;
    const line = `${prefix}${place}: ${message}`;
    if (seen.has(place)) continue;
    seen.add(place);
    out.push(line);
  }
  return out;
}

/** Every pattern a rule carries, with the field it sits in. */
export function rulePatterns(rule: Rule): [string, string][] {
  const out: [string, string][] = [];
  if (rule.operands?.first) out.push(['operands.first', rule.operands.first]);
  if (rule.operands?.any) out.push(['operands.any', rule.operands.any]);
  if (rule.operands?.none) out.push(['operands.none', rule.operands.none]);
  if (rule.values) out.push(['values.pattern', rule.values.pattern]);
  if (rule.breadth?.operands) out.push(['breadth.operands', rule.breadth.operands]);
  rule.protected?.forEach((ref, i) => {
    if (ref.pattern) out.push([`protected.${i}.pattern`, ref.pattern]);
  });
  return out;
}

/** Checks the schema cannot express: patterns in RE2 syntax, a code and message, an extract source. */
export function ruleProblems(rule: Rule): [string, string][] {
  const problems: [string, string][] = [];
  for (const [field, source] of rulePatterns(rule)) {
    const error = linearPatternError(source);
    if (error !== undefined) problems.push([field, `is not a linear-time (RE2) pattern: ${error}`]);
  }
  if (rule.extract === undefined && rule.delegate !== true) {
    if (rule.code === undefined)
      problems.push(['code', 'is required (only extract and delegate rules may leave it out)']);
    if (rule.message === undefined)
      problems.push(['message', 'is required (only extract and delegate rules may leave it out)']);
  } else if (
    rule.extract &&
    rule.extract.flags === undefined &&
    rule.extract.operand === undefined &&
    !rule.extract.stdin
  ) {
    problems.push(['extract', 'must name flags, an operand or stdin as what carries the code']);
  }
  if (rule.extract?.language === 'cypher' && rule.extract.dialect !== undefined) {
    problems.push(['extract.dialect', 'is a SQL dialect; a cypher extract takes none']);
  }
  if (
    rule.operands?.min !== undefined &&
    rule.operands.max !== undefined &&
    rule.operands.min > rule.operands.max
  ) {
    problems.push(['operands', 'min is larger than max']);
  }
  return problems;
}

export function programNames(rule: Rule): string[] {
  return typeof rule.program === 'string' ? [rule.program] : rule.program;
}

export interface NamedFile {
  name: string;
  data: unknown;
  /** Why the file could not be read as JSON. */
  unreadable?: string;
}

export type RegistryBuild = { ok: true; registry: Registry } | { ok: false; errors: string[] };

/**
 * Validates rule files and compiles them into one registry. Programs may be defined in one file and
 * used by rules of another; a name defined twice, a rule naming an undefined program and a
 * duplicate rule id are errors.
 */
export function buildRegistry(
  files: readonly NamedFile[],
  compile: PatternCompiler = trustedPattern,
): RegistryBuild {
  const errors: string[] = [];
  const valid: { name: string; file: RuleFile }[] = [];
  for (const { name, data, unreadable } of files) {
    if (unreadable !== undefined) {
      errors.push(`${name}: is not valid JSON: ${unreadable}`);
      continue;
    }
    if (!validateFile(data)) {
      const rules = (data as { rules?: unknown } | null)?.rules;
      errors.push(
        ...describeErrors(validateFile.errors ?? [], Array.isArray(rules) ? rules : undefined, `${name}: `),
      );
      continue;
    }
    valid.push({ name, file: data });
  }
  const specs = new Map<string, { spec: ProgramSpec; file: string }>();
  for (const { name, file } of valid) {
    for (const [program, spec] of Object.entries(file.programs ?? {})) {
      const key = program.toLowerCase();
      const before = specs.get(key);
      if (before) errors.push(`${name}: program "${program}" is already defined in ${before.file}`);
      else specs.set(key, { spec, file: name });
    }
  }
  const programs = new Map<string, CompiledProgram>();
  const byName = new Map<string, CompiledProgram[]>();
  for (const [key, { spec }] of specs) {
    const program = compileProgram(key, spec, compile);
    programs.set(key, program);
    for (const alias of [key, ...(spec.aliases ?? []).map((a) => a.toLowerCase())]) {
      const list = byName.get(alias) ?? [];
      if (!list.includes(program)) list.push(program);
      byName.set(alias, list);
    }
  }
  const ids = new Map<string, string>();
  let ruleCount = 0;
  for (const { name, file } of valid) {
    file.rules.forEach((rule, index) => {
      const at = `${name}: rule ${index} (${rule.id})`;
      const other = ids.get(rule.id);
      if (other) errors.push(`${at}: the id is already used in ${other}`);
      ids.set(rule.id, name);
      for (const [field, problem] of ruleProblems(rule)) errors.push(`${at}, field ${field}: ${problem}`);
      for (const programName of programNames(rule)) {
        const program = programs.get(programName.toLowerCase());
        if (program === undefined) {
          errors.push(`${at}, field program: "${programName}" is not defined in any rule file's programs`);
          continue;
        }
        if (errors.length === 0) {
          program.rules.push(compileRule(rule, program, compile));
          ruleCount++;
        }
      }
    });
  }
  if (errors.length > 0) return { ok: false, errors };
  return { ok: true, registry: { byName, programs, ruleCount } };
}

/** The built-in rule files: every `*.json` under `dir`, in name order. */
export function readRuleFiles(dir: URL): NamedFile[] {
  return fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => {
      const text = fs.readFileSync(new URL(f, dir), 'utf8');
      try {
        return { name: f, data: JSON.parse(text) as unknown };
      } catch (error) {
        return { name: f, data: undefined, unreadable: (error as Error).message };
      }
    });
}
