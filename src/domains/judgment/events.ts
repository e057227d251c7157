import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { EventType } from '../webhooks/index.ts';
import type { EvaluationRow } from './repo.ts';

/** Webhook events (`action.blocked`, `action.escalated`, decisions), written in the change's transaction. */
export interface JudgmentEvents {
  emit(
    trx: Kysely<Database>,
    accountId: string,
    type: EventType,
    data: Record<string, unknown>,
    at: Date,
  ): Promise<void>;
}

export const NO_EVENTS: JudgmentEvents = { emit: async () => undefined };

/** What an event about an evaluation says of it. */
export function eventData(row: EvaluationRow): Record<string, unknown> {
  return {
    evaluation_id: row.id,
    decision: row.decision,
    status: row.status,
    reason: row.reason,
    actor: row.actor,
    actor_role: row.actor_role,
    action_type: row.action_type,
    impact_scope: row.impact_scope,
    policy_version: row.policy_version,
    ...(row.expires_at ? { expires_at: row.expires_at } : {}),
    ...(row.decided_by
      ? { decided_by: row.decided_by, decided_at: row.decided_at, comment: row.comment }
      : {}),
  };
}
