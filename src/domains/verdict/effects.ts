import type { Finding, VerdictCode } from './codes.ts';

/** What an action does to the world, as far as Arbiter understood it. */
export const EFFECT_KINDS = [
  'read',
  'write',
  'delete',
  'execute',
  'install',
  'egress',
  'privilege',
  'persistence',
  'security_control',
  'credential_access',
  'remote_mutation',
] as const;

export type EffectKind = (typeof EFFECT_KINDS)[number];

export interface Effect {
  kind: EffectKind;
  /** What it acts on: a path, a host, a program and subcommand (`aws iam attach-user-policy`). */
  target?: string;
}

/**
 * One step of an action reduced to effects: a program run by a command line, a file read or
 * written, a request sent. A step that could not be reduced is `recognised: false`, with why.
 */
export interface Step {
  effects: Effect[];
  recognised: boolean;
  /** What was not understood, in words: `unknown program "frobctl"`. */
  unrecognised?: string;
}

/** Effects that may change or send something: what the judgment engine escalates when unrecognised. */
export const CONSEQUENTIAL: ReadonlySet<EffectKind> = new Set(EFFECT_KINDS.filter((kind) => kind !== 'read'));

/** The effect a refusal names: what the finding says the action would do. */
const EFFECT_OF_CODE: Partial<Record<VerdictCode, EffectKind>> = {
  FILESYSTEM_DENIED: 'credential_access',
  DEST_MUTATION: 'delete',
  EXFILTRATION_BLOCKED: 'egress',
};

/** What a FILESYSTEM_DENIED message says when the file holds credentials or identities. */
const CREDENTIAL_WORDS =
  /credential|identit|secret|private key|token|password|cookie|keychain|login|hive|profile/i;

export function effectOfFinding(finding: Finding): Effect | undefined {
  if (finding.code === 'POLICY_VIOLATION') {
    return { kind: /opaque|fetched|remote|decoded/i.test(finding.message) ? 'execute' : 'security_control' };
  }
  // A system path or another user's home is refused for where it is, not for holding credentials:
  // the read or write itself is already among the effects.
  if (finding.code === 'FILESYSTEM_DENIED' && !CREDENTIAL_WORDS.test(finding.message)) return undefined;
  const kind = EFFECT_OF_CODE[finding.code];
  return kind === undefined ? undefined : { kind, ...(finding.location ? { target: finding.location } : {}) };
}

/** At most this many effects are listed on a verdict; the rest are summarised by kind. */
export const MAX_LISTED_EFFECTS = 32;

/** Distinct effects in first-seen order, bounded. */
export function mergeEffects(effects: Effect[]): Effect[] {
  if (effects.length <= 1) return effects;
  const seen = new Set<string>();
  const out: Effect[] = [];
  for (const effect of effects) {
    const key = `${effect.kind}\u0000${effect.target ?? ''}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(effect);
    if (out.length === MAX_LISTED_EFFECTS) break;
  }
  return out;
}
