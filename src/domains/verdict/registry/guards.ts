import fs from 'node:fs';
import { Ajv } from 'ajv';
import { RE2JS } from 're2js';
import type { Finding } from '../codes.ts';
import { EFFECT_KINDS, type Effect, type EffectKind } from '../effects.ts';

/**
 * Changes to what guards a machine (`guards.json`): persistence, privilege and security controls.
 * A program's change of one is refused with POLICY_VIOLATION and named by its effect; its reads
 * pass. Matching is by program name and arguments only, in linear time (RE2).
 */

type GuardCode = 'POLICY_VIOLATION' | 'FILESYSTEM_DENIED' | 'DEST_MUTATION';

interface GuardSpec {
  id?: string;
  programs: string[];
  args?: string[];
  all?: string[];
  pattern?: string;
  effect: EffectKind;
  code?: GuardCode;
  says: string;
  attack?: string[];
}

interface Guard {
  args?: string[];
  all?: string[];
  pattern?: RE2JS;
  effect: EffectKind;
  code: GuardCode;
  says: string;
  attack?: string[];
}

const SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['version', 'description', 'guards'],
  properties: {
    version: { const: 1 },
    description: { type: 'string' },
    guards: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['programs', 'effect', 'says'],
        // A guard that names techniques has an id, so the coverage map can name it.
        dependencies: { attack: ['id'] },
        properties: {
          id: { type: 'string', pattern: '^guard\\.[a-z0-9][a-z0-9.-]*$' },
          programs: { type: 'array', items: { type: 'string', minLength: 1 }, minItems: 1 },
          args: { type: 'array', items: { type: 'string', minLength: 1 }, minItems: 1 },
          all: { type: 'array', items: { type: 'string', minLength: 1 }, minItems: 1 },
          pattern: { type: 'string', minLength: 1 },
          effect: { enum: [...EFFECT_KINDS] },
          code: { enum: ['POLICY_VIOLATION', 'FILESYSTEM_DENIED', 'DEST_MUTATION'] },
          says: { type: 'string', minLength: 1 },
          attack: {
            type: 'array',
            items: { type: 'string', pattern: '^T\\d{4}(\\.\\d{3})?$' },
            minItems: 1,
            uniqueItems: true,
          },
        },
      },
    },
  },
} as const;

/** Guards by lower-cased program name, in file order. */
export function loadGuards(file: URL | string): Map<string, Guard[]> {
  const data = JSON.parse(fs.readFileSync(file, 'utf8')) as unknown;
  const validate = new Ajv({ allErrors: true, strict: true }).compile<{ guards: GuardSpec[] }>(SCHEMA);
  if (!validate(data)) {
    const first = validate.errors?.[0];
    throw new Error(`guards ${String(file)}: ${first?.instancePath || 'top level'} ${first?.message}`);
  }
  const byProgram = new Map<string, Guard[]>();
  for (const spec of data.guards) {
    const guard: Guard = { effect: spec.effect, code: spec.code ?? 'POLICY_VIOLATION', says: spec.says };
    if (spec.args) guard.args = spec.args;
    if (spec.all) guard.all = spec.all;
    if (spec.pattern) guard.pattern = RE2JS.compile(spec.pattern);
    if (spec.attack) guard.attack = spec.attack;
    for (const program of spec.programs) {
      const key = program.toLowerCase();
      byProgram.set(key, [...(byProgram.get(key) ?? []), guard]);
    }
  }
  return byProgram;
}

const GUARDS = loadGuards(new URL('./guards.json', import.meta.url));

/** Arguments looked at: enough for any real command line, bounded for a crafted one. */
const MAX_ARGS = 256;

/** An option matches exactly (`-P` is not `-p`); a word or a Windows switch in any case. */
function same(arg: string, token: string): boolean {
  return arg === token || (!token.startsWith('-') && arg.toLowerCase() === token.toLowerCase());
}

function applies(guard: Guard, args: readonly string[]): boolean {
  const bounded = args.slice(0, MAX_ARGS);
  if (guard.args && !bounded.some((a) => guard.args!.some((t) => same(a, t)))) return false;
  if (guard.all && !guard.all.every((t) => bounded.some((a) => same(a, t)))) return false;
  if (guard.pattern && !bounded.some((a) => guard.pattern!.matcher(a).find())) return false;
  return true;
}

export interface GuardReading {
  findings: Finding[];
  effects: Effect[];
}

/**
 * What running `name` with `args` changes of the machine's guards. A guard whose effect is `read`
 * (`useradd -D`) is an exception that clears the others for that program.
 */
export function judgeGuards(name: string, args: readonly string[]): GuardReading | undefined {
  const guards = GUARDS.get(name.toLowerCase().replace(/\.exe$/, ''));
  if (guards === undefined) return undefined;
  const hits = guards.filter((g) => applies(g, args));
  if (hits.length === 0 || hits.some((g) => g.effect === 'read')) return undefined;
  const first = hits[0]!;
  const finding: Finding = {
    code: first.code,
    message:
      first.effect === 'credential_access'
        ? `${name} ${first.says} (credential access: stored secrets stay where they are kept)`
        : first.code === 'DEST_MUTATION'
          ? `${name} ${first.says}`
          : `${name} ${first.says} (${first.effect.replace('_', ' ')}: a change only a person should make)`,
    location: `command "${name}"`,
  };
  if (first.attack) finding.attack = first.attack;
  return {
    findings: [finding],
    effects: hits.map((g) => ({ kind: g.effect, target: name })),
  };
}
