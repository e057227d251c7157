import type Stripe from 'stripe';
import { FALLBACK_PLAN, type Plan } from '../plans/index.ts';
import type { BillingRepo } from './repo.ts';
import type { SubscriptionChange, SubscriptionStatus } from './types.ts';

/** Stripe's subscription statuses in the three Arbiter knows. */
export function mapStripeStatus(status: string): SubscriptionStatus {
  if (status === 'active' || status === 'trialing') return 'active';
  if (status === 'canceled' || status === 'incomplete_expired') return 'canceled';
  return 'past_due';
}

const isoFromEpoch = (seconds: number | null | undefined) =>
  typeof seconds === 'number' ? new Date(seconds * 1000).toISOString() : null;

/** The Arbiter change a Stripe event means, or undefined for events that change nothing here. */
export async function changeFromStripeEvent(
  event: Stripe.Event,
  known: {
    repo: Pick<BillingRepo, 'findAccount' | 'findSubscriptionByRef'>;
    planOrFallback(id: string): Plan;
  },
): Promise<SubscriptionChange | undefined> {
  const { repo, planOrFallback } = known;
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
        customerRef: typeof session.customer === 'string' ? session.customer : (session.customer?.id ?? null),
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
