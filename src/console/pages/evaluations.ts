import type { FastifyInstance } from 'fastify';
import { decodeCursor, encodeCursor } from '../../domains/judgment/index.ts';
import type { VerdictCode } from '../../domains/verdict/index.ts';
import { type ConsoleDeps, PAGE, param, sendPage, sessionOf } from '../context.ts';
import { html } from '../html.ts';
import { type PageContext, page, time } from '../layout.ts';
import { SCAN_WINDOW, VERDICT_WINDOW } from '../repo.ts';
import { badge, gateOutcomes, oneOf, options, payloadSummary } from './shared.ts';

const PAGE_SIZE = 50;
const DECISIONS = ['ALLOWED', 'BLOCKED', 'ESCALATE'] as const;
const STATUSES = ['allowed', 'blocked', 'pending', 'approved', 'denied', 'expired'] as const;
const CODE = /^[A-Z][A-Z_]{0,63}$/;
const ACTION = /^[A-Za-z0-9_.:-]{1,200}$/;
const VERDICT_CODES: readonly VerdictCode[] = [
  'SCHEMA_MISMATCH',
  'POLICY_VIOLATION',
  'DEST_MUTATION',
  'RATE_LIMIT_EXCEEDED',
  'EXFILTRATION_BLOCKED',
  'FILESYSTEM_DENIED',
  'CONFLICT_DETECTED',
  'STATE_DRIFT',
];

