import { randomBytes, randomUUID } from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import type Stripe from 'stripe';
import type { Database } from '../../db/schema.ts';
import { Errors } from '../../errors.ts';
import { sha256 } from '../../lib/sha256.ts';
import { monthStart, nextMonthStart } from '../../lib/utc-month.ts';
import type { RevocationBus } from '../api-keys/index.ts';
import type { AuditRepo } from '../audit/index.ts';
import { FALLBACK_PLAN, findPlan, type Plan } from '../plans/index.ts';
import type { UsageMeter, UsageRepo } from '../usage/index.ts';
import { emitEvent } from '../webhooks/index.ts';
import { currentMonthlyPeriod } from './periods.ts';
import type { BillingProvider } from './providers.ts';
import type { BillingRepo, CheckoutSessionRow, SubscriptionRow } from './repo.ts';
import { changeFromStripeEvent } from './stripe-events.ts';
import type { SubscriptionChange, SubscriptionStatus } from './types.ts';
import { usagePeriod, usageReport } from './usage-report.ts';

export { mapStripeStatus } from './stripe-events.ts';
export type { SubscriptionChange, SubscriptionStatus } from './types.ts';

const CHECKOUT_TTL_MS = 60 * 60 * 1000;

export function hashToken(token: string): string {
  return sha256(token);
}

