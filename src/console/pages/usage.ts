import type { FastifyInstance } from 'fastify';
import { dayOf } from '../../domains/usage/index.ts';
import { monthOf } from '../../lib/utc-month.ts';
import { type ConsoleDeps, PAGE, sendPage, sessionOf } from '../context.ts';
import { type Html, html } from '../html.ts';
import { type PageContext, page } from '../layout.ts';
import { VERDICT_WINDOW } from '../repo.ts';

const CHART = { width: 720, height: 220, left: 48, bottom: 28, top: 12 };

/** Calls per day as an SVG bar chart, drawn on the server; the table below it holds the same numbers. */
export function dailyChart(days: readonly { day: string; calls: number }[]): Html {
  const max = Math.max(1, ...days.map((d) => d.calls));
  const plotW = CHART.width - CHART.left - 8;
  const plotH = CHART.height - CHART.top - CHART.bottom;
  const slot = plotW / Math.max(1, days.length);
  const bars = days.map((d, i) => {
    const h = Math.round((d.calls / max) * plotH);
    const x = Math.round(CHART.left + i * slot + slot * 0.15);
    const y = CHART.top + plotH - h;
    return html`<rect class="bar" x="${x}" y="${y}" width="${Math.max(1, Math.round(slot * 0.7))}" height="${h}"><title>${d.day}: ${d.calls} calls</title></rect>
      ${i % 5 === 0 || i === days.length - 1 ? html`<text x="${x}" y="${CHART.height - 8}">${d.day.slice(8)}</text>` : ''}`;
  });
  return html`<svg class="chart" role="img" aria-labelledby="chart-title" viewBox="0 0 ${CHART.width} ${CHART.height}" width="${CHART.width}" height="${CHART.height}">
    <title id="chart-title">API calls per day this month, at most ${max} on one day</title>
    <line class="axis" x1="${CHART.left}" y1="${CHART.top + plotH}" x2="${CHART.width - 8}" y2="${CHART.top + plotH}"/>
    <line class="axis" x1="${CHART.left}" y1="${CHART.top}" x2="${CHART.left}" y2="${CHART.top + plotH}"/>
    <text x="4" y="${CHART.top + 10}">${max}</text>
    <text x="4" y="${CHART.top + plotH}">0</text>
    ${bars}
  </svg>`;
}

/** Counts by name as horizontal bars, drawn on the server, with the numbers written beside them. */
export function countsChart(
  titleId: string,
  title: string,
  counts: readonly (readonly [string, number])[],
): Html {
  const row = 22;
  const labelW = 190;
  const barW = CHART.width - labelW - 70;
  const height = counts.length * row + 8;
  const max = Math.max(1, ...counts.map(([, n]) => n));
  return html`<svg class="chart" role="img" aria-labelledby="${titleId}" viewBox="0 0 ${CHART.width} ${height}" width="${CHART.width}" height="${height}">
    <title id="${titleId}">${title}</title>
    ${counts.map(([name, n], i) => {
      const y = 4 + i * row;
      const w = Math.max(1, Math.round((n / max) * barW));
      return html`<text x="${labelW - 6}" y="${y + 14}" text-anchor="end">${name}</text>
        <rect class="bar" x="${labelW}" y="${y + 3}" width="${w}" height="${row - 8}"><title>${name}: ${n}</title></rect>
        <text x="${labelW + w + 6}" y="${y + 14}">${n}</text>`;
    })}
  </svg>`;
}

const byCount = (counts: ReadonlyMap<string, number>) =>
  [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));

