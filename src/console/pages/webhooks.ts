import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError, Errors } from '../../errors.ts';
import { type ConsoleDeps, field, OPERATOR_PAGE, sendPage, sessionOf } from '../context.ts';
import { type Html, html } from '../html.ts';
import { csrfField, notice, type PageContext, page, time } from '../layout.ts';
import { badge } from './shared.ts';

const DELIVERIES_SHOWN = 10;
const URL_MAX = 2000;
const DESCRIPTION_MAX = 500;

type Outcome = { message?: { kind: 'ok' | 'error'; text: string }; secret?: Html };

export function webhookPages(app: FastifyInstance, deps: ConsoleDeps): void {
  async function render(request: FastifyRequest, reply: FastifyReply, outcome: Outcome = {}, status = 200) {
    const session = sessionOf(request);
    const ctx: PageContext = { session, current: '/console/webhooks' };
    const endpoints = await deps.webhooks.list(session.accountId);
    const logs = await Promise.all(
      endpoints.map((e) => deps.webhooks.deliveries(session.accountId, e.id, { limit: DELIVERIES_SHOWN })),
    );
    const button = (endpointId: string, path: string, label: string, name: string, kind = '') =>
      html`<form method="post" action="/console/webhooks/${endpointId}/${path}" class="inline">
        ${csrfField(ctx)}<button type="submit" class="${kind}" aria-label="${label} for ${name}">${label}</button>
      </form>`;
    const body = html`${notice(outcome.message)}${outcome.secret ?? ''}
      <section class="card" aria-labelledby="create-title">
        <h2 id="create-title">Add an endpoint</h2>
        <form method="post" action="/console/webhooks">
          ${csrfField(ctx)}
          <label for="wh-url">URL</label>
          <input type="url" id="wh-url" name="url" required maxlength="${URL_MAX}" placeholder="https://example.com/arbiter-events">
          <label for="wh-description">Description (optional)</label>
          <input type="text" id="wh-description" name="description" maxlength="${DESCRIPTION_MAX}">
          <fieldset class="event-types">
            <legend>Events (none ticked: all of them)</legend>
            ${deps.webhooks.eventTypes().map(
              (t) => html`<label class="check"><input type="checkbox" name="event_types" value="${t.type}">
                <code>${t.type}</code> <span class="muted">${t.description}</span></label>`,
            )}
          </fieldset>
          <div class="actions"><button type="submit" class="primary">Add endpoint</button></div>
        </form>
      </section>
      ${endpoints.length === 0 ? html`<p class="muted">No webhook endpoint yet.</p>` : ''}
      ${endpoints.map((e, i) => {
        const { deliveries } = logs[i]!;
        return html`<section class="card" aria-labelledby="wh-${e.id}">
          <h2 id="wh-${e.id}"><code>${e.url}</code> ${badge(e.status)}</h2>
          <dl class="grid">
            <dt>Id</dt><dd><code>${e.id}</code></dd>
            <dt>Description</dt><dd>${e.description || html`<span class="muted">—</span>`}</dd>
            <dt>Events</dt><dd>${e.event_types.length === 0 ? 'all' : e.event_types.join(', ')}</dd>
            ${e.disabled_reason ? html`<dt>Disabled because</dt><dd>${e.disabled_reason}</dd>` : ''}
            <dt>Created</dt><dd>${time(e.created_at)}</dd>
          </dl>
          <div class="actions">
            ${e.status === 'disabled' ? button(e.id, 'enable', 'Re-enable', e.url, 'primary') : ''}
            ${e.status === 'enabled' ? button(e.id, 'test', 'Send test event', e.url) : ''}
            ${button(e.id, 'rotate-secret', 'Rotate secret', e.url)}
            ${button(e.id, 'delete', 'Delete', e.url, 'danger')}
          </div>
          <h3>Recent deliveries</h3>
          ${
            deliveries.length === 0
              ? html`<p class="muted">No deliveries yet.</p>`
              : html`<table>
                <thead><tr><th scope="col">Event</th><th scope="col">Status</th><th scope="col" class="num">Attempts</th>
                  <th scope="col">Last result</th><th scope="col">Created</th><th scope="col"><span class="muted">Actions</span></th></tr></thead>
                <tbody>${deliveries.map(
                  (d) => html`<tr>
                    <td><code>${d.event_type}</code></td>
                    <td>${badge(d.status)}</td>
                    <td class="num">${d.attempts}</td>
                    <td>${d.last_status_code === null ? '' : `HTTP ${d.last_status_code}`} ${d.last_error ?? ''}</td>
                    <td>${time(d.created_at)}</td>
                    <td>${
                      e.status === 'enabled'
                        ? html`<form method="post" action="/console/webhooks/${e.id}/deliveries/${d.id}/redeliver" class="inline">
                            ${csrfField(ctx)}<button type="submit" aria-label="Redeliver ${d.event_type} ${d.id}">Redeliver</button>
                          </form>`
                        : ''
                    }</td>
                  </tr>`,
                )}</tbody>
              </table>`
          }
        </section>`;
      })}`;
    return sendPage(reply, page(ctx, 'Webhooks', body), status);
  }

  /** Runs a change and shows the page with its outcome; a refused change is shown, not thrown. */
  async function act(request: FastifyRequest, reply: FastifyReply, change: () => Promise<Outcome>) {
    try {
      return render(request, reply, await change());
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      return render(request, reply, { message: { kind: 'error', text: err.message } }, err.status);
    }
  }

  app.get('/console/webhooks', OPERATOR_PAGE, (request, reply) => render(request, reply));

  app.post('/console/webhooks', OPERATOR_PAGE, (request, reply) =>
    act(request, reply, async () => {
      const body = request.body as Record<string, string | string[]> | undefined;
      const types = body?.event_types ?? [];
      const url = field(request, 'url')?.trim() ?? '';
      const description = field(request, 'description')?.trim() ?? '';
      if (url === '' || url.length > URL_MAX) {
        throw Errors.validation(`An endpoint needs a URL of 1 to ${URL_MAX} characters`);
      }
      if (description.length > DESCRIPTION_MAX) {
        throw Errors.validation(`A description is at most ${DESCRIPTION_MAX} characters`);
      }
      const created = await deps.webhooks.create(sessionOf(request), {
        url,
        description,
        event_types: Array.isArray(types) ? types : [types],
      });
      return {
        secret: html`<div class="card" role="status"><h2>Endpoint <code>${created.url}</code> added</h2>
          <p>Its signing secret, shown only this once: deliveries carry a Standard Webhooks signature made with it.</p>
          <code class="secret" id="new-secret">${created.secret}</code></div>`,
      };
    }),
  );

  app.post('/console/webhooks/:id/delete', OPERATOR_PAGE, (request, reply) =>
    act(request, reply, async () => {
      const session = sessionOf(request);
      const { id } = request.params as { id: string };
      const endpoint = await deps.webhooks.get(session.accountId, id);
      await deps.webhooks.remove(session, id);
      return {
        message: { kind: 'ok', text: `The endpoint ${endpoint.url} is deleted; nothing more is sent to it.` },
      };
    }),
  );

  app.post('/console/webhooks/:id/enable', OPERATOR_PAGE, (request, reply) =>
    act(request, reply, async () => {
      const { id } = request.params as { id: string };
      const endpoint = await deps.webhooks.enable(sessionOf(request), id);
      return { message: { kind: 'ok', text: `${endpoint.url} is enabled again.` } };
    }),
  );

  app.post('/console/webhooks/:id/rotate-secret', OPERATOR_PAGE, (request, reply) =>
    act(request, reply, async () => {
      const { id } = request.params as { id: string };
      const rotated = await deps.webhooks.rotateSecret(sessionOf(request), id);
      return {
        secret: html`<div class="card" role="status"><h2>New signing secret for <code>${rotated.url}</code></h2>
          <p>Copy it now: it is shown only this once. The old secret no longer signs deliveries.</p>
          <code class="secret" id="new-secret">${rotated.secret}</code></div>`,
      };
    }),
  );

  app.post('/console/webhooks/:id/test', OPERATOR_PAGE, (request, reply) =>
    act(request, reply, async () => {
      const { id } = request.params as { id: string };
      const sent = await deps.webhooks.sendTest(sessionOf(request), id);
      return { message: { kind: 'ok', text: `Test event queued as delivery ${sent.delivery_id}.` } };
    }),
  );

  app.post('/console/webhooks/:id/deliveries/:delivery/redeliver', OPERATOR_PAGE, (request, reply) =>
    act(request, reply, async () => {
      const { id, delivery } = request.params as { id: string; delivery: string };
      const sent = await deps.webhooks.redeliver(sessionOf(request), id, delivery);
      return { message: { kind: 'ok', text: `Queued again as delivery ${sent.delivery_id}.` } };
    }),
  );
}
