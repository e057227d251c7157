import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.ts';
import { createJudgmentRepo } from '../../src/domains/judgment/repo.ts';
import { createJudgmentService } from '../../src/domains/judgment/service.ts';
import { verdictSettingsReader } from '../../src/domains/judgment/verdict-settings.ts';
import { MemoryLoopStore } from '../../src/domains/verdict/loop-detector.ts';
import { bearer, createTestApp, type TestApp } from '../helpers/app.ts';
import { DIALECTS, freshDatabase } from '../helpers/databases.ts';

const ENV = { ARBITER_LOG_LEVEL: 'silent', ARBITER_EMBEDDER: 'hash' };

const escalating = {
  action_type: 'http.request',
  actor: 'support-bot',
  actor_role: 'assistant',
  impact_scope: 'external',
  payload: { url: 'https://api.github.com/repos/acme/app/issues', method: 'POST', body: { title: 'x' } },
};

describe.each(DIALECTS)('judgment over HTTP on %s', (dialect) => {
  let t: TestApp;
  let approver: string;
  beforeAll(async () => {
    t = await createTestApp(dialect, { env: ENV });
    approver = (await t.container.services.apiKeys.create(t.ownerId, 'approver', { role: 'operator' })).key;
  });
  afterAll(() => t.close());

  const evaluate = (body: unknown, key = t.ownerKey) =>
    t.app.inject({
      method: 'POST',
      url: '/v2/actions/evaluate',
      headers: bearer(key),
      payload: body as object,
    });
  const get = (id: string, key = t.ownerKey) =>
    t.app.inject({ method: 'GET', url: `/v2/actions/evaluations/${id}`, headers: bearer(key) });
  const decide = (id: string, verdict: 'approve' | 'deny', key: string, body?: object) =>
    t.app.inject({
      method: 'POST',
      url: `/v2/actions/evaluations/${id}/${verdict}`,
      headers: bearer(key),
      ...(body ? { payload: body } : {}),
    });

  it('answers ALLOWED and BLOCKED only once the evaluation is stored, so an answered id is never lost', async () => {
    const allowed = await evaluate({
      ...escalating,
      actor_role: 'user',
      impact_scope: 'internal',
      payload: { url: 'https://api.github.com/' },
    });
    const blocked = await evaluate({
      ...escalating,
      action_type: 'shell.exec',
      actor_role: 'user',
      impact_scope: 'internal',
      payload: { command: 'rm -rf /' },
    });
    const ids = [allowed.json().evaluation_id, blocked.json().evaluation_id];
    expect([allowed.json().decision, blocked.json().decision]).toEqual(['ALLOWED', 'BLOCKED']);
    // Read from the table itself, not through the service (which also serves its buffer).
    const rows = await t.container.db.kysely
      .selectFrom('judgment_evaluations')
      .select(['id', 'decision'])
      .where('id', 'in', ids)
      .execute();
    expect(rows.map((r) => r.decision).sort()).toEqual(['ALLOWED', 'BLOCKED']);
  });

  it('answers ALLOWED with all seven gates', async () => {
    const res = await evaluate({
      ...escalating,
      actor_role: 'user',
      impact_scope: 'internal',
      payload: { url: 'https://api.github.com/' },
    });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({
      decision: 'ALLOWED',
      reason: 'All seven gates passed',
      status: 'allowed',
      policy_version: 0,
    });
    expect(Object.keys(body.gates)).toEqual([
      'authority',
      'schema',
      'policy',
      'destruction',
      'egress',
      'consistency',
      'loop',
    ]);
    expect(body.gates.authority.passed).toBe(true);
    expect((await get(body.evaluation_id)).json()).toMatchObject({
      status: 'allowed',
      outcome: 'ALLOWED',
      payload: null,
    });
  });

  it.each([
    [{ ...escalating, actor_role: 'robot' }, /actor_role/],
    [{ ...escalating, impact_scope: 'galactic' }, /impact_scope/],
    [{ ...escalating, payload: 'DROP TABLE x' }, /payload/],
    [{ ...escalating, extra: 1 }, /extra|additional/],
    [{ ...escalating, actor: '' }, /actor/],
    [{ ...escalating, expected_state_hash: 'abc' }, /expected_state_hash/],
  ])('refuses a malformed request with 400 and the error body (%#)', async (body, message) => {
    const res = await evaluate(body);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      success: false,
      error: { code: 'VALIDATION_ERROR', message: expect.stringMatching(message) },
    });
  });

  it('holds an escalation pending until another key of the account approves it; the decision is final', async () => {
    const res = (await evaluate(escalating)).json();
    expect(res).toMatchObject({ decision: 'ESCALATE', status: 'pending' });
    const pending = (await get(res.evaluation_id)).json();
    expect(pending).toMatchObject({ status: 'pending', outcome: null, payload: escalating.payload });

    const own = await decide(res.evaluation_id, 'approve', t.ownerKey);
    expect(own.statusCode).toBe(403);

    const ok = await decide(res.evaluation_id, 'approve', approver, { comment: 'looks fine' });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({
      status: 'approved',
      outcome: 'ALLOWED',
      comment: 'looks fine',
      decided_at: expect.any(String),
    });

    const again = await decide(res.evaluation_id, 'deny', approver);
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ error: { code: 'CONFLICT', details: { status: 'approved' } } });
    expect((await get(res.evaluation_id)).json().status).toBe('approved');
  });

  it('denies, and refuses to decide what was never escalated', async () => {
    const res = (await evaluate(escalating)).json();
    const denied = await decide(res.evaluation_id, 'deny', approver, { comment: 'not today' });
    expect(denied.json()).toMatchObject({ status: 'denied', outcome: 'BLOCKED' });
    const allowed = (await evaluate({ ...escalating, actor_role: 'admin' })).json();
    expect(allowed.decision).toBe('ALLOWED');
    expect((await decide(allowed.evaluation_id, 'approve', approver)).statusCode).toBe(409);
  });

  it.each(['approve', 'deny'] as const)(
    'takes a %s sent as most clients send it: Content-Type application/json and an empty body',
    async (verdict) => {
      // A payload of its own: an escalation pending for the same call is answered again, not repeated.
      const body = { ...escalating.payload.body, title: `empty ${verdict}` };
      const res = (await evaluate({ ...escalating, payload: { ...escalating.payload, body } })).json();
      const decided = await t.app.inject({
        method: 'POST',
        url: `/v2/actions/evaluations/${res.evaluation_id}/${verdict}`,
        headers: { ...bearer(approver), 'content-type': 'application/json' },
      });
      expect(decided.statusCode).toBe(200);
      expect(decided.json()).toMatchObject({ status: verdict === 'approve' ? 'approved' : 'denied' });
    },
  );

  it('still refuses an empty JSON body where a body is required', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/v2/actions/evaluate',
      headers: { ...bearer(t.ownerKey), 'content-type': 'application/json' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: { code: 'INVALID_JSON' } });
  });

  it('records every step in the audit log', async () => {
    const res = (await evaluate(escalating)).json();
    await decide(res.evaluation_id, 'approve', approver);
    const entries = await t.container.audit.repo.list(t.ownerId, { limit: 1000 });
    const steps = entries.filter((e) => e.target === `evaluation:${res.evaluation_id}`).map((e) => e.action);
    expect(steps).toEqual(['action.escalated', 'action.approved']);
  });

  it("hides another account's evaluations (404) and lists only the caller's", async () => {
    const other = await t.newAccount();
    const mine = (await evaluate(escalating)).json();
    expect((await get(mine.evaluation_id, other.key)).statusCode).toBe(404);
    expect((await decide(mine.evaluation_id, 'approve', other.key)).statusCode).toBe(404);
    const list = await t.app.inject({
      method: 'GET',
      url: '/v2/actions/evaluations',
      headers: bearer(other.key),
    });
    expect(list.json().evaluations).toEqual([]);
    expect((await get('not-a-uuid')).statusCode).toBe(404);
  });

  it('lists with filters and a stable cursor', async () => {
    const account = await t.newAccount();
    const ids: string[] = [];
    for (let i = 0; i < 7; i++) {
      const body = {
        ...escalating,
        actor: i % 2 === 0 ? 'even' : 'odd',
        actor_role: i < 4 ? 'admin' : 'assistant',
      };
      ids.push((await evaluate(body, account.key)).json().evaluation_id);
    }
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const url: string = `/v2/actions/evaluations?limit=3${cursor ? `&cursor=${cursor}` : ''}`;
      const page = (await t.app.inject({ method: 'GET', url, headers: bearer(account.key) })).json();
      seen.push(...page.evaluations.map((e: { evaluation_id: string }) => e.evaluation_id));
      cursor = page.next_cursor;
    } while (cursor);
    expect(seen.sort()).toEqual([...ids].sort());
    const q = (query: string) =>
      t.app.inject({ method: 'GET', url: `/v2/actions/evaluations?${query}`, headers: bearer(account.key) });
    expect((await q('decision=ESCALATE')).json().evaluations).toHaveLength(3);
    expect((await q('actor=even&status=allowed')).json().evaluations).toHaveLength(2);
    expect((await q(`from=${new Date(Date.now() + 60_000).toISOString()}`)).json().evaluations).toHaveLength(
      0,
    );
    expect((await q('cursor=garbage')).statusCode).toBe(400);
    expect((await q('decision=MAYBE')).statusCode).toBe(400);
  });

  it('refuses a broken policy naming the line, and applies a good one on the next evaluation', async () => {
    const account = await t.newAccount();
    const put = (policies: string) =>
      t.app.inject({
        method: 'PUT',
        url: '/v2/policies',
        headers: bearer(account.key),
        payload: { policies },
      });
    const bad = await put(
      'permit (principal, action, resource);\n\nforbid (principal in Arbiter::Role::"asistant", action, resource);',
    );
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.message).toMatch(/^Policy refused at line 3, column 22: /);
    expect(bad.json().error.details.problems[0]).toMatchObject({ line: 3, column: 22 });

    const good = await put(
      'permit (principal, action, resource);\n@id("no-github") forbid (principal, action, resource) when { context.hosts.contains("api.github.com") };',
    );
    expect(good.json()).toMatchObject({ success: true, version: 1 });
    const res = (await evaluate(escalating, account.key)).json();
    expect(res).toMatchObject({ decision: 'BLOCKED', policy_version: 1 });
    expect(res.gates.policy.policies).toEqual(['no-github']);
    const current = (
      await t.app.inject({ method: 'GET', url: '/v2/policies', headers: bearer(account.key) })
    ).json();
    expect(current).toMatchObject({
      version: 1,
      is_default: false,
      schema: expect.stringContaining('namespace Arbiter'),
    });
    const v0 = (
      await t.app.inject({ method: 'GET', url: '/v2/policies?version=0', headers: bearer(account.key) })
    ).json();
    expect(v0).toMatchObject({ version: 0, is_default: true });
  });

  it('escalates by default what Arbiter does not understand and may change, naming it; what it understands is still allowed', async () => {
    const account = await t.newAccount();
    const shell = (command: string) => ({
      action_type: 'shell.exec',
      actor: 'ops-bot',
      actor_role: 'assistant',
      impact_scope: 'internal',
      payload: { command },
    });
    const unknown = (await evaluate(shell('frobctl --purge-all'), account.key)).json();
    expect(unknown).toMatchObject({ decision: 'ESCALATE', status: 'pending', policy_version: 0 });
    expect(unknown.gates.policy).toMatchObject({
      outcome: 'escalate',
      code: 'ESCALATION_REQUIRED',
      policies: ['unrecognised-effects'],
    });
    expect(unknown.reason).toContain('not understood: unknown program "frobctl"; effects: execute frobctl');
    // The person deciding reads it on the stored evaluation.
    const stored = (await get(unknown.evaluation_id, account.key)).json();
    expect(stored.gates.policy.reason).toContain('unknown program "frobctl"');

    const iam = (
      await evaluate(
        shell(
          'aws iam attach-user-policy --user-name ci --policy-arn arn:aws:iam::aws:policy/AdministratorAccess',
        ),
        account.key,
      )
    ).json();
    expect(iam.decision).toBe('ESCALATE');
    expect(iam.reason).toContain('remote_mutation aws iam attach-user-policy');

    for (const command of ['ls -la src', 'aws s3 ls', 'git status']) {
      const safe = (await evaluate(shell(command), account.key)).json();
      expect(safe, command).toMatchObject({ decision: 'ALLOWED', status: 'allowed' });
    }
  });

  it("applies an account's policy that reads context.recognised and context.effects", async () => {
    const account = await t.newAccount();
    const put = await t.app.inject({
      method: 'PUT',
      url: '/v2/policies',
      headers: bearer(account.key),
      payload: {
        policies: [
          'permit (principal, action, resource);',
          '@id("understood-only") forbid (principal, action, resource) when { !context.recognised };',
          '@id("installs") @escalate("installs need a human") forbid (principal, action, resource) when { context.effects.contains("install") };',
        ].join('\n'),
      },
    });
    expect(put.json()).toMatchObject({ success: true, version: 1 });
    const shell = (command: string) => ({
      action_type: 'shell.exec',
      actor: 'ops-bot',
      actor_role: 'assistant',
      impact_scope: 'internal',
      payload: { command },
    });
    const refused = (await evaluate(shell('frobctl status'), account.key)).json();
    expect(refused).toMatchObject({ decision: 'BLOCKED', policy_version: 1 });
    expect(refused.gates.policy).toMatchObject({ outcome: 'block', policies: ['understood-only'] });
    expect(refused.gates.policy.reason).toContain('not understood: unknown program "frobctl"');
    expect((await evaluate(shell('ls -la'), account.key)).json().decision).toBe('ALLOWED');
  });

  it('blocks a repeated refused call as a loop after the threshold', async () => {
    const account = await t.newAccount();
    const body = {
      ...escalating,
      actor_role: 'user',
      impact_scope: 'internal',
      payload: { url: 'https://pastebin.com/raw' },
    };
    const codes = [];
    for (let i = 0; i < 5; i++) codes.push((await evaluate(body, account.key)).json().gates.loop.outcome);
    expect(codes).toEqual(['pass', 'pass', 'pass', 'block', 'block']);
  });
});

