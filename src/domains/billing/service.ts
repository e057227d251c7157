import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import type Stripe from 'stripe';
import type { Database } from '../../db/schema.ts';
import { Errors } from '../../errors.ts';
import type { RevocationBus } from '../api-keys/index.ts';
import type { AuditRepo } from '../audit/index.ts';
import { FALLBACK_PLAN, findPlan, type Plan } from '../plans/index.ts';
import { monthOf, type UsageMeter, type UsageRepo } from '../usage/index.ts';
import { emitEvent } from '../webhooks/index.ts';
import { currentMonthlyPeriod, monthlyCharge, monthStart, nextMonthStart } from './periods.ts';
import type { BillingProvider } from './providers.ts';
import { type CheckoutSessionRow, createBillingRepo, type SubscriptionRow } from './repo.ts';

export type SubscriptionStatus = 'active' | 'past_due' | 'canceled';

const CHECKOUT_TTL_MS = 60 * 60 * 1000;

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
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

interface Change {
  accountId: string;
  plan: string;
  status: SubscriptionStatus;
  provider: 'local' | 'stripe';
  customerRef?: string | null;
  subscriptionRef?: string | null;
  periodStart?: string | null;
  periodEnd?: string | null;
  /** When the provider reported the change; an older report than the last applied is ignored. */
  eventAt?: string;
  actor: string;
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

/** Stripe's subscription statuses in the three Arbiter knows. */
export function mapStripeStatus(status: string): SubscriptionStatus {
  if (status === 'active' || status === 'trialing') return 'active';
  if (status === 'canceled' || status === 'incomplete_expired') return 'canceled';
  return 'past_due';
}

/** Usage is counted per calendar month in UTC, whatever the subscription's own dates. */
function usagePeriod(at: Date) {
  return {
    start: monthStart(at).toISOString(),
    end: nextMonthStart(at).toISOString(),
    basis: 'calendar_month_utc' as const,
    note: 'API calls are counted per calendar month in UTC, from the 1st at 00:00 UTC to the 1st of the next month, whatever the dates of the subscription period.',
  };
}

const isoFromEpoch = (seconds: number | null | undefined) =>
  typeof seconds === 'number' ? new Date(seconds * 1000).toISOString() : null;

export function createBillingService(deps: {
  db: Kysely<Database>;
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
  const repo = createBillingRepo(deps.db);

  function planOrFallback(id: string): Plan {
    return findPlan(deps.plans, id) ?? findPlan(deps.plans, FALLBACK_PLAN)!;
  }

  /**
   * Applies a plan or status change in `trx`: the subscription row, the account's plan (a
   * canceled subscription falls back to the free plan), the audit entry and the webhook event
   * all land together or not at all.
   */
  async function applyIn(trx: Transaction<Database>, change: Change): Promise<boolean> {
    const r = createBillingRepo(trx);
    const existing = await r.findSubscription(change.accountId);
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
    await r.upsertSubscription(row);
    const effectivePlan = change.status === 'canceled' ? FALLBACK_PLAN : change.plan;
    await r.setAccountPlan(change.accountId, effectivePlan);
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
        if (!(await createBillingRepo(trx).closeCheckout(session.id, 'completed', at.toISOString())))
          return false;
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
      await repo.closeCheckout(session.id, 'canceled', now().toISOString());
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
      const month = monthOf(at);
      const status = await this.status(accountId);
      const plan = planOrFallback(status.plan);
      const start = monthStart(at);
      const end = nextMonthStart(at);
      const [monthly, daily, keys] = await Promise.all([
        deps.usage.monthlyByKey(accountId, month),
        deps.usage.dailyForAccount(accountId, `${month}-01`, `${month}-31`),
        deps.db.selectFrom('api_keys').select(['id', 'name']).where('account_id', '=', accountId).execute(),
      ]);
      const byKey = new Map<string, number>();
      for (const m of monthly) byKey.set(m.key_id, (byKey.get(m.key_id) ?? 0) + Number(m.calls));
      for (const m of deps.meter.pendingForAccountMonthly(accountId, month)) {
        byKey.set(m.keyId, (byKey.get(m.keyId) ?? 0) + m.calls);
      }
      const byDay = new Map<string, number>();
      const byEndpoint = new Map<string, number>();
      const pendingDaily = deps.meter
        .pendingForAccountDaily(accountId)
        .filter((d) => d.day.startsWith(month))
        .map((d) => ({ day: d.day, endpoint: d.endpoint, calls: d.calls }));
      for (const d of [...daily, ...pendingDaily]) {
        byDay.set(d.day, (byDay.get(d.day) ?? 0) + Number(d.calls));
        byEndpoint.set(d.endpoint, (byEndpoint.get(d.endpoint) ?? 0) + Number(d.calls));
      }
      const total = [...byKey.values()].reduce((a, b) => a + b, 0);
      const names = new Map(keys.map((k) => [k.id, k.name]));
      const paidSince =
        status.subscribed_since && status.status !== 'canceled'
          ? new Date(status.subscribed_since)
          : undefined;
      const charge = monthlyCharge(plan.price_usd_month, paidSince, at);
      return {
        success: true as const,
        plan: plan.id,
        period: { start: start.toISOString(), end: end.toISOString() },
        usage_period: usagePeriod(at),
        subscription_period: status.subscription_period,
        total_api_calls: total,
        total_cost_usd: charge.amount_usd,
        cost: {
          amount_usd: charge.amount_usd,
          price_usd_month: plan.price_usd_month,
          prorated: charge.prorated,
          charged_from: charge.from.toISOString(),
          share_of_month: charge.share,
          explanation: charge.prorated
            ? `total_cost_usd is the plan's ${plan.price_usd_month} USD/month prorated to the part of this calendar month (UTC) since the plan became active on ${charge.from.toISOString()}: ${Math.round(charge.share * 1000) / 10}% of the month. The provider invoices per subscription period, so an invoice need not equal it.`
            : `total_cost_usd is the plan's price for the whole calendar month (UTC), not prorated. The provider invoices per subscription period, so an invoice need not fall on these dates.`,
        },
        monthly_call_allowance: plan.monthly_call_allowance,
        remaining_calls:
          plan.monthly_call_allowance === null ? null : Math.max(0, plan.monthly_call_allowance - total),
        by_endpoint: [...byEndpoint]
          .map(([endpoint, calls]) => ({ endpoint, calls }))
          .sort((a, b) => b.calls - a.calls),
        by_day: [...byDay].map(([day, calls]) => ({ day, calls })).sort((a, b) => a.day.localeCompare(b.day)),
        by_key: [...byKey].map(([key_id, calls]) => ({ key_id, name: names.get(key_id) ?? null, calls })),
      };
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
      const change = await changeFromStripeEvent(event);
      const received = now().toISOString();
      const applied = await deps.db.transaction().execute(async (trx) => {
        const fresh = await createBillingRepo(trx).recordProviderEvent({
          id: event.id,
          account_id: change?.accountId ?? null,
          type: event.type,
          received_at: received,
        });
        if (!fresh || change === undefined) return false;
        if (event.type === 'checkout.session.completed') {
          const session = event.data.object as Stripe.Checkout.Session;
          const local = await createBillingRepo(trx).findCheckoutByProviderSession(session.id);
          if (local) await createBillingRepo(trx).markCheckoutCompleted(local.id, received);
        }
        return applyIn(trx, change);
      });
      if (applied && change) await planChanged(change.accountId);
      return { applied, type: event.type };
    },
  };

  /** The Arbiter change a Stripe event means, or undefined for events that change nothing here. */
  async function changeFromStripeEvent(event: Stripe.Event): Promise<Change | undefined> {
    const eventAt = new Date(event.created * 1000).toISOString();
    const base = { provider: 'stripe' as const, actor: 'stripe', eventAt };
    switch (event.type) {
      case 'checkout.session.completed': {
        const session = event.data.object;
        if (session.mode !== 'subscription') return undefined;
        const accountId = session.client_reference_id ?? session.metadata?.account_id;
        const planId = session.metadata?.plan_id;
        if (!accountId || !planId || !(await repo.findAccount(accountId))) return undefined;
        return {
          ...base,
          accountId,
          plan: planOrFallback(planId).id,
          status: 'active',
          customerRef:
            typeof session.customer === 'string' ? session.customer : (session.customer?.id ?? null),
          subscriptionRef:
            typeof session.subscription === 'string'
              ? session.subscription
              : (session.subscription?.id ?? null),
        };
      }
      case 'customer.subscription.updated':
      case 'customer.subscription.deleted': {
        const sub = event.data.object;
        const known = await repo.findSubscriptionByRef(sub.id);
        const accountId = known?.account_id ?? sub.metadata?.account_id;
        if (!accountId || !(await repo.findAccount(accountId))) return undefined;
        const item = sub.items?.data?.[0] as
          | { current_period_start?: number; current_period_end?: number }
          | undefined;
        return {
          ...base,
          accountId,
          plan: sub.metadata?.plan_id ?? known?.plan ?? FALLBACK_PLAN,
          status: event.type === 'customer.subscription.deleted' ? 'canceled' : mapStripeStatus(sub.status),
          customerRef: typeof sub.customer === 'string' ? sub.customer : (sub.customer?.id ?? null),
          subscriptionRef: sub.id,
          periodStart: isoFromEpoch(item?.current_period_start),
          periodEnd: isoFromEpoch(item?.current_period_end),
        };
      }
      case 'invoice.payment_failed': {
        const invoice = event.data.object as Stripe.Invoice & { subscription?: string | null };
        const ref = invoice.parent?.subscription_details?.subscription ?? invoice.subscription;
        const subId = typeof ref === 'string' ? ref : ref?.id;
        const known = subId ? await repo.findSubscriptionByRef(subId) : undefined;
        if (!known) return undefined;
        return { ...base, accountId: known.account_id, plan: known.plan, status: 'past_due' };
      }
      default:
        return undefined;
    }
  }
}

/** Stripe's `{CHECKOUT_SESSION_ID}` placeholder works in local success URLs too. */
function redirectTarget(url: string, session: CheckoutSessionRow): string {
  return url.replaceAll('{CHECKOUT_SESSION_ID}', encodeURIComponent(session.id));
}

export type BillingService = ReturnType<typeof createBillingService>;
