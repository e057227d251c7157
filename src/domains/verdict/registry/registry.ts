import fs from 'node:fs';
import { Ajv } from 'ajv';
import { EFFECT_KINDS, type Effect, type EffectKind, type Step } from '../effects.ts';

/**
 * The program registry: every program the verdict engine knows, as data (`programs.json`), with
 * its role and the effects it has. A program run by a command line reduces to a step of effects;
 * one the registry does not know, or a subcommand of a known CLI that is neither modelled nor a
 * read by that CLI's conventions, is a step Arbiter did not understand (`recognised: false`).
 */

export const PROGRAM_ROLES = [
  'plain',
  'wrapper',
  'shell',
  'windows-shell',
  'interpreter',
  'package-runner',
  'remote-executor',
] as const;
export type ProgramRole = (typeof PROGRAM_ROLES)[number];

interface ProgramEntry {
  names: string[];
  role: ProgramRole;
  effects: EffectKind[];
  /** A wrapper's options that take a value (`sudo -u root`). */
  valueOptions?: string[];
  /** A wrapper's operands before the command it runs (`timeout 5 cmd`, `chroot /srv cmd`). */
  operands?: number;
  /** A wrapper's options whose value is a whole command line (`flock -c 'cmd'`). */
  scriptOptions?: string[];
  /** Program name → the subcommand that runs a program the project installed (`bundle exec`). */
  runsPrograms?: Record<string, string>;
  /**
   * An interpreter whose code (`-c`, `-e`, a script, standard input) the shell walk does not
   * follow yet: it is judged by its operands, as any program.
   */
  codeNotFollowed?: boolean;
}

/** A CLI whose first operand is a subcommand with effects of its own. */
interface CliEntry {
  names: string[];
  valueOptions: string[];
  subcommands: Partial<Record<EffectKind, string[]>>;
  /** The effect of a subcommand not listed; without it such a subcommand is not understood. */
  otherSubcommands?: EffectKind;
  /** Program name → the subcommand that runs a program the project installed (`uv run`, `pnpm exec`). */
  runsPrograms?: Record<string, string>;
}

/**
 * A CLI read by its verb conventions: read verbs are reads, modelled verbs have their effect,
 * and any other verb is a mutation Arbiter does not understand until it is modelled.
 * - `service-operation`: `aws <service> <verb>-<noun>`;
 * - `verb-first`: `kubectl <verb> …`, `terraform <verb> …`;
 * - `verb-anywhere`: `gcloud <group>… <verb>`, `az <group>… <verb>`;
 * - `noun-verb`: `gh <noun> <verb>`, with `gh api` a read unless its method says otherwise.
 */
interface ConventionEntry {
  names: string[];
  valueOptions: string[];
  shape: 'service-operation' | 'verb-first' | 'verb-anywhere' | 'noun-verb';
  readVerbs: string[];
  /** verb → effect (`verb-first`), or service → operation → effect (`service-operation`). */
  modelled?: Record<string, EffectKind | Record<string, EffectKind>>;
  modelledVerbs?: string[];
}

interface RegistryFile {
  version: 1;
  description: string;
  programs: ProgramEntry[];
  clis: CliEntry[];
  conventions: ConventionEntry[];
}

const effectKind = { enum: [...EFFECT_KINDS] };
const names = { type: 'array', items: { type: 'string', minLength: 1 }, minItems: 1 };
const strings = { type: 'array', items: { type: 'string', minLength: 1 } };
const subcommandByName = { type: 'object', additionalProperties: { type: 'string', minLength: 1 } };

