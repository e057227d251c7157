import type { Static } from 'typebox';
import type { Decision, Gates } from './gates.ts';
import type { EvaluationRow } from './repo.ts';
import type { EvaluationSchema, StatusSchema } from './schemas.ts';

export type EvaluationStatus = Static<typeof StatusSchema>;

export type EvaluationView = Static<typeof EvaluationSchema>;

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
