import type { Decision, Gates } from './gates.ts';
import type { EvaluationRow } from './repo.ts';

export type EvaluationStatus = 'allowed' | 'blocked' | 'pending' | 'approved' | 'denied' | 'expired';

export interface EvaluationView {
  evaluation_id: string;
  decision: Decision;
  status: EvaluationStatus;
  /** What the agent should do now: go ahead, stop, or (null) keep waiting for a human. */
  outcome: 'ALLOWED' | 'BLOCKED' | null;
  reason: string;
  gates: Gates;
  actor: string;
  actor_role: string;
  action_type: string;
  action_kind: string;
  impact_scope: string;
  policy_version: number;
  payload: unknown;
  payload_sha256: string;
  created_at: string;
  expires_at: string | null;
  decided_at: string | null;
  decided_by: string | null;
  comment: string | null;
}

function outcomeOf(status: string): EvaluationView['outcome'] {
  if (status === 'allowed' || status === 'approved') return 'ALLOWED';
  if (status === 'pending') return null;
  return 'BLOCKED';
}

export function toView(row: EvaluationRow): EvaluationView {
  return {
    evaluation_id: row.id,
    decision: row.decision as Decision,
    status: row.status as EvaluationStatus,
    outcome: outcomeOf(row.status),
    reason: row.reason,
    gates: JSON.parse(row.gates) as Gates,
    actor: row.actor,
    actor_role: row.actor_role,
    action_type: row.action_type,
    action_kind: row.action_kind,
    impact_scope: row.impact_scope,
    policy_version: row.policy_version,
    payload: row.payload === null ? null : JSON.parse(row.payload),
    payload_sha256: row.payload_sha256,
    created_at: row.created_at,
    expires_at: row.expires_at,
    decided_at: row.decided_at,
    decided_by: row.decided_by,
    comment: row.comment,
  };
}