const FILE_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['version', 'description', 'programs', 'clis', 'conventions'],
  properties: {
    version: { const: 1 },
    description: { type: 'string' },
    programs: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['names', 'role', 'effects'],
        properties: {
          names,
          role: { enum: [...PROGRAM_ROLES] },
          effects: { type: 'array', items: effectKind, minItems: 1 },
          valueOptions: strings,
          operands: { type: 'integer', minimum: 1 },
          scriptOptions: strings,
          runsPrograms: subcommandByName,
          codeNotFollowed: { type: 'boolean' },
        },
      },
    },
    clis: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['names', 'valueOptions', 'subcommands'],
        properties: {
          names,
          valueOptions: strings,
          subcommands: {
            type: 'object',
            propertyNames: effectKind,
            additionalProperties: strings,
          },
          otherSubcommands: effectKind,
          runsPrograms: subcommandByName,
        },
      },
    },
    conventions: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['names', 'valueOptions', 'shape', 'readVerbs'],
        properties: {
          names,
          valueOptions: strings,
          shape: { enum: ['service-operation', 'verb-first', 'verb-anywhere', 'noun-verb'] },
          readVerbs: strings,
          modelled: {
            type: 'object',
            additionalProperties: {
              anyOf: [effectKind, { type: 'object', additionalProperties: effectKind }],
            },
          },
          modelledVerbs: strings,
        },
      },
    },
  },
} as const;

type Known =
  | { kind: 'program'; entry: ProgramEntry }
  | { kind: 'cli'; entry: CliEntry; subcommand: Map<string, EffectKind> }
  | { kind: 'convention'; entry: ConventionEntry; read: Set<string>; verbs: Set<string> };

export interface ProgramRegistry {
  /** The entry a program name runs, after `.exe` and version suffixes (`python3.11`) are dropped. */
  lookup(name: string): Known | undefined;
  /** The name a program is listed under (lower case), after the same steps as `lookup`. */
  resolve(name: string): string | undefined;
  /** Every name the registry knows. */
  names(): string[];
  /** The names listed with a role, as written. */
  withRole(role: ProgramRole): string[];
  /** The interpreters whose code the shell walk follows, as written. */
  codeFollowed(): string[];
}

/** Loads and validates a registry file; a bad file stops the start with the reason. */
export function loadProgramRegistry(file: URL | string): ProgramRegistry {
  const data = JSON.parse(fs.readFileSync(file, 'utf8')) as unknown;
  const validate = new Ajv({ allErrors: true, strict: true }).compile<RegistryFile>(FILE_SCHEMA);
  if (!validate(data)) {
    const first = validate.errors?.[0];
    throw new Error(
      `program registry ${String(file)}: ${first?.instancePath || 'top level'} ${first?.message}`,
    );
  }
  const byName = new Map<string, Known>();
  const add = (name: string, known: Known) => {
    const key = name.toLowerCase();
    if (byName.has(key)) throw new Error(`program registry ${String(file)}: "${name}" is listed twice`);
    byName.set(key, known);
  };
  for (const entry of data.programs) for (const name of entry.names) add(name, { kind: 'program', entry });
  for (const entry of data.clis) {
    const subcommand = new Map<string, EffectKind>();
    for (const [effect, list] of Object.entries(entry.subcommands) as [EffectKind, string[]][]) {
      for (const sub of list) if (!subcommand.has(sub)) subcommand.set(sub, effect);
    }
    for (const name of entry.names) add(name, { kind: 'cli', entry, subcommand });
  }
  for (const entry of data.conventions) {
    const known: Known = {
      kind: 'convention',
      entry,
      read: new Set(entry.readVerbs),
      verbs: new Set(entry.modelledVerbs ?? []),
    };
    for (const name of entry.names) add(name, known);
  }
  const resolve = (name: string): string | undefined => {
    const key = name.toLowerCase().replace(/\.exe$/, '');
    return [key, key.replace(/[\d.]+$/, ''), key.replace(/-[\d.]+$/, '')].find((k) => byName.has(k));
  };
  return {
    lookup(name) {
      const key = resolve(name);
      return key === undefined ? undefined : byName.get(key);
    },
    resolve,
    names: () => [...byName.keys()],
    withRole: (role) => data.programs.filter((entry) => entry.role === role).flatMap((entry) => entry.names),
    codeFollowed: () =>
      data.programs
        .filter((entry) => entry.role === 'interpreter' && entry.codeNotFollowed !== true)
        .flatMap((entry) => entry.names),
  };
}

