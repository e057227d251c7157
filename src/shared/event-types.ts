/**
 * Every event a webhook endpoint can subscribe to, with what it reports (`GET /webhooks/event-types`).
 * Shared: audit entries name the event they raise, and the webhooks outbox queues it.
 */
export const EVENT_TYPES = {
  'api_key.revoked': 'An API key of the account was revoked.',
  'subscription.updated':
    "The account's plan or subscription status changed (checkout, renewal, payment failure, cancellation).",
  'verdict.rejected': 'POST /v1/evaluate judged a proposed action unsafe.',
  'action.blocked': 'The judgment engine BLOCKED an action.',
  'action.escalated': 'The judgment engine ESCALATEd an action to a human.',
  'action.approved': 'A human approved an escalated action.',
  'action.denied': 'A human denied an escalated action.',
  'action.expired': 'An escalated action expired before a human decided it (it counts as denied).',
  'claim.conflict_detected': 'A claim stored in the ledger conflicts with existing facts.',
} as const;

export type EventType = keyof typeof EVENT_TYPES;

export function isEventType(type: string): type is EventType {
  return Object.hasOwn(EVENT_TYPES, type);
}
