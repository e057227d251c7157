import type { Finding, VerdictCode } from '../../shared/finding.ts';

export type { Finding, VerdictCode } from '../../shared/finding.ts';

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
