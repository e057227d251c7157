import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { type ConsoleDeps, PAGE, param, sendPage, sessionOf } from '../context.ts';
import { type Html, html } from '../html.ts';
import { csrfField, type PageContext, page, time } from '../layout.ts';
import type { KeyNames } from '../repo.ts';
import { badge, keyLabel } from './shared.ts';

const PAGE_SIZE = 100;
const DETAILS_CHARS = 200;
const DETAILS_TITLE_CHARS = 4000;
const TARGET_CHARS = 24;

/** An entry's details, cut to a length a row can show; the whole text (to a bound) is its tooltip. */
function details(text: string): Html {
  if (text.length <= DETAILS_CHARS) return html`<code>${text}</code>`;
  return html`<code title="${text.slice(0, DETAILS_TITLE_CHARS)}">${text.slice(0, DETAILS_CHARS)}…</code>`;
}

/** What an entry acted on: a key by its name, a long id or hash cut short with the whole as its tooltip. */
function target(names: KeyNames, value: string | null): Html {
  if (value === null || names.has(value) || value.length <= TARGET_CHARS) return keyLabel(names, value);
  return html`<code title="${value}">${value.slice(0, TARGET_CHARS)}…</code>`;
}

export function auditPages(app: FastifyInstance, deps: ConsoleDeps): void {
  async function render(request: FastifyRequest, reply: FastifyReply, verification?: Html) {
    const session = sessionOf(request);
    const ctx: PageContext = { session, current: '/console/audit' };
    const beforeParam = Number(param(request, 'before'));
    const before = Number.isSafeInteger(beforeParam) && beforeParam > 0 ? beforeParam : undefined;
    const [rows, names] = await Promise.all([
      deps.repo.auditPage(session.accountId, before, PAGE_SIZE + 1),
      deps.repo.keyNames(session.accountId),
    ]);
    const shown = rows.slice(0, PAGE_SIZE);
    const body = html`<section class="card" aria-labelledby="verify-title">
        <h2 id="verify-title">Chain verification</h2>
        <p class="muted">Every entry links to the one before it by SHA-256; verifying re-walks the whole chain.</p>
        <form method="post" action="/console/audit/verify">${csrfField(ctx)}<button type="submit">Verify</button></form>
        ${verification ?? ''}
      </section>
      ${
        shown.length === 0
          ? html`<p class="muted">The audit log is empty.</p>`
          : html`<table class="audit">
            <caption class="muted">Newest first</caption>
            <colgroup><col class="seq"><col class="when"><col class="actor"><col class="action"><col class="target"><col></colgroup>
            <thead><tr><th scope="col" class="num">#</th><th scope="col">When</th><th scope="col">Actor</th>
              <th scope="col">Action</th><th scope="col">Target</th><th scope="col">Details</th></tr></thead>
            <tbody>${shown.map(
              (
                e,
              ) => html`<tr><td class="num">${e.seq}</td><td>${time(e.at)}</td><td>${keyLabel(names, e.actor)}</td>
                <td>${e.action}</td><td>${target(names, e.target)}</td>
                <td>${details(e.details)}</td></tr>`,
            )}</tbody>
          </table>`
      }
      ${rows.length > PAGE_SIZE ? html`<p><a href="/console/audit?before=${shown.at(-1)!.seq}">Older entries</a></p>` : ''}`;
    return sendPage(reply, page(ctx, 'Audit log', body));
  }

  app.get('/console/audit', PAGE, (request, reply) => render(request, reply));

  app.post('/console/audit/verify', PAGE, async (request, reply) => {
    const result = await deps.audit.verify(sessionOf(request).accountId);
    const text = result.valid
      ? html`<p class="notice ok" role="status">${badge('valid')} The chain holds: ${result.entries} entries verified.</p>`
      : html`<p class="notice error" role="alert">${badge('invalid')} The chain breaks at entry ${result.first_bad_seq}:
          ${result.reason}.</p>`;
    return render(request, reply, text);
  });
}