export const PROGRAMS: ProgramRegistry = loadProgramRegistry(new URL('./programs.json', import.meta.url));

/** How a wrapper reads its words before the command it runs. */
export interface Wrapper {
  valueOptions: ReadonlySet<string>;
  operands: number;
  scriptOptions: ReadonlySet<string>;
}

const wrappers = new Map<ProgramEntry, Wrapper>();

/** The wrapper a program name runs (`sudo`, `nice`, `timeout`…), if it is one. */
export function wrapperOf(name: string): Wrapper | undefined {
  const known = PROGRAMS.lookup(name);
  if (known?.kind !== 'program' || known.entry.role !== 'wrapper') return undefined;
  let wrapper = wrappers.get(known.entry);
  if (wrapper === undefined) {
    wrapper = {
      valueOptions: new Set(known.entry.valueOptions ?? []),
      operands: known.entry.operands ?? 0,
      scriptOptions: new Set(known.entry.scriptOptions ?? []),
    };
    wrappers.set(known.entry, wrapper);
  }
  return wrapper;
}

/**
 * How a package runner runs the program it is given: '' directly (`npx rimraf`), or the
 * subcommand that does (`uv run`, `pnpm exec`); undefined when the program runs none.
 */
export function programRunner(name: string): string | undefined {
  const known = PROGRAMS.lookup(name);
  if (known === undefined || known.kind === 'convention') return undefined;
  if (known.kind === 'program' && known.entry.role === 'package-runner') return '';
  const key = PROGRAMS.resolve(name);
  return key === undefined ? undefined : known.entry.runsPrograms?.[key];
}

/** The operands of a command line, without its options and the values those options take. */
function positionals(args: readonly string[], valueOptions: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--') {
      out.push(...args.slice(i + 1));
      break;
    }
    if (arg.startsWith('-') && arg.length > 1) {
      if (!arg.includes('=') && valueOptions.includes(arg)) i++;
      continue;
    }
    out.push(arg);
  }
  return out;
}

const step = (kind: EffectKind, target: string): Step => ({ effects: [{ kind, target }], recognised: true });

function notUnderstood(target: string, why: string, kind: EffectKind = 'remote_mutation'): Step {
  // An unmodelled verb of a CLI is taken as what it most likely is: a change.
  return { effects: [{ kind, target }], recognised: false, unrecognised: why };
}

/** PowerShell's approved verbs, by what a cmdlet of that verb does. */
const POWERSHELL_VERBS: Record<string, EffectKind> = {
  get: 'read',
  test: 'read',
  measure: 'read',
  select: 'read',
  where: 'read',
  format: 'read',
  out: 'write',
  find: 'read',
  search: 'read',
  compare: 'read',
  resolve: 'read',
  show: 'read',
  write: 'write',
  convertto: 'read',
  convertfrom: 'read',
  sort: 'read',
  group: 'read',
  join: 'read',
  split: 'read',
  import: 'read',
  export: 'write',
  set: 'write',
  new: 'write',
  add: 'write',
  copy: 'write',
  move: 'write',
  rename: 'write',
  clear: 'delete',
  remove: 'delete',
  start: 'execute',
  invoke: 'execute',
  stop: 'write',
  restart: 'write',
  wait: 'read',
  push: 'read',
  pop: 'read',
  enter: 'execute',
  exit: 'read',
  expand: 'write',
  compress: 'write',
  install: 'install',
  uninstall: 'delete',
  update: 'write',
  enable: 'security_control',
  disable: 'security_control',
  register: 'persistence',
  unregister: 'persistence',
};

