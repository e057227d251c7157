/** What billing says of a subscription, shared by the service and its parts. */

export type SubscriptionStatus = 'active' | 'past_due' | 'canceled';

/** A plan or status change to apply, from a checkout or the provider. */
export interface SubscriptionChange {
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
