import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readAgentContext } from '../../src/domains/verdict/agent-context.ts';
import { verdictHash } from '../../src/domains/verdict/engine.ts';
import { DEFAULT_POLICY_VERSION } from '../../src/domains/verdict/policy.ts';
import { bearer, createTestApp, type TestApp } from '../helpers/app.ts';
import { DIALECTS } from '../helpers/databases.ts';

interface VerdictJson {
  is_safe: boolean;
  hash: string;
  error?: { code: string; message: string };
}

const READ_NOTES = { action: 'fs.read', payload: { path: '/root/notes.txt' } };
const DEV_SERVER = { action: 'http.request', payload: { url: 'http://localhost:3000/api/products' } };

describe.each(DIALECTS)('where the agent works, on %s', (dialect) => {
  let t: TestApp;
  let key: string;

  const send = (method: 'GET' | 'PUT', url: string, payload?: unknown, as = key) =>
    t.app.inject({
      method,
      url,
      headers: bearer(as),
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
  const evaluate = async (body: unknown, as = key): Promise<VerdictJson> =>
    (
      await t.app.inject({
        method: 'POST',
        url: '/v1/evaluate',
        headers: bearer(as),
        payload: body as object,
      })
    ).json() as VerdictJson;

  beforeAll(async () => {
    t = await createTestApp(dialect, { env: { ARBITER_LOG_LEVEL: 'silent' } });
    key = (await t.newAccount()).key;
  });
  afterAll(() => t.close());

  it('judges paths from the request context, and hashes it with the call', async () => {
    const without = await evaluate(READ_NOTES);
    expect(without.error?.code).toBe('FILESYSTEM_DENIED');
    expect(without.error?.message).not.toMatch(/credential/);
    // Without a context the hash is what it always was.
    expect(without.hash).toBe(
      verdictHash(READ_NOTES.action, READ_NOTES.payload, 'FILESYSTEM_DENIED', DEFAULT_POLICY_VERSION),
    );

    const inRoot = await evaluate({ ...READ_NOTES, context: { workspace: '/root' } });
    expect(inRoot.is_safe).toBe(true);
    const checked = readAgentContext({ workspace: '/root' });
    expect(checked.ok).toBe(true);
    if (checked.ok)
      expect(inRoot.hash).toBe(
        verdictHash(READ_NOTES.action, READ_NOTES.payload, null, DEFAULT_POLICY_VERSION, checked.value),
      );
    // The same context written another way is the same context.
    expect((await evaluate({ ...READ_NOTES, context: { workspace: ['/root/'] } })).hash).toBe(inRoot.hash);
    // An empty context says nothing.
    expect((await evaluate({ ...READ_NOTES, context: {} })).hash).toBe(without.hash);

    const keys = await evaluate({
      action: 'fs.read',
      payload: { path: '/root/.ssh/id_rsa' },
      context: { workspace: '/root' },
    });
    expect(keys.error?.code).toBe('FILESYSTEM_DENIED');
  });

  it('answers a context that is not one with SCHEMA_MISMATCH, naming the field', async () => {
    const relative = await evaluate({ ...READ_NOTES, context: { workspace: 'src' } });
    expect(relative.error).toMatchObject({ code: 'SCHEMA_MISMATCH' });
    expect(relative.error?.message).toContain('context.workspace must be an absolute path');
    const unknown = await evaluate({ ...READ_NOTES, context: { workspace: '/app', shell: 'bash' } });
    expect(unknown.error?.message).toContain('context.shell is not a context field');
  });

  it('keeps account defaults: an operator sets them, a request overrides them field by field', async () => {
    expect((await send('GET', '/v1/settings/context')).json()).toEqual({ local_origins: [] });
    const put = await send('PUT', '/v1/settings/context', { user: 'root', workspace: '~/app' });
    expect(put.statusCode).toBe(200);
    expect(put.json()).toEqual({ user: 'root', workspace: ['/root/app'], local_origins: [] });
    expect((await send('GET', '/v1/settings/context')).json()).toEqual(put.json());

    const read = await evaluate(READ_NOTES);
    expect(read.is_safe).toBe(true);
    // The defaults are part of the policy: the same call hashes differently under them.
    expect(read.hash).not.toBe(
      verdictHash(READ_NOTES.action, READ_NOTES.payload, null, DEFAULT_POLICY_VERSION),
    );
    const elsewhere = { user: 'dev', workspace: '/home/dev/app' };
    expect((await evaluate({ ...READ_NOTES, context: elsewhere })).error?.code).toBe('FILESYSTEM_DENIED');

    await send('PUT', '/v1/settings/context', {});
    expect((await evaluate(READ_NOTES)).error?.code).toBe('FILESYSTEM_DENIED');
  });

  it('lets http.request reach only the local origins the account names', async () => {
    const before = await evaluate(DEV_SERVER);
    expect(before.error?.code).toBe('EXFILTRATION_BLOCKED');
    expect(before.error?.message).toContain('local_origins');
    const put = await send('PUT', '/v1/settings/context', { local_origins: ['http://localhost:3000'] });
    expect(put.json()).toEqual({ local_origins: ['http://localhost:3000'] });
    expect((await evaluate(DEV_SERVER)).is_safe).toBe(true);
    expect(
      (await evaluate({ action: 'http.request', payload: { url: 'http://localhost:3001/' } })).error?.code,
    ).toBe('EXFILTRATION_BLOCKED');
    // The egress settings read back as they were written.
    expect(Object.keys((await send('GET', '/v1/settings/egress')).json()).sort()).toEqual([
      'blocked_domains',
      'mode',
      'trusted_domains',
    ]);
    await send('PUT', '/v1/settings/context', {});
  });

  it('judges /v2/actions/evaluate from the same context: the request, then the account defaults', async () => {
    const judge = async (context?: unknown, payload: object = READ_NOTES.payload) =>
      t.app.inject({
        method: 'POST',
        url: '/v2/actions/evaluate',
        headers: bearer(key),
        payload: {
          action_type: 'fs.read',
          actor: 'agent-1',
          actor_role: 'assistant',
          impact_scope: 'internal',
          payload,
          ...(context === undefined ? {} : { context }),
        },
      });
    const decision = async (context?: unknown) => (await judge(context)).json().decision as string;
    expect(await decision()).toBe('BLOCKED');
    expect(await decision({ workspace: '/root' })).toBe('ALLOWED');
    // The keys in the workspace stay refused.
    const keys = await judge({ workspace: '/root' }, { path: '/root/.ssh/id_rsa' });
    expect(keys.json().decision).toBe('BLOCKED');

    await send('PUT', '/v1/settings/context', { workspace: '/root' });
    expect(await decision()).toBe('ALLOWED');
    expect(await decision({ user: 'dev', workspace: '/home/dev/app' })).toBe('BLOCKED');
    await send('PUT', '/v1/settings/context', {});
    expect(await decision()).toBe('BLOCKED');

    const relative = await judge({ workspace: 'src' });
    expect(relative.statusCode).toBe(400);
    expect(relative.json().error).toMatchObject({ code: 'VALIDATION_ERROR' });
    expect(relative.json().error.message).toContain('context.workspace must be an absolute path');
  });

  it('refuses settings that are not a context, saying why', async () => {
    for (const [body, message] of [
      [{ workspace: 'relative/dir' }, 'settings.workspace must be an absolute path'],
      [{ local_origins: ['http://localhost:2375'] }, 'Docker engine API'],
      [{ local_origins: ['https://api.example.com'] }, 'must be a loopback origin'],
      [{ os: 'plan9' }, 'os'],
      [{ cwd: '/app' }, 'cwd'],
    ] as const) {
      const res = await send('PUT', '/v1/settings/context', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().error.code).toBe('VALIDATION_ERROR');
      expect(res.json().error.message).toContain(message);
    }
  });
});
