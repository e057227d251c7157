import type { AuditEvent } from '../audit/repo.ts';
import type { PendingEvent } from '../webhooks/outbox.ts';

/** The audit action of a verdict that refused the call, and the webhook event it raises. */
export const VERDICT_REJECTED = 'verdict.rejected';

/**
 * The `verdict.rejected` webhook events of the refusals among a batch of audit entries, queued in
 * the transaction that appends them: an event is delivered exactly when its entry is written.
 */
export function verdictRejectedEvents(entries: readonly AuditEvent[]): PendingEvent[] {
  const events: PendingEvent[] = [];
  for (const e of entries) {
    if (e.action !== VERDICT_REJECTED) continue;
    const at = e.at ?? new Date().toISOString();
    events.push({
      accountId: e.accountId,
      type: VERDICT_REJECTED,
      data: {
        verdict_hash: e.target ?? null,
        action: e.details?.['action'] ?? null,
        code: e.details?.['code'] ?? null,
        key_id: e.actor,
        evaluated_at: at,
      },
      at: new Date(at),
    });
  }
  return events;
}