describe.each(DIALECTS)('escalation expiry with an injected clock on %s', (dialect) => {
  let t: TestApp;
  let clock = new Date('2026-11-22T10:00:00.000Z');
  let app: Awaited<ReturnType<typeof buildApp>>;
  let service: ReturnType<typeof createJudgmentService>;
  beforeAll(async () => {
    t = await createTestApp(dialect, { env: ENV });
    const c = t.container;
    // The same building blocks as the container, with a clock the test moves.
    service = createJudgmentService({
      db: c.db.kysely,
      repo: createJudgmentRepo(c.db.kysely, c.db.dialect),
      policies: c.policies,
      settings: verdictSettingsReader(c.services.verdicts),
      loops: new MemoryLoopStore(),
      audit: c.audit,
      auditRepo: c.audit.repo,
      ledgerState: c.ledgerState,
      ledgerText: c.ledgerText,
      escalationTtlMs: 60 * 60 * 1000,
      flushMs: 50,
      logger: c.logger,
      now: () => clock,
    });
    app = await buildApp({ ...c, judgment: service });
  });
  afterAll(async () => {
    await app.close();
    await t.close();
  });

  it('expires a pending escalation on read once its time is up; deciding it then is 409', async () => {
    const approver = (
      await t.container.services.apiKeys.create(t.ownerId, 'late approver', { role: 'operator' })
    ).key;
    const res = (
      await app.inject({
        method: 'POST',
        url: '/v2/actions/evaluate',
        headers: bearer(t.ownerKey),
        payload: escalating,
      })
    ).json();
    expect(res.expires_at).toBe('2026-11-22T11:00:00.000Z');
    clock = new Date('2026-11-22T10:59:59.999Z');
    expect(
      (
        await app.inject({
          method: 'GET',
          url: `/v2/actions/evaluations/${res.evaluation_id}`,
          headers: bearer(t.ownerKey),
        })
      ).json().status,
    ).toBe('pending');
    clock = new Date('2026-11-22T11:00:00.000Z');
    const expired = (
      await app.inject({
        method: 'GET',
        url: `/v2/actions/evaluations/${res.evaluation_id}`,
        headers: bearer(t.ownerKey),
      })
    ).json();
    expect(expired).toMatchObject({ status: 'expired', outcome: 'BLOCKED', decided_by: 'system' });
    const late = await app.inject({
      method: 'POST',
      url: `/v2/actions/evaluations/${res.evaluation_id}/approve`,
      headers: bearer(approver),
    });
    expect(late.statusCode).toBe(409);
    expect(late.json().error.details.status).toBe('expired');
  });

  it('expires in the periodic sweep, with an audit entry', async () => {
    const res = (
      await app.inject({
        method: 'POST',
        url: '/v2/actions/evaluate',
        headers: bearer(t.ownerKey),
        payload: escalating,
      })
    ).json();
    clock = new Date(clock.getTime() + 2 * 60 * 60 * 1000);
    expect(await service.expireDue()).toBeGreaterThanOrEqual(1);
    expect((await t.container.judgment.get(t.ownerId, res.evaluation_id)).status).toBe('expired');
    const entries = await t.container.audit.repo.list(t.ownerId, { limit: 1000 });
    expect(
      entries.filter((e) => e.target === `evaluation:${res.evaluation_id}`).map((e) => e.action),
    ).toEqual(['action.escalated', 'action.expired']);
  });
});

