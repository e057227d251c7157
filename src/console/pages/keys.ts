import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { DEFAULT_KEY_ROLE, isKeyRole } from '../../domains/api-keys/index.ts';
import { AppError } from '../../errors.ts';
import { ADMIN_PAGE, type ConsoleDeps, field, sendPage, sessionOf } from '../context.ts';
import { type Html, html } from '../html.ts';
import { csrfField, notice, type PageContext, page, time } from '../layout.ts';
import { badge } from './shared.ts';

const NAME_MAX = 100;

export function keyPages(app: FastifyInstance, deps: ConsoleDeps): void {
  async function render(
    request: FastifyRequest,
    reply: FastifyReply,
    extra?: { message?: { kind: 'ok' | 'error'; text: string }; created?: Html },
    status = 200,
  ) {
    const session = sessionOf(request);
    const ctx: PageContext = { session, current: '/console/keys' };
    const keys = await deps.apiKeys.list(session.accountId);
    const body = html`${notice(extra?.message)}${extra?.created ?? ''}
      <section class="card" aria-labelledby="create-title">
        <h2 id="create-title">Create a key</h2>
        <form method="post" action="/console/keys">
          ${csrfField(ctx)}
          <label for="key-name">Key name</label>
          <input type="text" id="key-name" name="name" required maxlength="${NAME_MAX}">
          <label for="key-role">Role</label>
          <select id="key-role" name="role">
            <option value="agent" selected>agent: evaluate, judge and memory (give this to agents)</option>
            <option value="operator">operator: also decide escalations, settings, policies, webhooks, audit</option>
            <option value="admin">admin: also keys, billing and data export or deletion</option>
          </select>
          <div class="actions"><button type="submit" class="primary">Create key</button></div>
        </form>
      </section>
      <table>
        <caption class="muted">Keys are shown masked; a key's secret is shown once, when it is created</caption>
        <thead><tr><th scope="col">Name</th><th scope="col">Key</th><th scope="col">Role</th><th scope="col">Status</th><th scope="col">Created</th>
          <th scope="col" class="num">Calls this month</th><th scope="col"><span class="muted">Actions</span></th></tr></thead>
        <tbody>${keys.map(
          (k) => html`<tr>
            <td>${k.name}${k.id === session.keyId ? html` <span class="muted">(this session)</span>` : ''}</td>
            <td><code>${k.key}</code></td>
            <td>${k.role}</td>
            <td>${badge(k.status)}</td>
            <td>${time(k.created_at)}</td>
            <td class="num">${k.calls_this_month}</td>
            <td>${
              k.status === 'active'
                ? html`<form method="post" action="/console/keys/${k.id}/revoke" class="inline">
                    ${csrfField(ctx)}
                    <button type="submit" class="danger" aria-label="Revoke key ${k.name} (${k.key})">Revoke</button>
                  </form>`
                : ''
            }</td>
          </tr>`,
        )}</tbody>
      </table>`;
    return sendPage(reply, page(ctx, 'Keys', body), status);
  }

  app.get('/console/keys', ADMIN_PAGE, (request, reply) => render(request, reply));

  app.post('/console/keys', ADMIN_PAGE, async (request, reply) => {
    const session = sessionOf(request);
    const name = field(request, 'name')?.trim() ?? '';
    if (name === '' || name.length > NAME_MAX) {
      return render(
        request,
        reply,
        { message: { kind: 'error', text: `A key needs a name of 1 to ${NAME_MAX} characters.` } },
        400,
      );
    }
    try {
      const role = field(request, 'role') ?? DEFAULT_KEY_ROLE;
      if (!isKeyRole(role)) {
        return render(request, reply, { message: { kind: 'error', text: `Unknown role '${role}'.` } }, 400);
      }
      const created = await deps.apiKeys.create(session.accountId, name, {
        actor: session.keyId,
        actorRole: session.role,
        role,
      });
      return render(request, reply, {
        created: html`<div class="card" role="status">
          <h2>Key “${created.name}” (${created.role}) created</h2>
          <p>Copy it now: it is shown only this once.</p>
          <code class="secret" id="new-key">${created.key}</code>
        </div>`,
      });
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      return render(request, reply, { message: { kind: 'error', text: err.message } }, err.status);
    }
  });

  app.post('/console/keys/:id/revoke', ADMIN_PAGE, async (request, reply) => {
    const session = sessionOf(request);
    const { id } = request.params as { id: string };
    await deps.apiKeys.revoke(session.accountId, id, session.keyId);
    await deps.sessions.closeForKey(session.accountId, id);
    // The key of this very session: the session ended with it.
    if (id === session.keyId) return reply.redirect('/console', 303);
    return render(request, reply, {
      message: { kind: 'ok', text: 'The key is revoked, and its console sessions ended.' },
    });
  });
}
