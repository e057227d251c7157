import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { EventType } from '../../shared/event-types.ts';
import type { AuditEvent } from '../audit/index.ts';

/** Standard Webhooks message ids: stable across retries of one event, so receivers can deduplicate. */
export function newMessageId(): string {
  return `msg_${randomBytes(16).toString('hex')}`;
}

export function newDeliveryId(): string {
  return `dlv_${randomBytes(16).toString('hex')}`;
}

function subscribes(eventTypesJson: string, type: string): boolean {
  const types = JSON.parse(eventTypesJson) as string[];
  return types.length === 0 || types.includes(type);
}

/**
 * Queues an event for every enabled endpoint of the account that subscribes to `type`. Call it
 * with the transaction of the change it reports: the event is delivered exactly when that change
 * commits, and survives any restart after that. Returns the message id, or undefined when no
 * endpoint wants the event (then nothing is written).
 */
export async function emitEvent(
  trx: Kysely<Database>,
  accountId: string,
  type: EventType,
  data: Record<string, unknown>,
  at: Date = new Date(),
): Promise<string | undefined> {
  return queueEvent(trx, await enabledEndpoints(trx, accountId), accountId, type, data, at);
}

export interface PendingEvent {
  accountId: string;
  type: EventType;
  data: Record<string, unknown>;
  at: Date;
}

/** `emitEvent` for a batch: each account's endpoints are read once, however many events it has. */
export async function emitEvents(trx: Kysely<Database>, events: readonly PendingEvent[]): Promise<void> {
  const endpoints = new Map<string, Endpoint[]>();
  for (const e of events) {
    let list = endpoints.get(e.accountId);
    if (list === undefined) {
      list = await enabledEndpoints(trx, e.accountId);
      endpoints.set(e.accountId, list);
    }
    if (list.length > 0) await queueEvent(trx, list, e.accountId, e.type, e.data, e.at);
  }
}

type Endpoint = { id: string; event_types: string };

function enabledEndpoints(trx: Kysely<Database>, accountId: string): Promise<Endpoint[]> {
  return trx
    .selectFrom('webhook_endpoints')
    .select(['id', 'event_types'])
    .where('account_id', '=', accountId)
    .where('status', '=', 'enabled')
    .execute();
}

async function queueEvent(
  trx: Kysely<Database>,
  endpoints: readonly Endpoint[],
  accountId: string,
  type: EventType,
  data: Record<string, unknown>,
  at: Date,
): Promise<string | undefined> {
  const targets = endpoints.filter((e) => subscribes(e.event_types, type));
  if (targets.length === 0) return undefined;
  const id = newMessageId();
  const timestamp = at.toISOString();
  await trx
    .insertInto('webhook_events')
    .values({
      id,
      account_id: accountId,
      type,
      // The Standard Webhooks payload shape: type, timestamp, data.
      payload: JSON.stringify({ type, timestamp, data }),
      created_at: timestamp,
    })
    .execute();
  await trx
    .insertInto('webhook_deliveries')
    .values(
      targets.map((endpoint) => ({
        id: newDeliveryId(),
        event_id: id,
        endpoint_id: endpoint.id,
        account_id: accountId,
        status: 'pending',
        attempts: 0,
        next_attempt_at: timestamp,
        lease_owner: null,
        lease_until: null,
        last_status_code: null,
        last_error: null,
        created_at: timestamp,
        updated_at: timestamp,
        completed_at: null,
      })),
    )
    .execute();
  return id;
}

/**
 * `emitEvent` for domains that name their events as strings: a type that is not registered in
 * the catalogue has no subscribers yet and is dropped.
 */
export const webhookEvents = {
  async emit(
    trx: Kysely<Database>,
    accountId: string,
    type: EventType,
    data: Record<string, unknown>,
    at: Date,
  ): Promise<void> {
    await emitEvent(trx, accountId, type, data, at);
  },
};

/**
 * The webhook events a batch of audit entries raises (`AuditEvent.raises`), to queue in the
 * transaction that appends them: an event is delivered exactly when its entry is written.
 */
export function raisedEvents(entries: readonly AuditEvent[]): PendingEvent[] {
  const events: PendingEvent[] = [];
  for (const e of entries) {
    if (e.raises === undefined) continue;
    const at = e.at === undefined ? new Date() : new Date(e.at);
    events.push({ accountId: e.accountId, type: e.raises.type, data: e.raises.data, at });
  }
  return events;
}
