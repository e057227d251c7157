import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../../errors.ts';
import { ADMIN_PAGE, type ConsoleDeps, field, param, sendPage, sessionOf } from '../context.ts';
import { html } from '../html.ts';
import { csrfField, notice, type PageContext, page, time } from '../layout.ts';
import { badge } from './shared.ts';

type Message = { kind: 'ok' | 'error'; text: string };

/** Where a checkout sends the person back: this page, told which checkout it was. */
const RETURN_PATH = '/console/billing?checkout={CHECKOUT_SESSION_ID}';

/**
 * The account's plan and the plans on offer; choosing one starts a checkout (`POST
 * /subscription/checkout`), and the checkout, confirmed or cancelled, comes back here to say how
 * it ended. Admin only, as billing is in the API.
 */
export function billingPages(app: FastifyInstance, deps: ConsoleDeps): void {
  /** What a returning checkout says: read from the account's own checkout, never from the URL alone. */
  async function outcomeOf(accountId: string, checkoutId: string | undefined): Promise<Message | undefined> {
    if (checkoutId === undefined) return undefined;
    const checkout = await deps.repo.checkout(accountId, checkoutId);
    if (checkout === undefined) return { kind: 'error', text: 'That checkout is not one of this account’s.' };
    const plan = deps.plans.find((p) => p.id === checkout.plan)?.name ?? checkout.plan;
    switch (checkout.status) {
      case 'completed':
        return { kind: 'ok', text: `Subscription confirmed: this account is now on the ${plan} plan.` };
      case 'canceled':
        return {
          kind: 'error',
          text: `The checkout for the ${plan} plan was cancelled; the plan is unchanged.`,
        };
      case 'open':
        return {
          kind: 'error',
          text: `The checkout for the ${plan} plan is not complete yet; the plan is unchanged until it is.`,
        };
      default:
        return {
          kind: 'error',
          text: `The checkout for the ${plan} plan ${checkout.status}; the plan is unchanged.`,
        };
    }
  }

  async function render(request: FastifyRequest, reply: FastifyReply, message?: Message, status = 200) {
    const session = sessionOf(request);
    const ctx: PageContext = { session, current: '/console/billing' };
    const [current, outcome] = await Promise.all([
      deps.billing.status(session.accountId),
      message === undefined ? outcomeOf(session.accountId, param(request, 'checkout')) : undefined,
    ]);
    const shown = message ?? outcome;
    const offered = deps.billing.plans().filter((p) => p.purchasable);
    const body = html`${
      shown?.kind === 'ok'
        ? html`<section class="card confirmation" id="checkout-outcome" role="status">
            <h2>Thank you</h2><p>${shown.text}</p></section>`
        : notice(shown)
    }
      <section class="card" aria-labelledby="plan-title">
        <h2 id="plan-title">Current plan</h2>
        <dl class="grid">
          <dt>Plan</dt><dd id="current-plan">${current.plan_details.name}</dd>
          <dt>Status</dt><dd>${badge(current.status)}</dd>
          <dt>Billed by</dt><dd>${current.provider === 'none' ? 'nobody (no subscription)' : current.provider}</dd>
          <dt>Period</dt><dd>${time(current.billing_period.start)} to ${time(current.billing_period.end)}</dd>
        </dl>
      </section>
      <h2>Plans</h2>
      <table>
        <thead><tr><th scope="col">Plan</th><th scope="col" class="num">Price per month</th>
          <th scope="col" class="num">Calls per month</th><th scope="col" class="num">Keys</th>
          <th scope="col"><span class="muted">Actions</span></th></tr></thead>
        <tbody>${offered.map(
          (p) => html`<tr>
            <td>${p.name}</td>
            <td class="num">${p.price_usd_month.toFixed(2)} ${p.currency}</td>
            <td class="num">${p.monthly_call_allowance === null ? 'unlimited' : p.monthly_call_allowance.toLocaleString('en-US')}</td>
            <td class="num">${p.max_api_keys === null ? 'unlimited' : p.max_api_keys}</td>
            <td>${
              p.id === current.plan && current.status === 'active'
                ? html`<span class="muted">current plan</span>`
                : html`<form method="post" action="/console/billing/checkout" class="inline">
                    ${csrfField(ctx)}<input type="hidden" name="plan_id" value="${p.id}">
                    <button type="submit" class="primary" aria-label="Switch to the ${p.name} plan">Switch</button>
                  </form>`
            }</td>
          </tr>`,
        )}</tbody>
      </table>`;
    return sendPage(reply, page(ctx, 'Billing', body), status);
  }

  app.get('/console/billing', ADMIN_PAGE, (request, reply) => render(request, reply));

  app.post('/console/billing/checkout', ADMIN_PAGE, async (request, reply) => {
    const session = sessionOf(request);
    const here = `${request.protocol}://${request.host}`;
    let started: Awaited<ReturnType<typeof deps.billing.startCheckout>>;
    try {
      started = await deps.billing.startCheckout(
        session,
        {
          plan_id: field(request, 'plan_id') ?? '',
          success_url: `${here}${RETURN_PATH}`,
          cancel_url: `${here}${RETURN_PATH}`,
        },
        here,
      );
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      return render(request, reply, { kind: 'error', text: err.message }, err.status);
    }
    // This site's own checkout page: go there. A provider's page elsewhere is a link, because the
    // console's CSP lets its forms (and their redirects) reach only this site.
    if (new URL(started.checkout_url).origin === here) return reply.redirect(started.checkout_url, 303);
    const ctx: PageContext = { session, current: '/console/billing' };
    return sendPage(
      reply,
      page(
        ctx,
        'Billing',
        html`<div class="card"><p>The checkout is ready at ${started.provider}.</p>
          <p><a href="${started.checkout_url}" id="checkout-link">Continue to the checkout page</a></p></div>`,
      ),
    );
  });
}
