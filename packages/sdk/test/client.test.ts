import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/helpers/app.ts';
import { type Arbiter, createArbiter, type GuardDecision } from '../src/index.ts';

// The real service on SQLite, over a real socket.
describe('the SDK against the service', () => {
  let t: TestApp;
  let url: string;
  let arbiter: Arbiter;
  beforeAll(async () => {
    t = await createTestApp('sqlite');
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    url = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    arbiter = createArbiter({ baseUrl: url, apiKey: t.ownerKey });
  });
  afterAll(() => t.close());

  it('evaluates: an unsafe verdict is a value with its code, not an error', async () => {
    expect(await arbiter.evaluate('shell.exec', { command: 'ls -la' })).toMatchObject({ is_safe: true });
    const unsafe = await arbiter.evaluate('shell.exec', { command: 'rm -rf /' });
    expect(unsafe).toMatchObject({ is_safe: false, error: { code: 'DEST_MUTATION' } });
  });

  it('sends its workspace as the verdict context, and a call may say otherwise', async () => {
    const read = { path: '/root/security_audit.csv' };
    expect((await arbiter.evaluate('fs.read', read)).error?.code).toBe('FILESYSTEM_DENIED');
    const inRoot = createArbiter({ baseUrl: url, apiKey: t.ownerKey, workspace: '/root' });
    expect(inRoot.options.workspace).toBe('/root');
    expect(await inRoot.evaluate('fs.read', read)).toMatchObject({ is_safe: true });
    expect((await inRoot.evaluate('fs.read', { path: '/root/.ssh/id_rsa' })).error?.code).toBe(
      'FILESYSTEM_DENIED',
    );
    expect(
      (await inRoot.check({ name: 'Read', args: { file_path: '/root/security_audit.csv' } })).decision,
    ).toBe('allow');
    expect((await inRoot.evaluate('fs.read', read, { workspace: ['/app'] })).error?.code).toBe(
      'FILESYSTEM_DENIED',
    );
    // A guard passes the workspace of the call it judges (a hook's cwd, a client's roots).
    const call = { name: 'Read', args: { file_path: '/root/security_audit.csv' } };
    expect((await arbiter.check(call, undefined, { workspace: '/root' })).decision).toBe('allow');
    expect((await arbiter.check(call)).decision).toBe('deny');

    // The judgment engine reads the same workspace.
    const judgeRead = {
      action_type: 'fs.read',
      actor: 'agent-1',
      actor_role: 'assistant',
      impact_scope: 'internal',
      payload: read,
    } as const;
    expect((await inRoot.judge(judgeRead)).decision).toBe('ALLOWED');
    expect((await arbiter.judge(judgeRead)).decision).toBe('BLOCKED');
    expect((await inRoot.judge({ ...judgeRead, context: { workspace: '/app' } })).decision).toBe('BLOCKED');
  });

  it('recalls an explicit unknown on an empty ledger, then what was remembered', async () => {
    expect(await arbiter.recall('Where does the quarterly audit happen')).toEqual({
      status: 'unknown',
      facts: [],
    });
    const stored = await arbiter.remember({
      claim: 'The quarterly audit happens in Lisbon',
      source: 'ops handbook',
      confidence: 0.8,
    });
    const recalled = await arbiter.recall('Where does the quarterly audit happen');
    expect(recalled.status).toBe('known');
    expect(recalled.facts[0]).toMatchObject({
      id: stored.id,
      claim: 'The quarterly audit happens in Lisbon',
    });
  });

  it('judges, and waits for a human on an escalation until decided or timed out', async () => {
    const escalated = await arbiter.judge({
      action_type: 'fs.write',
      actor: 'sdk-test',
      actor_role: 'assistant',
      payload: { path: 'site/index.html', content: 'hello' },
      impact_scope: 'external',
    });
    expect(escalated.decision).toBe('ESCALATE');
    const still = await arbiter.waitForDecision(escalated.evaluation_id, { timeoutMs: 300, intervalMs: 100 });
    expect(still.status).toBe('pending');
    expect(still.outcome).toBeNull();

    const approver = await t.newAccount();
    const sameAccount = await t.container.services.apiKeys.create(t.ownerId, 'approver', {
      role: 'operator',
    });
    const waiting = arbiter.waitForDecision(escalated.evaluation_id, { timeoutMs: 10_000, intervalMs: 50 });
    const decided = await createArbiter({ baseUrl: url, apiKey: sameAccount.key }).api.POST(
      '/v2/actions/evaluations/{id}/approve',
      { params: { path: { id: escalated.evaluation_id } }, body: { comment: 'fine' } },
    );
    expect(decided.response.status).toBe(200);
    expect(await waiting).toMatchObject({ status: 'approved', outcome: 'ALLOWED', comment: 'fine' });
    // Another account cannot see it at all: a typed NOT_FOUND.
    await expect(
      createArbiter({ baseUrl: url, apiKey: approver.key }).waitForDecision(escalated.evaluation_id),
    ).rejects.toMatchObject({ code: 'NOT_FOUND', status: 404 });
  });

  it('check: asks about what Arbiter does not recognise, naming it and its effects; allows what it does', async () => {
    const unknown = await arbiter.check({ name: 'execute_command', args: { command: 'frobctl --purge' } });
    expect(unknown).toMatchObject({
      decision: 'ask',
      code: 'UNRECOGNISED',
      evaluationId: undefined,
      recognised: false,
      effects: [{ kind: 'execute', target: 'frobctl' }],
      unrecognised: ['unknown program "frobctl"'],
    });
    expect(unknown.reason).toBe(
      'Arbiter does not know what this does: unknown program "frobctl"; it may execute frobctl',
    );
    const safe = await arbiter.check({ name: 'execute_command', args: { command: 'ls -la' } });
    expect(safe).toMatchObject({
      decision: 'allow',
      code: undefined,
      recognised: true,
      effects: [{ kind: 'read', target: 'ls' }],
      unrecognised: undefined,
    });
    // Unsafe wins over not recognised; a judgment carries no verdict's understanding.
    expect(
      await arbiter.check({ name: 'execute_command', args: { command: 'frobctl x; rm -rf /' } }),
    ).toMatchObject({ decision: 'deny', code: 'DEST_MUTATION', recognised: false });
    const monitored = await createArbiter({ baseUrl: url, apiKey: t.ownerKey, mode: 'monitor' }).check({
      name: 'execute_command',
      args: { command: 'frobctl --purge' },
    });
    expect(monitored).toMatchObject({
      decision: 'allow',
      reason: 'monitor mode: would ask',
      recognised: false,
      enforced: { decision: 'ask', code: 'UNRECOGNISED' },
    });
  });

  it('check: enforce refuses, monitor only records, and the fail mode decides when unreachable', async () => {
    const recorded: GuardDecision[] = [];
    const monitor = createArbiter({
      baseUrl: url,
      apiKey: t.ownerKey,
      mode: 'monitor',
      onDecision: (d) => recorded.push(d),
    });
    const call = { name: 'execute_command', args: { command: 'rm -rf /' } };
    expect(await arbiter.check(call)).toMatchObject({ decision: 'deny', code: 'DEST_MUTATION' });
    const monitored = await monitor.check(call);
    expect(monitored).toMatchObject({
      decision: 'allow',
      enforced: { decision: 'deny', code: 'DEST_MUTATION' },
    });
    expect(recorded).toEqual([monitored]);

    const down = { baseUrl: 'http://127.0.0.1:9', apiKey: t.ownerKey, retries: 0 };
    expect(await createArbiter(down).check(call)).toMatchObject({ decision: 'deny', code: 'UNREACHABLE' });
    expect(await createArbiter({ ...down, failMode: 'open' }).check(call)).toMatchObject({
      decision: 'allow',
      code: 'UNREACHABLE',
    });
    // A refused key is an answer, not an outage: it is thrown, never failed open.
    await expect(
      createArbiter({ baseUrl: url, apiKey: 'arbiter_sk_nope', failMode: 'open' }).check(call),
    ).rejects.toMatchObject({ code: 'UNAUTHENTICATED' });
  });
});