export function evaluationPages(app: FastifyInstance, deps: ConsoleDeps): void {
  app.get('/console/evaluations', PAGE, async (request, reply) => {
    const session = sessionOf(request);
    const ctx: PageContext = { session, current: '/console/evaluations' };
    const decision = oneOf(param(request, 'decision'), DECISIONS);
    const status = oneOf(param(request, 'status'), STATUSES);
    const rawCode = param(request, 'code');
    const code = rawCode !== undefined && CODE.test(rawCode) ? rawCode : undefined;
    const rawAction = param(request, 'action');
    const action = rawAction !== undefined && ACTION.test(rawAction) ? rawAction : undefined;
    const cursor = param(request, 'cursor');
    const before = cursor === undefined ? undefined : decodeCursor(cursor);
    const rows = await deps.repo.evaluations(session.accountId, {
      decision,
      status,
      code,
      action,
      before,
      limit: PAGE_SIZE + 1,
    });
    const shown = rows.slice(0, PAGE_SIZE);
    const next = rows.length > PAGE_SIZE ? encodeCursor(shown.at(-1)!) : undefined;
    const keep = new URLSearchParams(
      Object.entries({ decision, status, code, action }).filter(
        (e): e is [string, string] => e[1] !== undefined,
      ),
    );
    if (next !== undefined) keep.set('cursor', next);
    const body = html`<form method="get" action="/console/evaluations" class="filters" role="search" aria-label="Filter evaluations">
        <div><label for="f-decision">Decision</label>
          <select id="f-decision" name="decision">${options(DECISIONS, decision, 'Any decision')}</select></div>
        <div><label for="f-status">Status</label>
          <select id="f-status" name="status">${options(STATUSES, status, 'Any status')}</select></div>
        <div><label for="f-code">Code</label>
          <input type="text" id="f-code" name="code" value="${code ?? ''}" placeholder="e.g. POLICY_VIOLATION"></div>
        <div><label for="f-action">Action</label>
          <input type="text" id="f-action" name="action" value="${action ?? ''}" placeholder="e.g. db.query"></div>
        <div><button type="submit">Filter</button></div>
      </form>
      ${code === undefined ? '' : html`<p class="muted">A code filter looks at the latest ${SCAN_WINDOW.toLocaleString('en-US')} evaluations.</p>`}
      ${
        shown.length === 0
          ? html`<p class="muted">No evaluation matches.</p>`
          : html`<table>
            <caption class="muted">Judgment evaluations (POST /v2/actions/evaluate), newest first</caption>
            <thead><tr><th scope="col">When</th><th scope="col">Decision</th><th scope="col">Status</th>
              <th scope="col">Actor</th><th scope="col">Action</th><th scope="col">Scope</th><th scope="col">Reason</th></tr></thead>
            <tbody>${shown.map(
              (e) => html`<tr>
                <td><a href="/console/evaluations/${e.id}">${time(e.created_at)}</a></td>
                <td>${badge(e.decision)}</td>
                <td>${badge(e.status)}</td>
                <td>${e.actor}</td>
                <td><code>${e.action_type}</code></td>
                <td>${e.impact_scope}</td>
                <td>${e.reason}</td>
              </tr>`,
            )}</tbody>
          </table>`
      }
      ${next === undefined ? '' : html`<p><a href="/console/evaluations?${keep.toString()}">Older evaluations</a></p>`}`;
    return sendPage(reply, page(ctx, 'Evaluations', body));
  });

  app.get('/console/evaluations/:id', PAGE, async (request, reply) => {
    const session = sessionOf(request);
    const { id } = request.params as { id: string };
    const e = await deps.judgment.get(session.accountId, id);
    const ctx: PageContext = { session, current: '/console/evaluations' };
    const body = html`<div class="card">
        <dl class="grid">
          <dt>Evaluation</dt><dd><code>${e.evaluation_id}</code></dd>
          <dt>Decision</dt><dd>${badge(e.decision)}</dd>
          <dt>Status</dt><dd>${badge(e.status)}</dd>
          <dt>Reason</dt><dd>${e.reason}</dd>
          <dt>Actor</dt><dd>${e.actor} (${e.actor_role})</dd>
          <dt>Action</dt><dd><code>${e.action_type}</code> (${e.action_kind})</dd>
          <dt>Scope</dt><dd>${e.impact_scope}</dd>
          <dt>Policy version</dt><dd>${e.policy_version}</dd>
          <dt>Payload SHA-256</dt><dd><code>${e.payload_sha256}</code></dd>
          <dt>Payload</dt><dd><pre>${payloadSummary(e.payload)}</pre></dd>
          <dt>Asked</dt><dd>${time(e.created_at)}</dd>
          <dt>Expires</dt><dd>${time(e.expires_at)}</dd>
          <dt>Decided</dt><dd>${time(e.decided_at)} ${e.decided_by ? html`by <code>${e.decided_by}</code>` : ''}</dd>
          <dt>Comment</dt><dd>${e.comment ?? ''}</dd>
        </dl>
      </div>
      <h2>Gates</h2>
      <table>
        <thead><tr><th scope="col">Gate</th><th scope="col">Outcome</th><th scope="col">Code</th>
          <th scope="col">Reason</th><th scope="col">Policies</th></tr></thead>
        <tbody>${Object.entries(e.gates).map(
          ([
            name,
            g,
          ]) => html`<tr><th scope="row">${name}</th><td>${badge(g.outcome)}</td><td>${g.code ?? ''}</td>
            <td>${g.reason}</td><td>${(g.policies ?? []).join(', ')}</td></tr>`,
        )}</tbody>
      </table>
      <p>${gateOutcomes(e.gates)}</p>
      <p><a href="/console/evaluations">All evaluations</a></p>`;
    return sendPage(reply, page(ctx, `Evaluation of ${e.action_type}`, body));
  });

  app.get('/console/verdicts', PAGE, async (request, reply) => {
    const session = sessionOf(request);
    const ctx: PageContext = { session, current: '/console/verdicts' };
    const code = oneOf(param(request, 'code'), [...VERDICT_CODES, 'OK'] as const);
    const decision = oneOf(param(request, 'decision'), ['allowed', 'rejected'] as const);
    const rawAction = param(request, 'action');
    const action = rawAction !== undefined && ACTION.test(rawAction) ? rawAction : undefined;
    const window = await deps.repo.verdicts(session.accountId, VERDICT_WINDOW);
    const matching = window
      .filter(
        (v) =>
          (code === undefined || (code === 'OK' ? v.code === '' || v.code === 'OK' : v.code === code)) &&
          (decision === undefined || v.decision === decision) &&
          (action === undefined || v.action === action),
      )
      .slice(0, PAGE_SIZE);
    const body = html`<form method="get" action="/console/verdicts" class="filters" role="search" aria-label="Filter verdicts">
        <div><label for="v-code">Code</label>
          <select id="v-code" name="code">${options([...VERDICT_CODES, 'OK'], code, 'Any code')}</select></div>
        <div><label for="v-decision">Decision</label>
          <select id="v-decision" name="decision">${options(['allowed', 'rejected'], decision, 'Any decision')}</select></div>
        <div><label for="v-action">Action</label>
          <input type="text" id="v-action" name="action" value="${action ?? ''}" placeholder="e.g. shell.exec"></div>
        <div><button type="submit">Filter</button></div>
      </form>
      <p class="muted">Verdicts of POST /v1/evaluate as the audit log records them (never their payloads);
        filters look at the latest ${VERDICT_WINDOW.toLocaleString('en-US')}.</p>
      ${
        matching.length === 0
          ? html`<p class="muted">No verdict matches.</p>`
          : html`<table>
            <thead><tr><th scope="col">When</th><th scope="col">Decision</th><th scope="col">Code</th>
              <th scope="col">Action</th><th scope="col">Key</th></tr></thead>
            <tbody>${matching.map(
              (v) => html`<tr><td>${time(v.at)}</td><td>${badge(v.decision)}</td><td>${v.code || 'OK'}</td>
                <td><code>${v.action}</code></td><td><code>${v.actor}</code></td></tr>`,
            )}</tbody>
          </table>`
      }`;
    return sendPage(reply, page(ctx, 'Verdicts', body));
  });
}
