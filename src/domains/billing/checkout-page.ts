import type { Plan } from '../plans/index.ts';

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

const STYLE = `
  body { font: 16px/1.5 system-ui, sans-serif; margin: 0; background: #f4f5f7; color: #1d2330; }
  main { max-width: 28rem; margin: 4rem auto; background: #fff; border-radius: 12px; padding: 2rem;
         box-shadow: 0 1px 3px rgba(0,0,0,.12); }
  h1 { font-size: 1.35rem; margin: 0 0 1rem; }
  .price { font-size: 2rem; font-weight: 700; margin: .5rem 0; }
  ul { padding-left: 1.2rem; }
  .actions { display: flex; gap: .75rem; margin-top: 1.5rem; }
  button { font: inherit; padding: .6rem 1.2rem; border-radius: 8px; border: 1px solid #c5cad3; cursor: pointer; }
  button.primary { background: #1f5eff; border-color: #1f5eff; color: #fff; }
  .muted { color: #5b6475; font-size: .9rem; }
`;

/**
 * Security headers for the page: nothing loads from elsewhere, nothing frames it, the token in
 * its URL is not sent on as a referrer, and its forms may post here and be redirected to the
 * caller's success and cancel addresses only.
 */
export function pageHeaders(formTargets: string[]): Record<string, string> {
  const origins = [...new Set(formTargets.map((u) => new URL(u).origin))].join(' ');
  return {
    'content-type': 'text/html; charset=utf-8',
    'cache-control': 'no-store',
    'referrer-policy': 'no-referrer',
    'x-frame-options': 'DENY',
    'x-content-type-options': 'nosniff',
    'content-security-policy': `default-src 'none'; style-src 'unsafe-inline'; form-action 'self' ${origins}; frame-ancestors 'none'; base-uri 'none'`,
  };
}

export function renderCheckoutPage(input: {
  plan: Plan;
  accountLabel: string;
  token: string;
  expiresAt: string;
}): string {
  const { plan } = input;
  const token = encodeURIComponent(input.token);
  const allowance =
    plan.monthly_call_allowance === null
      ? 'Unlimited API calls'
      : `${plan.monthly_call_allowance.toLocaleString('en-US')} API calls per month`;
  const keys = plan.max_api_keys === null ? 'Unlimited API keys' : `Up to ${plan.max_api_keys} API keys`;
  const features = [allowance, keys, ...plan.features.map((f) => f.replaceAll('_', ' '))];
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Confirm your Arbiter ${escapeHtml(plan.name)} plan</title>
<style>${STYLE}</style>
</head>
<body>
<main>
  <h1>Subscribe to Arbiter ${escapeHtml(plan.name)}</h1>
  <p class="muted">For account ${escapeHtml(input.accountLabel)}</p>
  <p class="price" data-testid="price">${escapeHtml(plan.price_usd_month.toFixed(2))} ${escapeHtml(plan.currency)} <span class="muted">per month</span></p>
  <ul>${features.map((f) => `<li>${escapeHtml(f)}</li>`).join('')}</ul>
  <div class="actions">
    <form method="post" action="/checkout/${token}/confirm">
      <input type="hidden" name="decision" value="confirm">
      <button class="primary" type="submit" id="confirm">Confirm subscription</button>
    </form>
    <form method="post" action="/checkout/${token}/cancel">
      <input type="hidden" name="decision" value="cancel">
      <button type="submit" id="cancel">Cancel</button>
    </form>
  </div>
  <p class="muted">This link works once and expires at ${escapeHtml(input.expiresAt)}.</p>
</main>
</body>
</html>`;
}

export function renderErrorPage(status: number, message: string): string {
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Checkout unavailable</title><style>${STYLE}</style></head>
<body><main><h1>Checkout unavailable</h1><p>${escapeHtml(message)}</p><p class="muted">HTTP ${status}</p></main></body>
</html>`;
}
