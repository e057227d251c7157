import type { Kysely } from 'kysely';
import type { CheckoutSessionsTable, Database, SubscriptionsTable } from '../../db/schema.ts';

export type SubscriptionRow = SubscriptionsTable;
export type CheckoutSessionRow = CheckoutSessionsTable;

export function createBillingRepo(db: Kysely<Database>) {
  return {
    findSubscription(accountId: string): Promise<SubscriptionRow | undefined> {
      return db
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
    async upsertSubscription(row: SubscriptionRow): Promise<void> {
      const { account_id: _id, started_at: _started, ...changes } = row;
      await db
        .insertInto('subscriptions')
        .values(row)
        .onConflict((oc) => oc.column('account_id').doUpdateSet(changes))
        .execute();
    },
    async setAccountPlan(accountId: string, plan: string): Promise<void> {
      await db.updateTable('accounts').set({ plan }).where('id', '=', accountId).execute();
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
    findCheckoutByProviderSession(providerSessionId: string): Promise<CheckoutSessionRow | undefined> {
      return db
        .selectFrom('checkout_sessions')
        .selectAll()
        .where('provider_session_id', '=', providerSessionId)
        .executeTakeFirst();
    },
    /** Moves an open, unexpired session to `status`; false when another request got there first. */
    async closeCheckout(id: string, status: 'completed' | 'canceled', now: string): Promise<boolean> {
      const result = await db
        .updateTable('checkout_sessions')
        .set({ status, completed_at: now })
        .where('id', '=', id)
        .where('status', '=', 'open')
        .where('expires_at', '>', now)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },
    async markCheckoutCompleted(id: string, now: string): Promise<void> {
      await db
        .updateTable('checkout_sessions')
        .set({ status: 'completed', completed_at: now })
        .where('id', '=', id)
        .execute();
    },
    /** Records a provider event id; false when it was seen before (the provider retried it). */
    async recordProviderEvent(row: {
      id: string;
      account_id: string | null;
      type: string;
      received_at: string;
    }) {
      const result = await db
        .insertInto('billing_events')
        .values(row)
        .onConflict((oc) => oc.column('id').doNothing())
        .executeTakeFirst();
      return Number(result.numInsertedOrUpdatedRows ?? 0) === 1;
    },
  };
}

export type BillingRepo = ReturnType<typeof createBillingRepo>;
