import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Static } from 'typebox';
import type { Database } from '../../db/schema.ts';
import { Errors } from '../../errors.ts';
import type { SecretBox } from '../../lib/secret-box.ts';
import { EVENT_TYPES, isEventType } from '../../shared/event-types.ts';
import type { AuditRepo } from '../audit/index.ts';
import { findPlan, type Plan } from '../plans/index.ts';
import { newDeliveryId, newMessageId } from './outbox.ts';
import type { EndpointRow, WebhooksRepo } from './repo.ts';
import type { EndpointSchema } from './schemas.ts';
import { reencryptSecrets, sealSecret } from './signing-secrets.ts';
import { endpointUrlProblem } from './url-guard.ts';

const MAX_ENDPOINTS = 20;

export type EndpointView = Static<typeof EndpointSchema>;

function view(row: EndpointRow): EndpointView {
  return {
    id: row.id,
    url: row.url,
    description: row.description,
    event_types: JSON.parse(row.event_types) as string[],
    status: row.status === 'enabled' ? 'enabled' : 'disabled',
    disabled_reason: row.disabled_reason,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

/** The event type of `POST /webhooks/{id}/test`: sent to one endpoint, never subscribed to. */
export const TEST_EVENT = 'webhook.test';

function newSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

function pendingDelivery(id: string, eventId: string, endpointId: string, accountId: string, at: string) {
  return {
    id,
    event_id: eventId,
    endpoint_id: endpointId,
    account_id: accountId,
    status: 'pending',
    attempts: 0,
    next_attempt_at: at,
    lease_owner: null,
    lease_until: null,
    last_status_code: null,
    last_error: null,
    created_at: at,
    updated_at: at,
    completed_at: null,
  };
}

/** `base64(created_at)|id` of the last delivery of a page: where the next page starts. */
function encodeCursor(at: string, id: string): string {
  return Buffer.from(`${at}|${id}`).toString('base64url');
}

function decodeCursor(cursor: string): { at: string; id: string } {
  const [at, id] = Buffer.from(cursor, 'base64url').toString().split('|');
  if (!at || !id) throw Errors.validation('querystring/cursor is not a cursor this API returned');
  return { at, id };
}

export function createWebhooksService(deps: {
  db: Kysely<Database>;
  repo: WebhooksRepo;
  audit: Pick<AuditRepo, 'appendIn'>;
  plans: readonly Plan[];
  allowLoopback: boolean;
  /** Seals signing secrets before they are stored. */
  secrets: SecretBox;
  now?: () => Date;
}) {
  const now = deps.now ?? (() => new Date());

  async function endpointOf(accountId: string, id: string): Promise<EndpointRow> {
    const row = await deps.repo.findEndpoint(accountId, id);
    if (!row) throw Errors.notFound('Webhook endpoint');
    return row;
  }

  return {
    eventTypes: () => Object.entries(EVENT_TYPES).map(([type, description]) => ({ type, description })),

    /** A new endpoint; its signing secret is returned here and never again. */
    async create(
      principal: { accountId: string; keyId: string; plan: string },
      input: { url: string; description?: string; event_types?: string[] },
    ) {
      if (!findPlan(deps.plans, principal.plan)?.features.includes('webhooks')) {
        throw Errors.forbidden(
          `Webhooks are not part of the ${principal.plan} plan; upgrade with POST /subscription/checkout`,
        );
      }
      const problem = endpointUrlProblem(input.url, { allowLoopback: deps.allowLoopback });
      if (problem !== undefined) throw Errors.validation(`body/url ${problem}`);
      const types = [...new Set(input.event_types ?? [])];
      const unknown = types.filter((t) => !isEventType(t));
      if (unknown.length > 0) {
        throw Errors.validation(`body/event_types has unknown types: ${unknown.join(', ')}`, {
          known: Object.keys(EVENT_TYPES),
        });
      }
      if ((await deps.repo.countEndpoints(principal.accountId)) >= MAX_ENDPOINTS) {
        throw Errors.conflict(`An account can have at most ${MAX_ENDPOINTS} webhook endpoints`);
      }
      const at = now().toISOString();
      const id = `we_${randomBytes(12).toString('hex')}`;
      const secret = newSecret();
      const row: EndpointRow = {
        id,
        account_id: principal.accountId,
        url: input.url,
        description: input.description ?? '',
        event_types: JSON.stringify(types),
        secret: sealSecret(deps.secrets, id, secret),
        status: 'enabled',
        disabled_reason: null,
        consecutive_failures: 0,
        failing_since: null,
        created_at: at,
        updated_at: at,
      };
      await deps.db.transaction().execute(async (trx) => {
        await deps.repo.insertEndpoint(trx, row);
        await deps.audit.appendIn(trx, [
          {
            accountId: principal.accountId,
            actor: principal.keyId,
            action: 'webhook.created',
            target: row.id,
            details: { event_types: types },
            at,
          },
        ]);
      });
      return { ...view(row), secret };
    },

    async list(accountId: string): Promise<EndpointView[]> {
      return (await deps.repo.listEndpoints(accountId)).map(view);
    },

    async get(accountId: string, id: string): Promise<EndpointView> {
      return view(await endpointOf(accountId, id));
    },

    async remove(principal: { accountId: string; keyId: string }, id: string): Promise<void> {
      await endpointOf(principal.accountId, id);
      await deps.db.transaction().execute(async (trx) => {
        await deps.repo.deleteEndpoint(trx, principal.accountId, id);
        await deps.audit.appendIn(trx, [
          { accountId: principal.accountId, actor: principal.keyId, action: 'webhook.deleted', target: id },
        ]);
      });
    },

    /** The endpoint's delivery log, newest first, each delivery with its attempts. */
    async deliveries(accountId: string, id: string, options: { limit: number; cursor?: string }) {
      await endpointOf(accountId, id);
      const rows = await deps.repo.listDeliveries(id, {
        limit: options.limit,
        ...(options.cursor === undefined ? {} : { before: decodeCursor(options.cursor) }),
      });
      const attempts = await deps.repo.attemptsFor(rows.map((r) => r.id));
      const last = rows.at(-1);
      return {
        deliveries: rows.map((r) => ({
          id: r.id,
          event_id: r.event_id,
          event_type: r.event_type,
          status: r.status,
          attempts: Number(r.attempts),
          next_attempt_at: r.status === 'pending' ? r.next_attempt_at : null,
          last_status_code: r.last_status_code,
          last_error: r.last_error,
          created_at: r.created_at,
          completed_at: r.completed_at,
          attempt_log: attempts
            .filter((a) => a.delivery_id === r.id)
            .map((a) => ({
              attempt: Number(a.attempt),
              at: a.at,
              status_code: a.status_code,
              error: a.error,
              duration_ms: Number(a.duration_ms),
            })),
        })),
        next_cursor: rows.length === options.limit && last ? encodeCursor(last.created_at, last.id) : null,
      };
    },

    /** Enables a disabled endpoint again; deliveries resume with the next event. */
    async enable(principal: { accountId: string; keyId: string }, id: string): Promise<EndpointView> {
      const endpoint = await endpointOf(principal.accountId, id);
      if (endpoint.status !== 'enabled') {
        const at = now().toISOString();
        await deps.db.transaction().execute(async (trx) => {
          await deps.repo.enableEndpoint(trx, principal.accountId, id, at);
          await deps.audit.appendIn(trx, [
            {
              accountId: principal.accountId,
              actor: principal.keyId,
              action: 'webhook.enabled',
              target: id,
              at,
            },
          ]);
        });
      }
      return view(await endpointOf(principal.accountId, id));
    },

    /** A new signing secret, returned here and never again; the old one stops signing at once. */
    async rotateSecret(principal: { accountId: string; keyId: string }, id: string) {
      await endpointOf(principal.accountId, id);
      const secret = newSecret();
      const at = now().toISOString();
      await deps.db.transaction().execute(async (trx) => {
        await deps.repo.setSecret(trx, principal.accountId, id, sealSecret(deps.secrets, id, secret), at);
        await deps.audit.appendIn(trx, [
          {
            accountId: principal.accountId,
            actor: principal.keyId,
            action: 'webhook.secret_rotated',
            target: id,
            at,
          },
        ]);
      });
      return { ...view(await endpointOf(principal.accountId, id)), secret };
    },

    /**
     * Seals every signing secret not yet under the current key (plaintext from before encryption,
     * or the previous key during a rotation). Runs at start and from `arbiter secrets reencrypt`.
     */
    reencryptSecrets: () => reencryptSecrets(deps.repo, deps.secrets),

    /**
     * Queues a `webhook.test` event for this endpoint alone, whatever it subscribes to, so its
     * receiver and signature check can be tried; it is delivered and logged like any event.
     */
    async sendTest(principal: { accountId: string; keyId: string }, id: string) {
      const endpoint = await endpointOf(principal.accountId, id);
      if (endpoint.status !== 'enabled') {
        throw Errors.conflict('The endpoint is disabled; enable it before sending a test event');
      }
      const at = now().toISOString();
      const eventId = newMessageId();
      const deliveryId = newDeliveryId();
      const data = { webhook_id: id, message: 'A test event sent from Arbiter.' };
      await deps.db.transaction().execute(async (trx) => {
        await deps.repo.insertEvent(trx, {
          id: eventId,
          account_id: principal.accountId,
          type: TEST_EVENT,
          payload: JSON.stringify({ type: TEST_EVENT, timestamp: at, data }),
          created_at: at,
        });
        await deps.repo.insertDelivery(
          trx,
          pendingDelivery(deliveryId, eventId, endpoint.id, principal.accountId, at),
        );
      });
      return { delivery_id: deliveryId, event_id: eventId };
    },

    /** Sends an earlier event again as a new delivery (the old one and its log stay as they were). */
    async redeliver(principal: { accountId: string; keyId: string }, endpointId: string, deliveryId: string) {
      const endpoint = await endpointOf(principal.accountId, endpointId);
      const original = await deps.repo.findDelivery(endpoint.id, deliveryId);
      if (!original) throw Errors.notFound('Delivery');
      if (endpoint.status !== 'enabled') {
        throw Errors.conflict('The endpoint is disabled; enable it again to receive events');
      }
      const at = now().toISOString();
      const id = newDeliveryId();
      await deps.db
        .transaction()
        .execute((trx) =>
          deps.repo.insertDelivery(
            trx,
            pendingDelivery(id, original.event_id, endpoint.id, principal.accountId, at),
          ),
        );
      return { delivery_id: id, event_id: original.event_id };
    },
  };
}

export type WebhooksService = ReturnType<typeof createWebhooksService>;