describe.runIf(DIALECTS.includes('postgres'))('two instances on one PostgreSQL', () => {
  let a: TestApp;
  let b: TestApp;
  beforeAll(async () => {
    const database = await freshDatabase('postgres');
    a = await createTestApp('postgres', { env: ENV, database });
    b = await createTestApp('postgres', { env: ENV, database });
  });
  afterAll(async () => {
    await b.close();
    await a.close();
    await a.db.drop();
  });

  it('approves on one instance and reads the decision on the other', async () => {
    const approver = (await a.container.services.apiKeys.create(a.ownerId, 'approver', { role: 'operator' }))
      .key;
    const res = (
      await a.app.inject({
        method: 'POST',
        url: '/v2/actions/evaluate',
        headers: bearer(a.ownerKey),
        payload: escalating,
      })
    ).json();
    expect(
      (
        await b.app.inject({
          method: 'GET',
          url: `/v2/actions/evaluations/${res.evaluation_id}`,
          headers: bearer(a.ownerKey),
        })
      ).json().status,
    ).toBe('pending');
    const ok = await b.app.inject({
      method: 'POST',
      url: `/v2/actions/evaluations/${res.evaluation_id}/approve`,
      headers: bearer(approver),
    });
    expect(ok.json().status).toBe('approved');
    const seen = (
      await a.app.inject({
        method: 'GET',
        url: `/v2/actions/evaluations/${res.evaluation_id}`,
        headers: bearer(a.ownerKey),
      })
    ).json();
    expect(seen).toMatchObject({ status: 'approved', outcome: 'ALLOWED' });
    const twice = await a.app.inject({
      method: 'POST',
      url: `/v2/actions/evaluations/${res.evaluation_id}/deny`,
      headers: bearer(approver),
    });
    expect(twice.statusCode).toBe(409);
  });

  it('uses a policy uploaded on one instance on the very next evaluation on the other', async () => {
    const body = { ...escalating, actor_role: 'admin' };
    expect(
      (
        await b.app.inject({
          method: 'POST',
          url: '/v2/actions/evaluate',
          headers: bearer(a.ownerKey),
          payload: body,
        })
      ).json().decision,
    ).toBe('ALLOWED');
    const put = await a.app.inject({
      method: 'PUT',
      url: '/v2/policies',
      headers: bearer(a.ownerKey),
      payload: {
        policies:
          'permit (principal, action, resource);\n@escalate("GitHub writes need a human") forbid (principal, action, resource) when { context.hosts.contains("api.github.com") };',
      },
    });
    expect(put.statusCode).toBe(200);
    const next = (
      await b.app.inject({
        method: 'POST',
        url: '/v2/actions/evaluate',
        headers: bearer(a.ownerKey),
        payload: body,
      })
    ).json();
    expect(next).toMatchObject({ decision: 'ESCALATE', policy_version: put.json().version });
  });

  it('lets exactly one of two concurrent decisions win', async () => {
    const k1 = (await a.container.services.apiKeys.create(a.ownerId, 'one', { role: 'operator' })).key;
    const k2 = (await a.container.services.apiKeys.create(a.ownerId, 'two', { role: 'operator' })).key;
    const res = (
      await a.app.inject({
        method: 'POST',
        url: '/v2/actions/evaluate',
        headers: bearer(a.ownerKey),
        payload: escalating,
      })
    ).json();
    const [x, y] = await Promise.all([
      a.app.inject({
        method: 'POST',
        url: `/v2/actions/evaluations/${res.evaluation_id}/approve`,
        headers: bearer(k1),
      }),
      b.app.inject({
        method: 'POST',
        url: `/v2/actions/evaluations/${res.evaluation_id}/deny`,
        headers: bearer(k2),
      }),
    ]);
    expect([x.statusCode, y.statusCode].sort()).toEqual([200, 409]);
  });
});