export function usagePages(app: FastifyInstance, deps: ConsoleDeps): void {
  app.get('/console/usage', PAGE, async (request, reply) => {
    const session = sessionOf(request);
    const ctx: PageContext = { session, current: '/console/usage' };
    const now = new Date();
    const month = monthOf(now);
    const first = `${month}-01`;
    const today = dayOf(now);
    const [stored, monthly, verdicts] = await Promise.all([
      deps.usage.dailyForAccount(session.accountId, first, today),
      deps.usage.monthlyCallsForAccount(session.accountId, month),
      deps.repo.verdicts(session.accountId, { limit: VERDICT_WINDOW }),
    ]);
    const perDay = new Map<string, number>();
    const perEndpoint = new Map<string, number>();
    const counted = [
      ...stored.map((r) => ({ day: r.day, endpoint: r.endpoint, calls: Number(r.calls) })),
      ...deps.meter.pendingForAccountDaily(session.accountId),
    ];
    for (const r of counted) {
      if (r.day < first || r.day > today) continue;
      perDay.set(r.day, (perDay.get(r.day) ?? 0) + r.calls);
      perEndpoint.set(r.endpoint, (perEndpoint.get(r.endpoint) ?? 0) + r.calls);
    }
    const days: { day: string; calls: number }[] = [];
    for (let d = 1; d <= now.getUTCDate(); d++) {
      const day = `${month}-${String(d).padStart(2, '0')}`;
      days.push({ day, calls: perDay.get(day) ?? 0 });
    }
    const perCode = new Map<string, number>();
    let windowFull = verdicts.length === VERDICT_WINDOW;
    for (const v of verdicts) {
      if (!v.at.startsWith(month)) {
        windowFull = false;
        break;
      }
      const code = v.code || 'OK';
      perCode.set(code, (perCode.get(code) ?? 0) + 1);
    }
    const used = monthly + deps.meter.pendingForAccount(session.accountId, month);
    const plan = deps.plans.find((p) => p.id === session.plan);
    const allowance = plan?.monthly_call_allowance ?? null;
    const body = html`<section class="card" aria-labelledby="plan-title">
        <h2 id="plan-title">Plan</h2>
        <dl class="grid">
          <dt>Plan</dt><dd>${plan?.name ?? session.plan}</dd>
          <dt>Calls this month</dt><dd>${used.toLocaleString('en-US')}</dd>
          <dt>Allowance</dt><dd>${allowance === null ? 'unlimited' : allowance.toLocaleString('en-US')}</dd>
          <dt>Quota left</dt><dd id="quota-left">${allowance === null ? 'unlimited' : Math.max(0, allowance - used).toLocaleString('en-US')}</dd>
        </dl>
      </section>
      <h2>Calls per day, ${month}</h2>
      ${dailyChart(days)}
      <details><summary>Calls per day as a table</summary>
        <table><thead><tr><th scope="col">Day</th><th scope="col" class="num">Calls</th></tr></thead>
        <tbody>${days.map((d) => html`<tr><td>${d.day}</td><td class="num">${d.calls}</td></tr>`)}</tbody></table>
      </details>
      <h2>Verdicts per code this month</h2>
      ${
        perCode.size === 0
          ? html`<p class="muted">No verdict this month.</p>`
          : html`${countsChart('codes-title', 'Verdicts per code this month', byCount(perCode))}
            <details><summary>Verdicts per code as a table</summary>
            <table><thead><tr><th scope="col">Code</th><th scope="col" class="num">Verdicts</th></tr></thead>
            <tbody>${byCount(perCode).map(
              ([code, n]) => html`<tr><td>${code}</td><td class="num">${n}</td></tr>`,
            )}</tbody></table></details>
            ${windowFull ? html`<p class="muted">Counted over the latest ${VERDICT_WINDOW.toLocaleString('en-US')} verdicts.</p>` : ''}`
      }
      <h2>Calls per endpoint this month</h2>
      ${
        perEndpoint.size === 0
          ? html`<p class="muted">No calls this month.</p>`
          : html`<table><thead><tr><th scope="col">Endpoint</th><th scope="col" class="num">Calls</th></tr></thead>
            <tbody>${[...perEndpoint]
              .sort((a, b) => b[1] - a[1])
              .map(
                ([endpoint, n]) => html`<tr><td><code>${endpoint}</code></td><td class="num">${n}</td></tr>`,
              )}</tbody></table>`
      }`;
    return sendPage(reply, page(ctx, 'Usage', body));
  });
}
