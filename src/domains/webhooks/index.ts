/** What other code may use of webhooks: the event types and the outbox every domain emits into. */
export type { EventType } from '../../shared/event-types.ts';
export { emitEvent, emitEvents, type PendingEvent } from './outbox.ts';
