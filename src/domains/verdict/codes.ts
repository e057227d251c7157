/** Every code a verdict can carry (spec §7). */
export type VerdictCode =
  | 'SCHEMA_MISMATCH'
  | 'POLICY_VIOLATION'
  | 'DEST_MUTATION'
  | 'RATE_LIMIT_EXCEEDED'
  | 'EXFILTRATION_BLOCKED'
  | 'FILESYSTEM_DENIED'
  | 'CONFLICT_DETECTED'
  | 'STATE_DRIFT';

/**
 * Order in which findings win when several fire on one call, first wins. Fixed so the
 * same input always yields the same code (DESIGN "Determinism"). A payload that does not
 * fit its schema cannot be judged further; touching a privileged path is named before
 * what the command would do there, because the path is the narrower, actionable fact.
 * RATE_LIMIT_EXCEEDED is absent: the loop detector overrides any verdict once a loop is
 * detected, outside this engine.
 */
export const VERDICT_PRECEDENCE = [
  'SCHEMA_MISMATCH',
  'FILESYSTEM_DENIED',
  'DEST_MUTATION',
  'POLICY_VIOLATION',
  'EXFILTRATION_BLOCKED',
  'CONFLICT_DETECTED',
  'STATE_DRIFT',
] as const satisfies readonly VerdictCode[];

export interface Finding {
  code: VerdictCode;
  message: string;
  /** Where the finding was made, e.g. `statement 2`, `command "rm"`, `path /etc/shadow`. */
  location?: string;
  /** MITRE ATT&CK technique ids of the rule or guard that made the finding, when it maps to any. */
  attack?: string[];
}

const rank = new Map<VerdictCode, number>(VERDICT_PRECEDENCE.map((code, index) => [code, index]));

export function precedenceOf(code: VerdictCode): number {
  return rank.get(code) ?? VERDICT_PRECEDENCE.length;
}

/** The finding that decides the verdict; ties keep the analyzer's own order. */
export function topFinding(findings: readonly Finding[]): Finding | undefined {
  let best: Finding | undefined;
  for (const finding of findings) {
    if (best === undefined || precedenceOf(finding.code) < precedenceOf(best.code)) best = finding;
  }
  return best;
}
