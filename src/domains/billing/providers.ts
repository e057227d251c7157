import Stripe from 'stripe';
import { AppError, Errors } from '../../errors.ts';
import type { Plan } from '../plans/index.ts';

export interface CheckoutRequest {
  sessionId: string;
  accountId: string;
  accountEmail: string;
  plan: Plan;
  successUrl: string;
  cancelUrl: string;
  /** Base URL of this Arbiter, for links to its own pages. */
  baseUrl: string;
  /** The one-time token of a local checkout page. */
  token: string;
  expiresAt: Date;
}

export interface CheckoutStarted {
  checkoutUrl: string;
  providerSessionId: string | null;
}

/** The port every billing provider implements: where a person goes to pay for a plan. */
export interface BillingProvider {
  readonly name: 'local' | 'stripe';
  startCheckout(request: CheckoutRequest): Promise<CheckoutStarted>;
  /**
   * Ends a subscription at once, so it is never charged again; one the provider no longer knows
   * counts as ended. Throws `UNAVAILABLE` when the provider could not be made to end it.
   */
  cancelSubscription(subscriptionRef: string): Promise<void>;
}

/** Checkout on Arbiter's own page (no payment taken): the whole flow works offline. */
export function localProvider(): BillingProvider {
  return {
    name: 'local',
    async startCheckout(request) {
      return {
        checkoutUrl: `${request.baseUrl}/checkout/${encodeURIComponent(request.token)}`,
        providerSessionId: null,
      };
    },
    // No payment is taken, so there is nothing to stop at a provider.
    async cancelSubscription() {},
  };
}

export function createStripeClient(secretKey: string, apiUrl: string | undefined): Stripe {
  const target = apiUrl === undefined ? undefined : new URL(apiUrl);
  return new Stripe(secretKey, {
    maxNetworkRetries: 2,
    timeout: 20_000,
    telemetry: false,
    ...(target === undefined
      ? {}
      : {
          host: target.hostname,
          port: target.port === '' ? (target.protocol === 'https:' ? 443 : 80) : Number(target.port),
          protocol: target.protocol === 'https:' ? 'https' : 'http',
        }),
  });
}

/** Stripe Checkout in subscription mode; the account is the session's `client_reference_id`. */
export function stripeProvider(stripe: Stripe): BillingProvider {
  return {
    name: 'stripe',
    async startCheckout(request) {
      const metadata = {
        account_id: request.accountId,
        plan_id: request.plan.id,
        checkout_id: request.sessionId,
      };
      const lineItem: Stripe.Checkout.SessionCreateParams.LineItem =
        request.plan.stripe_price_id !== undefined
          ? { price: request.plan.stripe_price_id, quantity: 1 }
          : {
              quantity: 1,
              price_data: {
                currency: request.plan.currency.toLowerCase(),
                unit_amount: Math.round(request.plan.price_usd_month * 100),
                recurring: { interval: 'month' },
                product_data: { name: `Arbiter ${request.plan.name}` },
              },
            };
      try {
        const session = await stripe.checkout.sessions.create(
          {
            mode: 'subscription',
            client_reference_id: request.accountId,
            customer_email: request.accountEmail,
            line_items: [lineItem],
            success_url: request.successUrl,
            cancel_url: request.cancelUrl,
            metadata,
            subscription_data: { metadata },
            expires_at: Math.floor(request.expiresAt.getTime() / 1000),
          },
          // A retried call after a network error must not open a second session.
          { idempotencyKey: request.sessionId },
        );
        if (!session.url) throw new Error('Stripe returned a session without a URL');
        return { checkoutUrl: session.url, providerSessionId: session.id };
      } catch (err) {
        if (err instanceof Stripe.errors.StripeInvalidRequestError) {
          throw Errors.validation(`The payment provider refused the checkout: ${err.message}`);
        }
        if (err instanceof AppError) throw err;
        throw Errors.unavailable('The payment provider could not be reached; try again');
      }
    },
    async cancelSubscription(subscriptionRef) {
      try {
        await stripe.subscriptions.cancel(subscriptionRef);
      } catch (err) {
        if (err instanceof Stripe.errors.StripeInvalidRequestError && err.code === 'resource_missing') return;
        throw Errors.unavailable(
          `The payment provider did not cancel subscription ${subscriptionRef} (${(err as Error).message}); nothing was changed, try again`,
        );
      }
    },
  };
}
