import { type Kysely, sql, type Transaction } from 'kysely';
import type { DialectName } from '../../db/database.ts';
import type { Database, WebhookDeliveriesTable, WebhookEndpointsTable } from '../../db/schema.ts';

export type EndpointRow = WebhookEndpointsTable;
export type DeliveryRow = WebhookDeliveriesTable;

/**
 * Reads and the delivery worker's own bookkeeping run on `db`; the changes an account makes
 * (endpoints, secrets, queued events) take the transaction their service opened with its audit entry.
 */
export function createWebhooksRepo(db: Kysely<Database>, dialect: DialectName) {
  return {
    async insertEndpoint(trx: Transaction<Database>, row: EndpointRow): Promise<void> {
      await trx.insertInto('webhook_endpoints').values(row).execute();
    },
    listEndpoints(accountId: string): Promise<EndpointRow[]> {
      return db
        .selectFrom('webhook_endpoints')
        .selectAll()
        .where('account_id', '=', accountId)
        .orderBy('created_at')
        .orderBy('id')
        .execute();
    },
    findEndpoint(accountId: string, id: string): Promise<EndpointRow | undefined> {
      return db
        .selectFrom('webhook_endpoints')
        .selectAll()
        .where('account_id', '=', accountId)
        .where('id', '=', id)
        .executeTakeFirst();
    },
    findEndpointById(id: string): Promise<EndpointRow | undefined> {
      return db.selectFrom('webhook_endpoints').selectAll().where('id', '=', id).executeTakeFirst();
    },
    async countEndpoints(accountId: string): Promise<number> {
      const row = await db
        .selectFrom('webhook_endpoints')
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .where('account_id', '=', accountId)
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },
    /** The endpoint with its deliveries and their attempts, in one transaction. */
    async deleteEndpoint(trx: Transaction<Database>, accountId: string, id: string): Promise<void> {
      await trx
        .deleteFrom('webhook_attempts')
        .where('endpoint_id', '=', id)
        .where('account_id', '=', accountId)
        .execute();
      await trx
        .deleteFrom('webhook_deliveries')
        .where('endpoint_id', '=', id)
        .where('account_id', '=', accountId)
        .execute();
      await trx
        .deleteFrom('webhook_endpoints')
        .where('id', '=', id)
        .where('account_id', '=', accountId)
        .execute();
    },
    /** Deliveries of an endpoint, newest first, before the `before` cursor (created_at|id). */
    listDeliveries(endpointId: string, options: { limit: number; before?: { at: string; id: string } }) {
      let q = db
        .selectFrom('webhook_deliveries')
        .innerJoin('webhook_events', 'webhook_events.id', 'webhook_deliveries.event_id')
        .selectAll('webhook_deliveries')
        .select('webhook_events.type as event_type')
        .where('webhook_deliveries.endpoint_id', '=', endpointId);
      const before = options.before;
      if (before) {
        q = q.where((eb) =>
          eb.or([
            eb('webhook_deliveries.created_at', '<', before.at),
            eb.and([
              eb('webhook_deliveries.created_at', '=', before.at),
              eb('webhook_deliveries.id', '<', before.id),
            ]),
          ]),
        );
      }
      return q
        .orderBy('webhook_deliveries.created_at', 'desc')
        .orderBy('webhook_deliveries.id', 'desc')
        .limit(options.limit)
        .execute();
    },
    attemptsFor(deliveryIds: string[]) {
      if (deliveryIds.length === 0) return Promise.resolve([]);
      return db
        .selectFrom('webhook_attempts')
        .selectAll()
        .where('delivery_id', 'in', deliveryIds)
        .orderBy('attempt')
        .execute();
    },
    findDelivery(endpointId: string, id: string): Promise<DeliveryRow | undefined> {
      return db
        .selectFrom('webhook_deliveries')
        .selectAll()
        .where('endpoint_id', '=', endpointId)
        .where('id', '=', id)
        .executeTakeFirst();
    },
    /** Enables a disabled endpoint again, its failure count back at zero. */
    async enableEndpoint(
      trx: Transaction<Database>,
      accountId: string,
      id: string,
      at: string,
    ): Promise<void> {
      await trx
        .updateTable('webhook_endpoints')
        .set({
          status: 'enabled',
          disabled_reason: null,
          consecutive_failures: 0,
          failing_since: null,
          updated_at: at,
        })
        .where('account_id', '=', accountId)
        .where('id', '=', id)
        .execute();
    },
    async setSecret(
      trx: Transaction<Database>,
      accountId: string,
      id: string,
      secret: string,
      at: string,
    ): Promise<void> {
      await trx
        .updateTable('webhook_endpoints')
        .set({ secret, updated_at: at })
        .where('account_id', '=', accountId)
        .where('id', '=', id)
        .execute();
    },
    /** Endpoints whose stored secret is not sealed under key `keyId` (see signing-secrets.ts). */
    endpointsNotSealedWith(keyId: string): Promise<Array<{ id: string; secret: string }>> {
      return db
        .selectFrom('webhook_endpoints')
        .select(['id', 'secret'])
        .where('secret', 'not like', `v1:${keyId}:%`)
        .orderBy('id')
        .execute();
    },
    /** Swaps a stored secret for another form of the same secret; false when it changed meanwhile. */
    async replaceSecret(id: string, expected: string, secret: string): Promise<boolean> {
      const result = await db
        .updateTable('webhook_endpoints')
        .set({ secret })
        .where('id', '=', id)
        .where('secret', '=', expected)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },
    async insertEvent(
      trx: Transaction<Database>,
      row: { id: string; account_id: string; type: string; payload: string; created_at: string },
    ) {
      await trx.insertInto('webhook_events').values(row).execute();
    },
    async insertDelivery(trx: Transaction<Database>, row: DeliveryRow): Promise<void> {
      await trx.insertInto('webhook_deliveries').values(row).execute();
    },
    findEvent(id: string) {
      return db.selectFrom('webhook_events').selectAll().where('id', '=', id).executeTakeFirst();
    },

    /**
     * Leases up to `limit` due deliveries to `owner` until `leaseUntil`: pending ones whose time
     * has come, and ones whose previous holder's lease ran out (it crashed mid-delivery). One
     * statement, so two workers never lease the same row: PostgreSQL skips rows another worker
     * is leasing, SQLite runs the statement under its single write lock.
     */
    claimDue(owner: string, now: string, leaseUntil: string, limit: number): Promise<DeliveryRow[]> {
      const due = db
        .selectFrom('webhook_deliveries')
        .select('id')
        .where((eb) =>
          eb.or([
            eb.and([eb('status', '=', 'pending'), eb('next_attempt_at', '<=', now)]),
            eb.and([eb('status', '=', 'delivering'), eb('lease_until', '<', now)]),
          ]),
        )
        .orderBy('next_attempt_at')
        .limit(limit)
        .$if(dialect === 'postgres', (q) => q.forUpdate().skipLocked());
      return db
        .updateTable('webhook_deliveries')
        .set({ status: 'delivering', lease_owner: owner, lease_until: leaseUntil, updated_at: now })
        .where('id', 'in', due)
        .returningAll()
        .execute();
    },

    /** Records one attempt and its outcome; only the lease holder may (a stale holder changes nothing). */
    async finishAttempt(input: {
      delivery: DeliveryRow;
      owner: string;
      at: string;
      statusCode: number | null;
      error: string | null;
      durationMs: number;
      outcome: { status: 'succeeded' } | { status: 'pending'; nextAttemptAt: string } | { status: 'failed' };
      /** The endpoint is disabled after this many failures in a row, the first this long (ms) ago. */
      disableAfter: number;
      disableAfterMs: number;
    }): Promise<{ applied: boolean; endpointDisabled: boolean }> {
      return db.transaction().execute(async (trx) => {
        const { delivery, at, outcome } = input;
        const updated = await trx
          .updateTable('webhook_deliveries')
          .set({
            status: outcome.status,
            attempts: sql`attempts + 1`,
            next_attempt_at: outcome.status === 'pending' ? outcome.nextAttemptAt : delivery.next_attempt_at,
            lease_owner: null,
            lease_until: null,
            last_status_code: input.statusCode,
            last_error: input.error,
            updated_at: at,
            completed_at: outcome.status === 'pending' ? null : at,
          })
          .where('id', '=', delivery.id)
          .where('lease_owner', '=', input.owner)
          .where('status', '=', 'delivering')
          .executeTakeFirst();
        if (Number(updated.numUpdatedRows) === 0) return { applied: false, endpointDisabled: false };
        await trx
          .insertInto('webhook_attempts')
          .values({
            id: `att_${delivery.id.slice(4)}_${Number(delivery.attempts) + 1}`,
            delivery_id: delivery.id,
            endpoint_id: delivery.endpoint_id,
            account_id: delivery.account_id,
            attempt: Number(delivery.attempts) + 1,
            at,
            status_code: input.statusCode,
            error: input.error,
            duration_ms: Math.round(input.durationMs),
          })
          .execute();
        if (outcome.status === 'succeeded') {
          await trx
            .updateTable('webhook_endpoints')
            .set({ consecutive_failures: 0, failing_since: null })
            .where('id', '=', delivery.endpoint_id)
            .execute();
          return { applied: true, endpointDisabled: false };
        }
        await trx
          .updateTable('webhook_endpoints')
          .set({
            consecutive_failures: sql`consecutive_failures + 1`,
            failing_since: sql`coalesce(failing_since, ${at})`,
            updated_at: at,
          })
          .where('id', '=', delivery.endpoint_id)
          .execute();
        // Both: failures in a row, and the first of them long enough ago (ISO times compare as text).
        const failingSinceAtMost = new Date(Date.parse(at) - input.disableAfterMs).toISOString();
        const disabled = await trx
          .updateTable('webhook_endpoints')
          .set({
            status: 'disabled',
            disabled_reason: `${input.disableAfter} consecutive failed deliveries over at least ${durationText(input.disableAfterMs)}; last: ${input.error ?? `HTTP ${input.statusCode}`}`,
            updated_at: at,
          })
          .where('id', '=', delivery.endpoint_id)
          .where('status', '=', 'enabled')
          .where('consecutive_failures', '>=', input.disableAfter)
          .where('failing_since', '<=', failingSinceAtMost)
          .executeTakeFirst();
        const endpointDisabled = Number(disabled.numUpdatedRows) > 0;
        if (endpointDisabled) {
          // What was still waiting for this endpoint will not be sent; redelivery stays possible by hand.
          await trx
            .updateTable('webhook_deliveries')
            .set({ status: 'failed', last_error: 'endpoint disabled', updated_at: at, completed_at: at })
            .where('endpoint_id', '=', delivery.endpoint_id)
            .where('status', '=', 'pending')
            .execute();
        }
        return { applied: true, endpointDisabled };
      });
    },

    /** A delivery whose endpoint went away or was disabled before its turn. */
    async abandon(delivery: DeliveryRow, owner: string, at: string, reason: string): Promise<void> {
      await db
        .updateTable('webhook_deliveries')
        .set({
          status: 'failed',
          lease_owner: null,
          lease_until: null,
          last_error: reason,
          updated_at: at,
          completed_at: at,
        })
        .where('id', '=', delivery.id)
        .where('lease_owner', '=', owner)
        .execute();
    },
  };
}

export type WebhooksRepo = ReturnType<typeof createWebhooksRepo>;

/** `86400000` → `24 h`, in the largest whole unit, for the reason an endpoint was disabled. */
function durationText(ms: number): string {
  if (ms % 3_600_000 === 0) return `${ms / 3_600_000} h`;
  if (ms % 60_000 === 0) return `${ms / 60_000} min`;
  return `${ms / 1000} s`;
}