/** An absolute http(s) URL, or a 400 naming the field. */
function requireHttpUrl(field: string, value: string): void {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw Errors.validation(`body/${field} must be an absolute http or https URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw Errors.validation(`body/${field} must be an absolute http or https URL`);
  }
}

function planDetails(plan: Plan) {
  return {
    id: plan.id,
    name: plan.name,
    price_usd_month: plan.price_usd_month,
    currency: plan.currency,
    monthly_call_allowance: plan.monthly_call_allowance,
    max_api_keys: plan.max_api_keys,
    features: plan.features,
  };
}

export function createBillingService(deps: {
  /** Opens the transactions a plan change runs in. */
  db: Kysely<Database>;
  repo: BillingRepo;
  audit: Pick<AuditRepo, 'appendIn'>;
  plans: readonly Plan[];
  provider: BillingProvider;
  stripe?: { client: Stripe; webhookSecret: string };
  forgetAccount: (accountId: string) => void;
  bus: Pick<RevocationBus, 'publishAccount'> | undefined;
  usage: Pick<UsageRepo, 'monthlyByKey' | 'dailyForAccount'>;
  meter: Pick<UsageMeter, 'pendingForAccountDaily' | 'pendingForAccountMonthly'>;
  publicUrl: string | undefined;
  now?: () => Date;
}) {
  const now = deps.now ?? (() => new Date());
  const { repo } = deps;

  function planOrFallback(id: string): Plan {
    return findPlan(deps.plans, id) ?? findPlan(deps.plans, FALLBACK_PLAN)!;
  }

  /**
   * Applies a plan or status change in `trx`: the subscription row, the account's plan (a
   * canceled subscription falls back to the free plan), the audit entry and the webhook event
   * all land together or not at all.
   */
  async function applyIn(trx: Transaction<Database>, change: SubscriptionChange): Promise<boolean> {
    const existing = await repo.findSubscription(change.accountId, trx);
    if (existing?.provider_event_at && change.eventAt && change.eventAt < existing.provider_event_at)
      return false;
    const at = now().toISOString();
    const row: SubscriptionRow = {
      account_id: change.accountId,
      plan: change.plan,
      status: change.status,
      provider: change.provider,
      customer_ref: change.customerRef ?? existing?.customer_ref ?? null,
      subscription_ref: change.subscriptionRef ?? existing?.subscription_ref ?? null,
      period_start: change.periodStart ?? existing?.period_start ?? null,
      period_end: change.periodEnd ?? existing?.period_end ?? null,
      started_at: existing?.started_at ?? at,
      updated_at: at,
      provider_event_at: change.eventAt ?? existing?.provider_event_at ?? null,
    };
    await repo.upsertSubscription(trx, row);
    const effectivePlan = change.status === 'canceled' ? FALLBACK_PLAN : change.plan;
    await repo.setAccountPlan(trx, change.accountId, effectivePlan);
    const data = {
      plan: effectivePlan,
      subscribed_plan: change.plan,
      status: change.status,
      provider: change.provider,
      current_period_end: row.period_end,
    };
    await deps.audit.appendIn(trx, [
      { accountId: change.accountId, actor: change.actor, action: 'subscription.updated', details: data, at },
    ]);
    await emitEvent(trx, change.accountId, 'subscription.updated', data, new Date(at));
    return true;
  }

  /** Keys carry the plan in their cache entries: drop them here and on every instance. */
  async function planChanged(accountId: string): Promise<void> {
    deps.forgetAccount(accountId);
    await deps.bus?.publishAccount(accountId);
  }

  return {
    plans: () => deps.plans.map((p) => ({ ...planDetails(p), purchasable: p.purchasable })),

    async startCheckout(
      principal: { accountId: string; keyId: string },
      input: { plan_id: string; success_url: string; cancel_url: string },
      requestBaseUrl: string,
    ) {
      const plan = findPlan(deps.plans, input.plan_id);
      if (!plan?.purchasable) {
        throw Errors.validation(`body/plan_id '${input.plan_id}' is not a plan that can be bought`, {
          plans: deps.plans.filter((p) => p.purchasable).map((p) => p.id),
        });
      }
      requireHttpUrl('success_url', input.success_url);
      requireHttpUrl('cancel_url', input.cancel_url);
      const account = await repo.findAccount(principal.accountId);
      if (!account) throw Errors.unauthenticated();
      if (account.plan === 'owner') throw Errors.forbidden("The operator's own account is not billed");
      const subscription = await repo.findSubscription(principal.accountId);
      if (account.plan === plan.id && subscription?.status === 'active') {
        throw Errors.conflict(`The account is already on the ${plan.id} plan`);
      }
      const created = now();
      const expiresAt = new Date(created.getTime() + CHECKOUT_TTL_MS);
      const sessionId = `cs_${randomUUID().replaceAll('-', '')}`;
      const token = randomBytes(32).toString('base64url');
      const started = await deps.provider.startCheckout({
        sessionId,
        accountId: account.id,
        accountEmail: account.email,
        plan,
        successUrl: input.success_url,
        cancelUrl: input.cancel_url,
        baseUrl: deps.publicUrl ?? requestBaseUrl,
        token,
        expiresAt,
      });
      await repo.insertCheckout({
        id: sessionId,
        account_id: account.id,
        plan: plan.id,
        provider: deps.provider.name,
        token_hash: deps.provider.name === 'local' ? hashToken(token) : null,
        provider_session_id: started.providerSessionId,
        success_url: input.success_url,
        cancel_url: input.cancel_url,
        status: 'open',
        created_at: created.toISOString(),
        expires_at: expiresAt.toISOString(),
        completed_at: null,
      });
      return {
        checkout_url: started.checkoutUrl,
        session_id: sessionId,
        provider: deps.provider.name,
        expires_at: expiresAt.toISOString(),
      };
    },

    /** The open local checkout behind a page token, with what the page shows. */
    async openCheckout(token: string) {
      const session = await repo.findOpenCheckoutByToken(hashToken(token), now().toISOString());
      if (!session) throw Errors.notFound('This checkout link is invalid, used or expired; the checkout');
      return { session, plan: planOrFallback(session.plan) };
    },

    /** Confirms a local checkout: the session is used up and the plan is active, atomically. */
    async confirmLocalCheckout(token: string): Promise<string> {
      const { session } = await this.openCheckout(token);
      const at = now();
      const done = await deps.db.transaction().execute(async (trx) => {
        if (!(await repo.closeCheckout(trx, session.id, 'completed', at.toISOString()))) return false;
        await applyIn(trx, {
          accountId: session.account_id,
          plan: session.plan,
          status: 'active',
          provider: 'local',
          subscriptionRef: session.id,
          periodStart: at.toISOString(),
          periodEnd: currentMonthlyPeriod(at, at).end.toISOString(),
          actor: 'checkout',
        });
        return true;
      });
      if (!done) throw Errors.notFound('This checkout link is invalid, used or expired; the checkout');
      await planChanged(session.account_id);
      return redirectTarget(session.success_url, session);
    },

    async cancelLocalCheckout(token: string): Promise<string> {
      const { session } = await this.openCheckout(token);
      const at = now().toISOString();
      await deps.db.transaction().execute((trx) => repo.closeCheckout(trx, session.id, 'canceled', at));
      return redirectTarget(session.cancel_url, session);
    },

    /**
     * Cancels the account's paid subscription at its provider before the account is deleted, so no
     * one is charged for an account that no longer exists. Throws `UNAVAILABLE` when it cannot be
     * cancelled; the deletion must then not go ahead.
     */
    async cancelBeforeDeletion(accountId: string): Promise<void> {
      const sub = await repo.findSubscription(accountId);
      if (!sub || sub.status === 'canceled' || sub.provider === 'local' || !sub.subscription_ref) return;
      if (sub.provider !== deps.provider.name) {
        throw Errors.unavailable(
          `The account's subscription is billed by ${sub.provider}, which this server is not configured for; it cannot be cancelled, so the account was not deleted`,
        );
      }
      await deps.provider.cancelSubscription(sub.subscription_ref);
    },

    async accountEmail(accountId: string): Promise<string> {
      return (await repo.findAccount(accountId))?.email ?? '';
    },

    async status(accountId: string) {
      const account = await repo.findAccount(accountId);
      if (!account) throw Errors.unauthenticated();
      const plan = planOrFallback(account.plan);
      const sub = await repo.findSubscription(accountId);
      const at = now();
      let subscriptionPeriod: { start: Date; end: Date } | undefined;
      if (sub && sub.status !== 'canceled' && sub.period_start) {
        const stored = {
          start: new Date(sub.period_start),
          end: new Date(sub.period_end ?? sub.period_start),
        };
        // The local provider has no renewals to report: its period rolls forward by itself.
        subscriptionPeriod =
          sub.provider === 'local' || stored.end <= at ? currentMonthlyPeriod(stored.start, at) : stored;
      }
      const period = subscriptionPeriod ?? { start: monthStart(at), end: nextMonthStart(at) };
      return {
        success: true as const,
        plan: plan.id,
        status: (sub?.status ?? 'active') as SubscriptionStatus,
        provider: sub?.provider ?? 'none',
        plan_details: planDetails(plan),
        billing_period: { start: period.start.toISOString(), end: period.end.toISOString() },
        subscription_period: subscriptionPeriod
          ? { start: subscriptionPeriod.start.toISOString(), end: subscriptionPeriod.end.toISOString() }
          : null,
        usage_period: usagePeriod(at),
        subscribed_since: sub?.started_at ?? null,
      };
    },

    async usage(accountId: string) {
      const at = now();
      const status = await this.status(accountId);
      return usageReport(
        { usage: deps.usage, meter: deps.meter, keyNames: repo.keyNames },
        accountId,
        status,
        planOrFallback(status.plan),
        at,
      );
    },

    /**
     * Verifies a Stripe webhook against the raw body and applies it once (Stripe retries; the
     * event id is recorded in the same transaction as the change).
     */
    async handleStripeWebhook(
      rawBody: string,
      signature: string | undefined,
    ): Promise<{ applied: boolean; type: string }> {
      const stripe = deps.stripe;
      if (!stripe) throw Errors.notFound('Stripe billing');
      if (signature === undefined) throw Errors.validation('The Stripe-Signature header is missing');
      let event: Stripe.Event;
      try {
        event = stripe.client.webhooks.constructEvent(rawBody, signature, stripe.webhookSecret);
      } catch (err) {
        throw Errors.validation(`Stripe signature verification failed: ${(err as Error).message}`);
      }
      const change = await changeFromStripeEvent(event, { repo, planOrFallback });
      const received = now().toISOString();
      const applied = await deps.db.transaction().execute(async (trx) => {
        const fresh = await repo.recordProviderEvent(trx, {
          id: event.id,
          account_id: change?.accountId ?? null,
          type: event.type,
          received_at: received,
        });
        if (!fresh || change === undefined) return false;
        if (event.type === 'checkout.session.completed') {
          const session = event.data.object as Stripe.Checkout.Session;
          const local = await repo.findCheckoutByProviderSession(session.id, trx);
          if (local) await repo.markCheckoutCompleted(trx, local.id, received);
        }
        return applyIn(trx, change);
      });
      if (applied && change) await planChanged(change.accountId);
      return { applied, type: event.type };
    },
  };
}

/** Stripe's `{CHECKOUT_SESSION_ID}` placeholder works in local success URLs too. */
function redirectTarget(url: string, session: CheckoutSessionRow): string {
  return url.replaceAll('{CHECKOUT_SESSION_ID}', encodeURIComponent(session.id));
}

export type BillingService = ReturnType<typeof createBillingService>;
