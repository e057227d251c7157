import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { AppError, ERROR_STATUS } from '../../errors.ts';
import { principalOf } from '../../http/auth.ts';
import { errorResponses } from '../../http/common-schemas.ts';
import { pageHeaders, renderCheckoutPage, renderErrorPage } from './checkout-page.ts';
import {
  CheckoutBody,
  CheckoutResponse,
  PlansResponse,
  StatusResponse,
  TokenParams,
  UsageResponse,
} from './schemas.ts';
import type { BillingService } from './service.ts';

const errors = {
  ...errorResponses,
  403: Type.Ref('ErrorBody'),
  409: Type.Ref('ErrorBody'),
  503: Type.Ref('ErrorBody'),
};
// Billing must stay reachable for an account over its allowance: that is how it upgrades.
const unmetered = { quota: false };

function maskEmail(email: string): string {
  const [user = '', domain = ''] = email.split('@');
  return `${user.slice(0, 1)}${'•'.repeat(Math.max(1, Math.min(user.length - 1, 6)))}@${domain}`;
}

function wantsHtml(request: FastifyRequest): boolean {
  return (request.headers.accept ?? '').includes('text/html');
}

/** Page routes answer browsers with a page, and API clients with the usual error body. */
async function asPage(request: FastifyRequest, reply: FastifyReply, run: () => Promise<unknown>) {
  try {
    return await run();
  } catch (err) {
    if (!(err instanceof AppError) || !wantsHtml(request)) throw err;
    const status = ERROR_STATUS[err.code];
    return reply.status(status).headers(pageHeaders([])).send(renderErrorPage(status, err.message));
  }
}

export function subscriptionRoutes(billing: BillingService): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.post(
      '/subscription/checkout',
      {
        config: { ...unmetered, role: 'admin' },
        schema: {
          tags: ['Billing'],
          summary: 'Start a checkout for a plan; a person completes it at checkout_url',
          body: CheckoutBody,
          response: { 200: CheckoutResponse, ...errors },
        },
      },
      async (request) => {
        const base = `${request.protocol}://${request.host}`;
        return {
          success: true as const,
          ...(await billing.startCheckout(principalOf(request), request.body, base)),
        };
      },
    );

    app.get(
      '/subscription/status',
      {
        config: { ...unmetered, role: 'admin' },
        schema: {
          tags: ['Billing'],
          summary: 'Plan, status, plan details and the current billing period',
          response: { 200: StatusResponse, ...errors },
        },
      },
      async (request) => billing.status(principalOf(request).accountId),
    );

    app.get(
      '/subscription/plans',
      {
        config: { ...unmetered, role: 'admin' },
        schema: {
          tags: ['Billing'],
          summary: 'The plans on offer',
          response: { 200: PlansResponse, ...errors },
        },
      },
      async () => ({ success: true as const, plans: billing.plans() }),
    );

    app.get(
      '/billing/usage/current',
      {
        config: { ...unmetered, role: 'operator' },
        schema: {
          tags: ['Billing'],
          summary: "This month's calls (by endpoint, day and key) and their cost",
          response: { 200: UsageResponse, ...errors },
        },
      },
      async (request) => billing.usage(principalOf(request).accountId),
    );
  };
}

/** The local provider's checkout page. Public: the one-time token in the URL is the credential. */
export function checkoutPageRoutes(billing: BillingService): FastifyPluginAsyncTypebox {
  return async (app) => {
    // The page's forms post form-encoded bodies, which carry nothing the routes read.
    app.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: 4096 },
      (_r, _b, done) => done(null, {}),
    );
    const hide = { hide: true, params: TokenParams };

    app.get('/checkout/:token', { config: { auth: false }, schema: hide }, (request, reply) =>
      asPage(request, reply, async () => {
        const { token } = request.params as { token: string };
        const { session, plan } = await billing.openCheckout(token);
        const account = await billing.accountEmail(session.account_id);
        return reply.headers(pageHeaders([session.success_url, session.cancel_url])).send(
          renderCheckoutPage({
            plan,
            accountLabel: maskEmail(account),
            token,
            expiresAt: session.expires_at,
          }),
        );
      }),
    );

    app.post('/checkout/:token/confirm', { config: { auth: false }, schema: hide }, (request, reply) =>
      asPage(request, reply, async () => {
        const { token } = request.params as { token: string };
        return reply.redirect(await billing.confirmLocalCheckout(token), 303);
      }),
    );

    app.post('/checkout/:token/cancel', { config: { auth: false }, schema: hide }, (request, reply) =>
      asPage(request, reply, async () => {
        const { token } = request.params as { token: string };
        return reply.redirect(await billing.cancelLocalCheckout(token), 303);
      }),
    );
  };
}

/** Stripe's webhook: its own plugin so the raw body (which the signature covers) reaches the handler. */
export function stripeWebhookRoutes(billing: BillingService): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.removeAllContentTypeParsers();
    app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) =>
      done(null, body),
    );
    app.post(
      '/billing/stripe/webhook',
      {
        config: { auth: false },
        schema: {
          tags: ['Billing'],
          summary: 'Stripe events (signed with STRIPE_WEBHOOK_SECRET)',
          security: [{ stripeSignature: [] }],
          response: { 200: Type.Object({ received: Type.Boolean(), applied: Type.Boolean() }), ...errors },
        },
      },
      async (request) => {
        if (typeof request.body !== 'string')
          throw new AppError('VALIDATION_ERROR', 'Send the event as JSON');
        const signature = request.headers['stripe-signature'];
        const result = await billing.handleStripeWebhook(
          request.body,
          typeof signature === 'string' ? signature : undefined,
        );
        return { received: true, applied: result.applied };
      },
    );
  };
}
