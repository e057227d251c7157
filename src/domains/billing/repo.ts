import type { Kysely, Transaction } from 'kysely';
import type { CheckoutSessionsTable, Database, SubscriptionsTable } from '../../db/schema.ts';

export type SubscriptionRow = SubscriptionsTable;
export type CheckoutSessionRow = CheckoutSessionsTable;

/**
 * The only place that reads and writes subscriptions, checkout sessions and provider events.
 * Reads run on `db` unless given the transaction they belong to (SQLite has one connection, and
 * inside a transaction it is the transaction's); writes that change a plan take the transaction
 * their service opened.
 */
export function createBillingRepo(db: Kysely<Database>) {
  return {
    findSubscription(accountId: string, trx?: Transaction<Database>): Promise<SubscriptionRow | undefined> {
      return (trx ?? db)
        .selectFrom('subscriptions')
        .selectAll()
        .where('account_id', '=', accountId)
        .executeTakeFirst();
    },
    findSubscriptionByRef(subscriptionRef: string): Promise<SubscriptionRow | undefined> {
      return db
        .selectFrom('subscriptions')
        .selectAll()
        .where('subscription_ref', '=', subscriptionRef)
        .executeTakeFirst();
    },
    async upsertSubscription(trx: Transaction<Database>, row: SubscriptionRow): Promise<void> {
      const { account_id: _id, started_at: _started, ...changes } = row;
      await trx
        .insertInto('subscriptions')
        .values(row)
        .onConflict((oc) => oc.column('account_id').doUpdateSet(changes))
        .execute();
    },
    async setAccountPlan(trx: Transaction<Database>, accountId: string, plan: string): Promise<void> {
      await trx.updateTable('accounts').set({ plan }).where('id', '=', accountId).execute();
    },
    findAccount(accountId: string) {
      return db.selectFrom('accounts').selectAll().where('id', '=', accountId).executeTakeFirst();
    },
    async insertCheckout(row: CheckoutSessionRow): Promise<void> {
      await db.insertInto('checkout_sessions').values(row).execute();
    },
    findOpenCheckoutByToken(tokenHash: string, now: string): Promise<CheckoutSessionRow | undefined> {
      return db
        .selectFrom('checkout_sessions')
        .selectAll()
        .where('token_hash', '=', tokenHash)
        .where('status', '=', 'open')
        .where('expires_at', '>', now)
        .executeTakeFirst();
    },
    findCheckoutByProviderSession(
      providerSessionId: string,
      trx?: Transaction<Database>,
    ): Promise<CheckoutSessionRow | undefined> {
      return (trx ?? db)
        .selectFrom('checkout_sessions')
        .selectAll()
        .where('provider_session_id', '=', providerSessionId)
        .executeTakeFirst();
    },
    /** Moves an open, unexpired session to `status`; false when another request got there first. */
    async closeCheckout(
      trx: Transaction<Database>,
      id: string,
      status: 'completed' | 'canceled',
      now: string,
    ): Promise<boolean> {
      const result = await trx
        .updateTable('checkout_sessions')
        .set({ status, completed_at: now })
        .where('id', '=', id)
        .where('status', '=', 'open')
        .where('expires_at', '>', now)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },
    async markCheckoutCompleted(trx: Transaction<Database>, id: string, now: string): Promise<void> {
      await trx
        .updateTable('checkout_sessions')
        .set({ status: 'completed', completed_at: now })
        .where('id', '=', id)
        .execute();
    },
    /** Records a provider event id; false when it was seen before (the provider retried it). */
    async recordProviderEvent(
      trx: Transaction<Database>,
      row: {
        id: string;
        account_id: string | null;
        type: string;
        received_at: string;
      },
    ) {
      const result = await trx
        .insertInto('billing_events')
        .values(row)
        .onConflict((oc) => oc.column('id').doNothing())
        .executeTakeFirst();
      return Number(result.numInsertedOrUpdatedRows ?? 0) === 1;
    },
    /** The account's keys by id and name, revoked ones too: the usage report names the keys it counts. */
    keyNames(accountId: string) {
      return db.selectFrom('api_keys').select(['id', 'name']).where('account_id', '=', accountId).execute();
    },
  };
}

export type BillingRepo = ReturnType<typeof createBillingRepo>;
