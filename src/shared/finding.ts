/**
 * What a check found, as the verdict engine reports it. Shared: the ledger's text check returns
 * findings in this shape to the verdict engine without importing it.
 */

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

export interface Finding {
  code: VerdictCode;
  message: string;
  /** Where the finding was made, e.g. `statement 2`, `command "rm"`, `path /etc/shadow`. */
  location?: string;
  /** MITRE ATT&CK technique ids of the rule or guard that made the finding, when it maps to any. */
  attack?: string[];
}
