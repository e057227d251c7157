/**
 * The operator console's pages with a full account: 10,000 judgment evaluations, 10,000 claims
 * and 10,000 verdicts in its audit log. Each page is requested through the app (inject: the
 * server's time, no network) and compared with GET /v2/actions/evaluations, the API listing the
 * escalations page is built on, measured in the same run. Usage:
 *   npm run bench:console [-- --iterations 30]
 *   DATABASE_URL=postgres://… npm run bench:console
 */
import { randomUUID } from 'node:crypto';
import os from 'node:os';
import type { EvaluationRow } from '../src/domains/judgment/repo.ts';
import { benchOptions, startArbiter } from './lib/harness.ts';
import { syntheticClaims } from './lib/synthetic-claims.ts';

const { get } = benchOptions({ iterations: '30' });
const iterations = Number(get('iterations'));
const EVALUATIONS = 10_000;
const CLAIMS = 10_000;
const VERDICTS = 10_000;
const BUDGET_MS = 100;

const arbiter = await startArbiter();
const { container, app, accountId, headers, config } = arbiter;
const bearerKey = headers.authorization.slice('Bearer '.length);

// One real evaluation of each decision is the template of the stored ones.
const kinds = [
  { actor_role: 'user', impact_scope: 'internal', payload: { url: 'https://api.github.com/' } },
  {
    actor_role: 'assistant',
    impact_scope: 'external',
    payload: { url: 'https://api.github.com/x', method: 'POST' },
  },
] as const;
const templates: EvaluationRow[] = [];
for (const k of kinds) {
  const out = await container.judgment.evaluate(
    { accountId, keyId: 'bench-asker' },
    { action_type: 'http.request', actor: 'bench-agent', ...k, payload: { ...k.payload } },
  );
  await container.judgment.list(accountId, { limit: 1 });
  templates.push(
    (await container.db.kysely
      .selectFrom('judgment_evaluations')
      .selectAll()
      .where('id', '=', out.evaluation_id)
      .executeTakeFirstOrThrow()) as EvaluationRow,
  );
}
const started = Date.now() - EVALUATIONS * 1000;
const rows: EvaluationRow[] = [];
for (let i = 0; i < EVALUATIONS; i++) {
  const template = templates[i % 10 === 0 ? 1 : 0]!;
  const at = new Date(started + i * 1000).toISOString();
  // The latest 50 escalations wait for a decision; the older ones were decided.
  const pending = template.decision === 'ESCALATE' && i >= EVALUATIONS - 500;
  rows.push({
    ...template,
    id: randomUUID(),
    actor: `agent-${i % 37}`,
    created_at: at,
    status: template.decision === 'ESCALATE' ? (pending ? 'pending' : 'approved') : template.status,
    expires_at: template.decision === 'ESCALATE' ? new Date(Date.now() + 86_400_000).toISOString() : null,
    decided_at: template.decision === 'ESCALATE' && !pending ? at : null,
    decided_by: template.decision === 'ESCALATE' && !pending ? 'bench-approver' : null,
  });
}
const repo = (await import('../src/domains/judgment/repo.ts')).createJudgmentRepo(
  container.db.kysely,
  container.db.dialect,
);
for (let i = 0; i < rows.length; i += 1000) await repo.insert(container.db.kysely, rows.slice(i, i + 1000));

const texts = syntheticClaims(CLAIMS, 7);
for (let i = 0; i < texts.length; i += 1000) {
  await container.services.ledger.storeMany(
    accountId,
    'bench',
    texts
      .slice(i, i + 1000)
      .map((claim) => ({ claim, source: 'bench', confidence: 0.9, on_conflict: 'keep' as const })),
  );
}
const codes = ['POLICY_VIOLATION', 'EXFILTRATION_BLOCKED', null, null, 'DEST_MUTATION'];
for (let i = 0; i < VERDICTS; i += 1000) {
  await container.audit.repo.append(
    Array.from({ length: 1000 }, (_, j) => ({
      accountId,
      actor: 'bench-key',
      action: (i + j) % 5 === 2 || (i + j) % 5 === 3 ? 'verdict.evaluated' : 'verdict.rejected',
      target: `h${i + j}`,
      details: { action: 'shell.exec', code: codes[(i + j) % 5] },
    })),
  );
}

