import type { KeyRole } from '../domains/api-keys/index.ts';
import { type Html, html } from './html.ts';

export interface PageContext {
  /** The signed-in account and the anti-forgery token its forms carry; absent on the sign-in page. */
  session?:
    | { accountId: string; accountName: string; keyId: string; csrf: string; role: KeyRole }
    | undefined;
  current?: string;
}

const NAV: ReadonlyArray<[path: string, label: string, role?: KeyRole]> = [
  ['/console/escalations', 'Escalations'],
  ['/console/evaluations', 'Evaluations'],
  ['/console/verdicts', 'Verdicts'],
  ['/console/memory', 'Memory'],
  ['/console/audit', 'Audit log'],
  ['/console/usage', 'Usage'],
  ['/console/keys', 'Keys', 'admin'],
  ['/console/webhooks', 'Webhooks'],
  ['/console/policies', 'Policies'],
  ['/console/billing', 'Billing', 'admin'],
];

/** The hidden field every state-changing form carries. */
export function csrfField(ctx: PageContext): Html {
  return html`<input type="hidden" name="_csrf" value="${ctx.session?.csrf ?? ''}">`;
}

export function notice(message: { kind: 'ok' | 'error'; text: string } | undefined): Html {
  if (message === undefined) return html``;
  return message.kind === 'error'
    ? html`<p class="notice error" role="alert">${message.text}</p>`
    : html`<p class="notice ok" role="status">${message.text}</p>`;
}

export function page(ctx: PageContext, title: string, body: Html): string {
  const nav = ctx.session
    ? html`<nav aria-label="Console">
        <ul>
          ${NAV.filter(([, , role]) => role === undefined || role === ctx.session?.role).map(
            ([path, label]) =>
              html`<li><a href="${path}"${path === ctx.current ? html` aria-current="page"` : ''}>${label}</a></li>`,
          )}
        </ul>
        <form method="post" action="/console/sign-out" class="sign-out">
          ${csrfField(ctx)}
          <button type="submit">Sign out</button>
        </form>
      </nav>`
    : '';
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="htmx-config" content='{"includeIndicatorStyles":false,"allowEval":false,"allowScriptTags":false}'>
<title>${title} · Arbiter console</title>
<link rel="stylesheet" href="/console/assets/console.css">
<script src="/console/assets/htmx.min.js" defer></script>
</head>
<body>
<a class="skip" href="#main">Skip to content</a>
<header>
  <p class="brand">Arbiter console</p>
  ${
    ctx.session
      ? html`<p class="account">Account <strong title="${ctx.session.accountId}">${ctx.session.accountName}</strong>
          <code class="id">${ctx.session.accountId}</code></p>`
      : ''
  }
</header>
${nav}
<main id="main" tabindex="-1">
<h1>${title}</h1>
${body}
</main>
</body>
</html>`.text;
}

/** A timestamp as people read it, keeping the exact value for machines. */
export function time(iso: string | null): Html {
  if (iso === null) return html`<span class="muted">—</span>`;
  return html`<time datetime="${iso}">${iso.replace('T', ' ').replace(/\.\d+Z$/, ' UTC')}</time>`;
}