function conventionStep(
  name: string,
  known: Extract<Known, { kind: 'convention' }>,
  args: readonly string[],
): Step {
  const { entry, read } = known;
  const words = positionals(args, entry.valueOptions);
  const first = words[0];
  if (first === undefined || ['help', 'version', '--version', '-v'].includes(first))
    return step('read', name);
  switch (entry.shape) {
    case 'service-operation': {
      const operation = words[1];
      const target = [name, first, operation].filter((w) => w !== undefined).join(' ');
      if (operation === undefined || first === 'help') return step('read', target);
      const modelled = entry.modelled?.[first];
      if (typeof modelled === 'object' && modelled[operation] !== undefined)
        return step(modelled[operation], target);
      if (read.has(operation) || read.has(operation.split('-')[0]!)) return step('read', target);
      return notUnderstood(target, `"${target}" is a ${name} operation Arbiter does not model`);
    }
    case 'verb-first': {
      const target = `${name} ${first}`;
      const modelled = entry.modelled?.[first];
      if (typeof modelled === 'string') return step(modelled, target);
      if (read.has(first)) return step('read', target);
      return notUnderstood(target, `"${target}" is a ${name} command Arbiter does not model`);
    }
    case 'verb-anywhere': {
      // `gcloud compute instances list`, `az vm list`, `heroku apps:info`, `flyctl apps destroy`.
      const verbs = words.slice(0, 4).flatMap((w) => w.split(':'));
      const target = [name, ...words.slice(0, 3)].join(' ');
      if (verbs.some((w) => read.has(w))) return step('read', target);
      if (verbs.some((w) => known.verbs.has(w))) return step('remote_mutation', target);
      return notUnderstood(target, `"${target}" is a ${name} command Arbiter does not model`);
    }
    case 'noun-verb': {
      if (first === 'api') {
        const at = args.findIndex((a) => a === '-X' || a === '--method' || /^(?:-X|--method=)./.test(a));
        const method =
          at < 0
            ? 'GET'
            : (args[at]!.length > 2 && args[at]!.startsWith('-X')
                ? args[at]!.slice(2)
                : args[at]!.startsWith('--method=')
                  ? args[at]!.slice(9)
                  : (args[at + 1] ?? '')
              ).toUpperCase();
        const target = `${name} api ${method} ${words[1] ?? ''}`.trim();
        if (method === 'GET' || method === 'HEAD') return step('read', target);
        return notUnderstood(
          target,
          `"${target}" changes something through the API that Arbiter does not model`,
        );
      }
      const verb = words[1];
      const target = [name, first, verb].filter((w) => w !== undefined).join(' ');
      if (verb === undefined || read.has(verb) || read.has(first)) return step('read', target);
      if (known.verbs.has(verb)) return step('remote_mutation', target);
      return notUnderstood(target, `"${target}" is a ${name} command Arbiter does not model`);
    }
  }
}

/**
 * The step of running `name` with `args`. `path` is the program as written, where it names a
 * file (`./run.sh`, `/opt/tool/bin/x`): a local file run as a program executes that file.
 */
export function reduceProgram(name: string, args: readonly string[], path?: string): Step {
  const known = PROGRAMS.lookup(name);
  if (known === undefined) {
    const cmdlet = /^([a-z]+)-[a-z][a-z0-9]*$/i.exec(name);
    const effect = cmdlet ? POWERSHELL_VERBS[cmdlet[1]!.toLowerCase()] : undefined;
    if (effect !== undefined) return step(effect, name);
    if (path !== undefined) return step('execute', path);
    return {
      effects: [{ kind: 'execute', target: name }],
      recognised: false,
      unrecognised: `unknown program "${name.slice(0, 64)}"`,
    };
  }
  switch (known.kind) {
    case 'program':
      return {
        effects: known.entry.effects.map((kind): Effect => ({ kind, target: name })),
        recognised: true,
      };
    case 'cli': {
      const sub = positionals(args, known.entry.valueOptions)[0];
      if (sub === undefined) return step('read', name);
      const effect = known.subcommand.get(sub) ?? known.entry.otherSubcommands;
      if (effect !== undefined) return step(effect, `${name} ${sub}`);
      return notUnderstood(
        `${name} ${sub}`,
        `"${name} ${sub}" is a subcommand Arbiter does not model`,
        'write',
      );
    }
    case 'convention':
      return conventionStep(name, known, args);
  }
}