// A console session of a second key (the first one asked for the escalations).
const approver = await container.services.apiKeys.create(accountId, 'bench-approver');
const form = await app.inject({ method: 'GET', url: '/console' });
const pre = /arbiter_console_signin=([^;]+)/.exec(String(form.headers['set-cookie']))![1]!;
const signIn = await app.inject({
  method: 'POST',
  url: '/console/sign-in',
  headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: `arbiter_console_signin=${pre}` },
  payload: new URLSearchParams({ _csrf: pre, api_key: approver.key }).toString(),
});
const cookie = `arbiter_console=${/arbiter_console=([^;]+)/.exec(String(signIn.headers['set-cookie']))![1]}`;
const pendingPage = await app.inject({ method: 'GET', url: '/console/escalations', headers: { cookie } });
const since = /since=([A-Za-z0-9_-]+)/.exec(pendingPage.body)![1];
const firstEvaluation = rows.at(-1)!.id;
const firstClaim = (
  await container.db.kysely
    .selectFrom('claims')
    .select('id')
    .where('account_id', '=', accountId)
    .executeTakeFirstOrThrow()
).id;

const targets: Array<[string, string, Record<string, string>]> = [
  [
    'API GET /v2/actions/evaluations (baseline)',
    '/v2/actions/evaluations?limit=50',
    { authorization: `Bearer ${bearerKey}` },
  ],
  ['/console/escalations', '/console/escalations', { cookie }],
  [
    '/console/escalations/pending (unchanged: 204)',
    `/console/escalations/pending?since=${since}`,
    { cookie },
  ],
  ['/console/evaluations', '/console/evaluations', { cookie }],
  [
    '/console/evaluations?code=ESCALATION_REQUIRED',
    '/console/evaluations?code=ESCALATION_REQUIRED',
    { cookie },
  ],
  [
    '/console/evaluations?code=LOOP_DETECTED (no match)',
    '/console/evaluations?code=LOOP_DETECTED',
    { cookie },
  ],
  ['/console/evaluations/:id', `/console/evaluations/${firstEvaluation}`, { cookie }],
  ['/console/verdicts?code=DEST_MUTATION', '/console/verdicts?code=DEST_MUTATION', { cookie }],
  ['/console/memory', '/console/memory', { cookie }],
  ['/console/memory?q=… (search)', '/console/memory?q=deployment+window+friday', { cookie }],
  ['/console/memory/claims/:id', `/console/memory/claims/${firstClaim}`, { cookie }],
  ['/console/audit', '/console/audit', { cookie }],
  ['/console/usage', '/console/usage', { cookie }],
  ['/console/keys', '/console/keys', { cookie }],
  ['/console/webhooks', '/console/webhooks', { cookie }],
  ['/console/policies', '/console/policies', { cookie }],
];

const count = async (table: 'judgment_evaluations' | 'claims') =>
  Number(
    (
      await container.db.kysely
        .selectFrom(table)
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .where('account_id', '=', accountId)
        .executeTakeFirstOrThrow()
    ).n,
  );
console.log(`stored: ${await count('judgment_evaluations')} evaluations, ${await count('claims')} claims`);
console.log(
  `bench:console — database ${config.database.kind}, ${os.cpus().length} cores, ${EVALUATIONS} evaluations, ` +
    `${CLAIMS} claims, ${VERDICTS} verdicts, ${iterations} requests a page (after 3 warm-up)`,
);
let baseline = 0;
let over = 0;
for (const [name, url, h] of targets) {
  for (let i = 0; i < 3; i++) await app.inject({ method: 'GET', url, headers: h });
  const samples: number[] = [];
  let status = 0;
  for (let i = 0; i < iterations; i++) {
    const start = performance.now();
    const res = await app.inject({ method: 'GET', url, headers: h });
    samples.push(performance.now() - start);
    status = res.statusCode;
  }
  samples.sort((a, b) => a - b);
  const p50 = samples[Math.floor(samples.length / 2)]!;
  const p95 = samples[Math.min(samples.length - 1, Math.floor(samples.length * 0.95))]!;
  if (baseline === 0) baseline = p50;
  if (p95 > BUDGET_MS && url.startsWith('/console')) over++;
  console.log(
    `${name.padEnd(48)} ${String(status).padStart(3)}  p50 ${p50.toFixed(1).padStart(6)} ms  p95 ${p95.toFixed(1).padStart(6)} ms  ` +
      `× baseline ${(p50 / baseline).toFixed(2)}`,
  );
}
console.log(
  over === 0 ? `every page's p95 is within ${BUDGET_MS} ms` : `${over} pages over ${BUDGET_MS} ms at p95`,
);
await arbiter.close();
process.exit(over === 0 ? 0 : 1);
