import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { type ConsoleDeps, PAGE, param, sendPage, sessionOf } from '../context.ts';
import { type Html, html } from '../html.ts';
import { csrfField, type PageContext, page, time } from '../layout.ts';
import { type ClaimRef, SCAN_WINDOW } from '../repo.ts';
import { badge, oneOf } from './shared.ts';

const PAGE_SIZE = 50;
/** What an agent gets by default from POST /v2/vault/search. */
const SEARCH_TOP_K = 5;
const QUERY_MAX = 2000;
const STATUSES = ['active', 'superseded', 'deleted'] as const;

/** The mark of a claim that contradicts other stored claims, naming them. */
function contradictionMark(others: readonly ClaimRef[] | undefined): Html | string {
  if (others === undefined || others.length === 0) return '';
  return html`<span class="contradiction" role="note"><span aria-hidden="true">⚠</span> Contradicts ${others.map(
    (c, i) =>
      html`${i > 0 ? ', ' : ''}<a href="/console/memory/claims/${c.id}" title="${c.id}">“${c.claim}”</a> (<code>${c.short_id}</code>)`,
  )}</span>`;
}

export function memoryPages(app: FastifyInstance, deps: ConsoleDeps): void {
  async function render(request: FastifyRequest, reply: FastifyReply, verification?: Html) {
    const session = sessionOf(request);
    const ctx: PageContext = { session, current: '/console/memory' };
    const status = oneOf(param(request, 'status'), STATUSES) ?? 'active';
    const beforeParam = Number(param(request, 'before'));
    const before = Number.isSafeInteger(beforeParam) && beforeParam > 0 ? beforeParam : undefined;
    const query = param(request, 'q')?.slice(0, QUERY_MAX);
    const state = await deps.ledger.state(session.accountId);
    const [claims, supersessions, kept, hits] = await Promise.all([
      deps.repo.claims(session.accountId, status, before, PAGE_SIZE + 1),
      deps.repo.supersessions(session.accountId, state.entries, 20),
      deps.repo.keptConflicts(session.accountId, 20),
      query === undefined ? undefined : deps.ledger.search(session.accountId, query, SEARCH_TOP_K),
    ]);
    const shown = claims.slice(0, PAGE_SIZE);
    // Only claims in force are marked: a superseded one's conflict is listed under supersession.
    const marks = await deps.repo.contradictions(
      session.accountId,
      shown.filter((c) => c.status === 'active').map((c) => c.id),
    );
    const body = html`<section aria-labelledby="chain-title" class="card">
        <h2 id="chain-title">Chain</h2>
        <dl class="grid">
          <dt>Entries</dt><dd>${state.entries}</dd>
          <dt>State hash</dt><dd><code>${state.state_hash}</code></dd>
        </dl>
        <form method="post" action="/console/memory/verify">${csrfField(ctx)}<button type="submit">Verify</button></form>
        ${verification ?? ''}
      </section>
      <section aria-labelledby="search-title">
        <h2 id="search-title">Search as an agent would</h2>
        <form method="get" action="/console/memory" role="search" aria-label="Search claims" class="filters">
          <div><label for="q">Query</label>
            <input type="search" id="q" name="q" value="${query ?? ''}" maxlength="${QUERY_MAX}"></div>
          <div><button type="submit">Search</button></div>
        </form>
        ${
          hits === undefined
            ? ''
            : hits.length === 0
              ? html`<p class="card" id="search-result"><strong>unknown</strong>: nothing relevant is known, so an agent
                  answers “unknown”. (POST /v2/vault/search returned <code>{"results":[]}</code>.)</p>`
              : html`<table id="search-result">
                  <caption class="muted">What POST /v2/vault/search returns for this query (top ${SEARCH_TOP_K}), best first</caption>
                  <thead><tr><th scope="col">Claim</th><th scope="col">Source</th><th scope="col" class="num">Confidence</th>
                    <th scope="col" class="num">Relevance</th><th scope="col" class="num">Score</th></tr></thead>
                  <tbody>${hits.map(
                    (
                      h,
                    ) => html`<tr><td><a href="/console/memory/claims/${h.id}">${h.claim}</a></td><td>${h.source}</td>
                      <td class="num">${h.confidence}</td><td class="num">${h.relevance}</td><td class="num">${h.score}</td></tr>`,
                  )}</tbody>
                </table>`
        }
      </section>
      <section aria-labelledby="claims-title">
        <h2 id="claims-title">Claims</h2>
        <nav aria-label="Claim status" class="tabs">
          ${STATUSES.map(
            (s) =>
              html`<a href="/console/memory?status=${s}"${s === status ? html` aria-current="page"` : ''}>${s}</a>`,
          )}
        </nav>
        ${
          shown.length === 0
            ? html`<p class="muted">No ${status} claims.</p>`
            : html`<table>
              <thead><tr><th scope="col">Claim</th><th scope="col">Source</th><th scope="col" class="num">Confidence</th>
                <th scope="col" class="num">Version</th><th scope="col">Status</th><th scope="col">Changed</th></tr></thead>
              <tbody>${shown.map(
                (
                  c,
                ) => html`<tr><td><a href="/console/memory/claims/${c.id}">${c.claim}</a>${contradictionMark(marks.get(c.id))}</td><td>${c.source}</td>
                  <td class="num">${c.confidence}</td><td class="num">${c.version}</td><td>${badge(c.status)}</td>
                  <td>${time(c.updated_at)}</td></tr>`,
              )}</tbody>
            </table>`
        }
        ${
          claims.length > PAGE_SIZE
            ? html`<p><a href="/console/memory?status=${status}&before=${shown.at(-1)!.rowkey}">Older claims</a></p>`
            : ''
        }
      </section>
      <section aria-labelledby="conflicts-title">
        <h2 id="conflicts-title">Conflicts</h2>
        <p class="muted">Among the latest ${SCAN_WINDOW.toLocaleString('en-US')} ledger and audit entries.</p>
        <h3>Resolved by supersession</h3>
        ${
          supersessions.length === 0
            ? html`<p class="muted">No claim has replaced a conflicting one.</p>`
            : html`<table>
              <thead><tr><th scope="col">When</th><th scope="col">Superseded claim</th><th scope="col">Replaced by</th></tr></thead>
              <tbody>${supersessions.map(
                (s) => html`<tr><td>${time(s.at)}</td>
                  <td><a href="/console/memory/claims/${s.claimId}">${s.old?.claim ?? s.claimId}</a></td>
                  <td><a href="/console/memory/claims/${s.by}">${s.replacement?.claim ?? s.by}</a></td></tr>`,
              )}</tbody>
            </table>`
        }
        <h3>Claims stored despite a conflict</h3>
        ${
          kept.length === 0
            ? html`<p class="muted">No claim was kept while contradicting stored ones.</p>`
            : html`<table>
              <thead><tr><th scope="col">When</th><th scope="col">Claim</th><th scope="col">Contradicted</th>
                <th scope="col">Status now</th></tr></thead>
              <tbody>${kept.map(
                (k) => html`<tr><td>${time(k.at)}</td>
                  <td>${k.claim ? html`<a href="/console/memory/claims/${k.claimId}">${k.claim.claim}</a>` : k.claimId}</td>
                  <td>${k.conflicts} stored claim${k.conflicts === 1 ? '' : 's'}${
                    k.contradicted.length === 0
                      ? ''
                      : html`: ${k.contradicted.map(
                          (c, i) =>
                            html`${i > 0 ? ', ' : ''}<a href="/console/memory/claims/${c.id}">${c.claim}</a>`,
                        )}`
                  }</td>
                  <td>${k.claim ? badge(k.claim.status) : ''}</td></tr>`,
              )}</tbody>
            </table>`
        }
      </section>`;
    return sendPage(reply, page(ctx, 'Memory', body));
  }

  app.get('/console/memory', PAGE, (request, reply) => render(request, reply));

  app.post('/console/memory/verify', PAGE, async (request, reply) => {
    const result = await deps.ledger.verify(sessionOf(request).accountId);
    const text = result.valid
      ? html`<p class="notice ok" role="status">${badge('valid')} The chain holds: ${result.entries} entries verified.</p>`
      : html`<p class="notice error" role="alert">${badge('invalid')} The chain breaks at entry ${result.first_bad_seq}:
          ${result.reason}.</p>`;
    return render(request, reply, text);
  });

  app.get('/console/memory/claims/:id', PAGE, async (request, reply) => {
    const session = sessionOf(request);
    const { id } = request.params as { id: string };
    const { claim, versions } = await deps.ledger.get(session.accountId, id);
    const marks =
      claim.status === 'active'
        ? await deps.repo.contradictions(session.accountId, [claim.id])
        : new Map<string, ClaimRef[]>();
    const ctx: PageContext = { session, current: '/console/memory' };
    const body = html`<div class="card"><dl class="grid">
        <dt>Claim</dt><dd>${claim.claim}${contradictionMark(marks.get(claim.id))}</dd>
        <dt>Id</dt><dd><code>${claim.id}</code> (<code>${claim.short_id}</code>)</dd>
        <dt>Status</dt><dd>${badge(claim.status)}</dd>
        <dt>Source</dt><dd>${claim.source}</dd>
        <dt>Confidence</dt><dd>${Number(claim.confidence)}</dd>
        <dt>Created</dt><dd>${time(claim.created_at)}</dd>
        <dt>Changed</dt><dd>${time(claim.updated_at)}</dd>
      </dl></div>
      <h2>Versions</h2>
      <table>
        <thead><tr><th scope="col" class="num">Version</th><th scope="col">Text</th><th scope="col">Source</th>
          <th scope="col" class="num">Confidence</th><th scope="col" class="num">Ledger entry</th><th scope="col">When</th></tr></thead>
        <tbody>${versions.map(
          (v) => html`<tr><td class="num">${Number(v.version)}</td><td>${v.claim}</td><td>${v.source}</td>
            <td class="num">${Number(v.confidence)}</td><td class="num">${Number(v.ledger_seq)}</td><td>${time(v.created_at)}</td></tr>`,
        )}</tbody>
      </table>
      <p><a href="/console/memory">Back to memory</a></p>`;
    return sendPage(reply, page(ctx, 'Claim', body));
  });
}
