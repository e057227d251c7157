import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { type EvaluationView, toView } from '../../domains/judgment/index.ts';
import { AppError } from '../../errors.ts';
import { sha256 } from '../../lib/sha256.ts';
import { type ConsoleDeps, field, PAGE, param, sendPage, sessionOf } from '../context.ts';
import { type Html, html } from '../html.ts';
import { csrfField, notice, type PageContext, page, time } from '../layout.ts';
import { badge, gateOutcomes, keyLabel, payloadSummary } from './shared.ts';

const PENDING_LIMIT = 100;
const HISTORY_LIMIT = 50;
/** How often the pending list asks whether it changed. */
const POLL = 'every 1s';

/** Changes whenever the set of pending escalations does: the poll's "anything new?" question. */
function digestOf(pending: readonly EvaluationView[]): string {
  return sha256(pending.map((e) => `${e.evaluation_id}\n`).join(''), 'base64url').slice(0, 16);
}

function pendingItem(ctx: PageContext, e: EvaluationView): Html {
  const id = e.evaluation_id;
  const commentId = `comment-${id}`;
  return html`<li class="card escalation" aria-labelledby="title-${id}">
    <h3 id="title-${id}"><span class="actor">${e.actor}</span> wants <code>${e.action_type}</code></h3>
    <dl class="grid">
      <dt>Actor</dt><dd>${e.actor}</dd>
      <dt>Role</dt><dd>${e.actor_role}</dd>
      <dt>Action</dt><dd><code>${e.action_type}</code> (${e.action_kind})</dd>
      <dt>Scope</dt><dd>${e.impact_scope}</dd>
      <dt>Payload</dt><dd><pre>${payloadSummary(e.payload)}</pre></dd>
      <dt>Reason</dt><dd>${e.reason}</dd>
      <dt>Gates</dt><dd>${gateOutcomes(e.gates)}</dd>
      <dt>Asked</dt><dd>${time(e.created_at)}</dd>
      <dt>Expires</dt><dd>${time(e.expires_at)}</dd>
    </dl>
    <form method="post" action="/console/escalations/${id}/approve">
      ${csrfField(ctx)}
      <label for="${commentId}">Comment (optional)</label>
      <textarea id="${commentId}" name="comment" maxlength="2000"></textarea>
      <div class="actions">
        <button type="submit" class="primary" formaction="/console/escalations/${id}/approve">Approve</button>
        <button type="submit" class="danger" formaction="/console/escalations/${id}/deny">Deny</button>
        <a href="/console/evaluations/${id}">Details</a>
      </div>
    </form>
  </li>`;
}

/** The live part of the page: it polls, and the server answers 204 while nothing changed. */
function pendingSection(ctx: PageContext, pending: readonly EvaluationView[]): Html {
  const digest = digestOf(pending);
  return html`<section id="pending" aria-labelledby="pending-title" aria-live="polite"
      hx-get="/console/escalations/pending?since=${digest}" hx-trigger="${POLL}" hx-swap="outerHTML">
    <h2 id="pending-title">Pending (${pending.length})</h2>
    ${
      pending.length === 0
        ? html`<p class="muted">Nothing is waiting for a decision. New escalations appear here as they arrive.</p>`
        : html`<ul class="plain">${pending.map((e) => pendingItem(ctx, e))}</ul>`
    }
  </section>`;
}

export function escalationPages(app: FastifyInstance, deps: ConsoleDeps): void {
  async function pendingOf(accountId: string): Promise<EvaluationView[]> {
    const { evaluations } = await deps.judgment.list(accountId, { status: 'pending', limit: PENDING_LIMIT });
    return evaluations;
  }

  async function render(
    request: FastifyRequest,
    reply: FastifyReply,
    message?: { kind: 'ok' | 'error'; text: string },
    status = 200,
  ) {
    const session = sessionOf(request);
    const ctx: PageContext = { session, current: '/console/escalations' };
    const [pending, settled, names] = await Promise.all([
      pendingOf(session.accountId),
      deps.repo.settledEscalations(session.accountId, HISTORY_LIMIT),
      deps.repo.keyNames(session.accountId),
    ]);
    const body = html`${notice(message)}
      ${pendingSection(ctx, pending)}
      <section aria-labelledby="history-title">
        <h2 id="history-title">History</h2>
        ${
          settled.length === 0
            ? html`<p class="muted">No escalation has been approved, denied or expired yet.</p>`
            : html`<table>
              <caption class="muted">Approved, denied and expired escalations, newest first</caption>
              <thead><tr><th scope="col">Status</th><th scope="col">Actor</th><th scope="col">Action</th>
                <th scope="col">Asked</th><th scope="col">Decided</th><th scope="col">By</th><th scope="col">Comment</th></tr></thead>
              <tbody>${settled.map(toView).map(
                (e) => html`<tr>
                  <td>${badge(e.status)}</td>
                  <td>${e.actor}</td>
                  <td><a href="/console/evaluations/${e.evaluation_id}"><code>${e.action_type}</code></a></td>
                  <td>${time(e.created_at)}</td>
                  <td>${time(e.decided_at)}</td>
                  <td>${keyLabel(names, e.decided_by)}</td>
                  <td>${e.comment ?? ''}</td>
                </tr>`,
              )}</tbody>
            </table>`
        }
      </section>`;
    return sendPage(reply, page(ctx, 'Escalations', body), status);
  }

  app.get('/console/escalations', PAGE, (request, reply) => render(request, reply));

  app.get('/console/escalations/pending', PAGE, async (request, reply) => {
    const session = sessionOf(request);
    const pending = await pendingOf(session.accountId);
    if (param(request, 'since') === digestOf(pending)) return reply.status(204).send();
    return sendPage(reply, pendingSection({ session }, pending).text);
  });

  for (const [path, verdict] of [
    ['approve', 'approved'],
    ['deny', 'denied'],
  ] as const) {
    app.post(`/console/escalations/:id/${path}`, PAGE, async (request, reply) => {
      const session = sessionOf(request);
      const { id } = request.params as { id: string };
      const comment = field(request, 'comment')?.trim();
      if (comment !== undefined && comment.length > 2000) {
        return render(request, reply, { kind: 'error', text: 'A comment is at most 2000 characters.' }, 400);
      }
      try {
        await deps.judgment.decide(session, id, verdict, comment === '' ? undefined : comment);
      } catch (err) {
        if (!(err instanceof AppError)) throw err;
        return render(request, reply, { kind: 'error', text: err.message }, err.status);
      }
      return render(request, reply, { kind: 'ok', text: `Escalation ${id} ${verdict}.` });
    });
  }
}
