import type { FastifyInstance } from 'fastify';
import { decodeCursor, encodeCursor } from '../../domains/judgment/index.ts';
import type { VerdictCode } from '../../domains/verdict/index.ts';
import { type ConsoleDeps, PAGE, param, sendPage, sessionOf } from '../context.ts';
import { html } from '../html.ts';
import { type PageContext, page, time } from '../layout.ts';
import { SCAN_WINDOW, VERDICT_WINDOW } from '../repo.ts';
import { badge, gateOutcomes, keyLabel, oneOf, options, payloadSummary } from './shared.ts';

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
    const [e, names] = await Promise.all([
      deps.judgment.get(session.accountId, id),
      deps.repo.keyNames(session.accountId),
    ]);
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
          <dt>Decided</dt><dd>${time(e.decided_at)} ${e.decided_by ? html`by ${keyLabel(names, e.decided_by)}` : ''}</dd>
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
    const before = positiveInteger(param(request, 'before'));
    const after = before === undefined ? positiveInteger(param(request, 'after')) : undefined;
    const [scanned, names] = await Promise.all([
      deps.repo.verdicts(session.accountId, { limit: VERDICT_WINDOW, before, after }),
      deps.repo.keyNames(session.accountId),
    ]);
    const matching = scanned.filter(
      (v) =>
        (code === undefined || (code === 'OK' ? v.code === '' || v.code === 'OK' : v.code === code)) &&
        (decision === undefined || v.decision === decision) &&
        (action === undefined || v.action === action),
    );
    const { shown, newer, older } = verdictPage(scanned, matching, { before, after });
    const link = (cursor: Record<string, number>) =>
      `/console/verdicts?${new URLSearchParams({
        ...Object.fromEntries(
          Object.entries({ code, decision, action }).filter((e): e is [string, string] => e[1] !== undefined),
        ),
        ...Object.fromEntries(Object.entries(cursor).map(([k, v]) => [k, String(v)])),
      })}`;
    const pager = (where: string) => html`<nav class="pager" aria-label="Verdict pages, ${where}">
        ${newer === undefined ? html`<span class="muted">Newer</span>` : html`<a href="${link({ after: newer })}" rel="prev">Newer</a>`}
        ${
          shown.length === 0
            ? ''
            : html`<span class="muted">#${shown[0]!.seq} to #${shown.at(-1)!.seq}</span>`
        }
        ${older === undefined ? html`<span class="muted">Older</span>` : html`<a href="${link({ before: older })}" rel="next">Older</a>`}
      </nav>`;
    const body = html`<form method="get" action="/console/verdicts" class="filters" role="search" aria-label="Filter verdicts">
        <div><label for="v-code">Code</label>
          <select id="v-code" name="code">${options([...VERDICT_CODES, 'OK'], code, 'Any code')}</select></div>
        <div><label for="v-decision">Decision</label>
          <select id="v-decision" name="decision">${options(['allowed', 'rejected'], decision, 'Any decision')}</select></div>
        <div><label for="v-action">Action</label>
          <input type="text" id="v-action" name="action" value="${action ?? ''}" placeholder="e.g. shell.exec"></div>
        <div><button type="submit">Filter</button></div>
      </form>
      <p class="muted">Verdicts of POST /v1/evaluate as the audit log records them (never their payloads),
        newest first, ${VERDICT_PAGE} to a page; each page's filters look at the next
        ${VERDICT_WINDOW.toLocaleString('en-US')} verdicts.</p>
      ${shown.length === 0 ? '' : pager('above')}
      ${
        shown.length === 0
          ? html`<p class="muted">No verdict matches${scanned.length === VERDICT_WINDOW ? ' among these' : ''}.</p>`
          : html`<table id="verdicts">
            <thead><tr><th scope="col" class="num">#</th><th scope="col">When</th><th scope="col">Decision</th><th scope="col">Code</th>
              <th scope="col">Action</th><th scope="col">Key</th></tr></thead>
            <tbody>${shown.map(
              (
                v,
              ) => html`<tr><td class="num">${v.seq}</td><td>${time(v.at)}</td><td>${badge(v.decision)}</td><td>${v.code || 'OK'}</td>
                <td><code>${v.action}</code></td><td>${keyLabel(names, v.actor)}</td></tr>`,
            )}</tbody>
          </table>`
      }
      ${pager('below')}`;
    return sendPage(reply, page(ctx, 'Verdicts', body));
  });
}

const VERDICT_PAGE = 50;

function positiveInteger(text: string | undefined): number | undefined {
  const n = Number(text);
  return Number.isSafeInteger(n) && n > 0 ? n : undefined;
}

/**
 * One page of verdicts, newest first, and the cursors of the pages beside it. Rows were read
 * newest first below `before` (or from the top), or oldest first above `after`; a window read to
 * its end with fewer matches than a page continues on the next page from where it stopped.
 */
function verdictPage<T extends { seq: number }>(
  scanned: readonly T[],
  matching: readonly T[],
  cursor: { before?: number | undefined; after?: number | undefined },
): { shown: T[]; newer?: number; older?: number } {
  const more = matching.length > VERDICT_PAGE || scanned.length === VERDICT_WINDOW;
  if (cursor.after === undefined) {
    const shown = matching.slice(0, VERDICT_PAGE);
    const last = matching.length > VERDICT_PAGE ? shown.at(-1)!.seq : scanned.at(-1)?.seq;
    return {
      shown,
      ...(cursor.before === undefined ? {} : { newer: shown[0]?.seq ?? cursor.before - 1 }),
      ...(more && last !== undefined ? { older: last } : {}),
    };
  }
  const shown = matching.slice(0, VERDICT_PAGE).reverse();
  const first = matching.length > VERDICT_PAGE ? shown[0]!.seq : scanned.at(-1)?.seq;
  return {
    shown,
    ...(more && first !== undefined ? { newer: first } : {}),
    older: shown.at(-1)?.seq ?? cursor.after + 1,
  };
}
