import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { type ConsoleDeps, PAGE, param, sendPage, sessionOf } from '../context.ts';
import { type Html, html } from '../html.ts';
import { csrfField, type PageContext, page, time } from '../layout.ts';
import { badge } from './shared.ts';

const PAGE_SIZE = 100;
const DETAILS_CHARS = 200;

export function auditPages(app: FastifyInstance, deps: ConsoleDeps): void {
  async function render(request: FastifyRequest, reply: FastifyReply, verification?: Html) {
    const session = sessionOf(request);
    const ctx: PageContext = { session, current: '/console/audit' };
    const beforeParam = Number(param(request, 'before'));
    const before = Number.isSafeInteger(beforeParam) && beforeParam > 0 ? beforeParam : undefined;
    const rows = await deps.repo.auditPage(session.accountId, before, PAGE_SIZE + 1);
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
          : html`<table>
            <caption class="muted">Newest first</caption>
            <thead><tr><th scope="col" class="num">#</th><th scope="col">When</th><th scope="col">Actor</th>
              <th scope="col">Action</th><th scope="col">Target</th><th scope="col">Details</th></tr></thead>
            <tbody>${shown.map(
              (
                e,
              ) => html`<tr><td class="num">${e.seq}</td><td>${time(e.at)}</td><td><code>${e.actor}</code></td>
                <td>${e.action}</td><td><code>${e.target ?? ''}</code></td>
                <td><code>${e.details.length > DETAILS_CHARS ? `${e.details.slice(0, DETAILS_CHARS)}…` : e.details}</code></td></tr>`,
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
