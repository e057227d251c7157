import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GENESIS_HASH } from '../../src/db/chain.ts';
import { evaluateAction } from '../../src/domains/verdict/engine.ts';
import { bearer, createTestApp, type TestApp } from '../helpers/app.ts';
import { DIALECTS } from '../helpers/databases.ts';

const HEX64 = /^[0-9a-f]{64}$/;

interface VerdictJson {
  is_safe: boolean;
  latency_ms: number;
  hash: string;
  state_hash: string;
  error?: { code: string; message: string };
}

describe.each(DIALECTS)('verdicts over HTTP on %s', (dialect) => {
  let t: TestApp;
  let key: string;
  let accountId: string;

  const evaluate = async (body: unknown, headers: Record<string, string> = {}, as = key) => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/evaluate',
      headers: { ...bearer(as), 'content-type': 'application/json', ...headers },
      payload: JSON.stringify(body),
    });
    return { status: res.statusCode, verdict: res.json() as VerdictJson };
  };
  const send = (method: 'GET' | 'PUT' | 'DELETE', url: string, payload?: unknown, as = key) =>
    t.app.inject({
      method,
      url,
      headers: bearer(as),
      ...(payload === undefined ? {} : { payload: payload as object }),
    });

  beforeAll(async () => {
    t = await createTestApp(dialect, { env: { ARBITER_LOG_LEVEL: 'silent' } });
    const account = await t.newAccount();
    key = account.key;
    accountId = account.accountId;
  });
  afterAll(() => t.close());

  it('answers a safe action with the verdict object of spec §2', async () => {
    const { status, verdict } = await evaluate({ action: 'fs.read', payload: { path: 'src/index.ts' } });
    expect(status).toBe(200);
    expect(verdict).toEqual({
      is_safe: true,
      latency_ms: expect.any(Number),
      hash: expect.stringMatching(HEX64),
      state_hash: GENESIS_HASH,
      // What Arbiter understood it would do (beyond the spec's fields).
      recognised: true,
      effects: [{ kind: 'read', target: 'src/index.ts' }],
    });
  });

  it.each([
    ['SCHEMA_MISMATCH', { action: 'system.reboot', payload: {} }],
    ['SCHEMA_MISMATCH', { action: 'fs.read', payload: {} }],
    ['SCHEMA_MISMATCH', { action: 'fs.read', payload: { path: 7 } }],
    ['SCHEMA_MISMATCH', { action: 'fs.read', payload: { path: 'a', mode: 'r' } }],
    ['SCHEMA_MISMATCH', { action: 'fs.read' }],
    ['SCHEMA_MISMATCH', { action: 42, payload: {} }],
    ['SCHEMA_MISMATCH', { action: 'fs.read', payload: { path: 'a' }, extra: true }],
    ['SCHEMA_MISMATCH', [1, 2]],
    ['SCHEMA_MISMATCH', 'fs.read'],
    ['POLICY_VIOLATION', { action: 'db.query', payload: { sql: 'GRANT ALL ON users TO intern' } }],
    ['DEST_MUTATION', { action: 'db.query', payload: { sql: 'DROP TABLE users' } }],
    ['DEST_MUTATION', { action: 'shell.exec', payload: { command: 'sudo rm -rf / --no-preserve-root' } }],
    ['EXFILTRATION_BLOCKED', { action: 'http.request', payload: { url: 'https://pastebin.com/api' } }],
    ['EXFILTRATION_BLOCKED', { action: 'http.request', payload: { url: 'http://169.254.169.254/' } }],
    ['FILESYSTEM_DENIED', { action: 'fs.read', payload: { path: '/etc/shadow' } }],
    ['FILESYSTEM_DENIED', { action: 'fs.write', payload: { path: '~/.ssh/authorized_keys', content: 'k' } }],
  ])('answers %s with 200 and a readable message', async (code, body) => {
    const { status, verdict } = await evaluate(body);
    expect(status).toBe(200);
    expect(verdict.is_safe).toBe(false);
    expect(verdict.error?.code).toBe(code);
    expect(verdict.error?.message.length).toBeGreaterThan(5);
    expect(verdict.hash).toMatch(HEX64);
  });

  it('answers STATE_DRIFT with 412 and the verdict body, from the body or If-Match', async () => {
    const stale = 'ab'.repeat(32);
    const payload = { action: 'agent.respond', payload: { text: 'Done.' } };
    const drift = await evaluate({ ...payload, expected_state_hash: stale });
    expect(drift.status).toBe(412);
    expect(drift.verdict).toMatchObject({
      is_safe: false,
      state_hash: GENESIS_HASH,
      error: { code: 'STATE_DRIFT' },
    });
    expect((await evaluate(payload, { 'if-match': `"${stale}"` })).status).toBe(412);
    expect((await evaluate({ ...payload, expected_state_hash: GENESIS_HASH })).status).toBe(200);
    expect((await evaluate(payload, { 'if-match': `W/"${GENESIS_HASH}"` })).status).toBe(200);
    expect((await evaluate(payload, { 'if-match': '*' })).status).toBe(200);
    const malformed = await evaluate({ ...payload, expected_state_hash: 'abc' });
    expect(malformed.verdict.error?.code).toBe('SCHEMA_MISMATCH');
    const disagree = await evaluate(
      { ...payload, expected_state_hash: GENESIS_HASH },
      { 'if-match': `"${stale}"` },
    );
    expect(disagree.verdict.error?.code).toBe('SCHEMA_MISMATCH');
  });

  it('labels the statement of a batch once: the analyzer says which, the service adds nothing', async () => {
    const { verdict } = await evaluate({
      action: 'db.query',
      payload: { sql: 'SELECT 1; DELETE FROM users' },
    });
    expect(verdict.error?.message).toMatch(/\(statement 2 of 2\)$/);
    expect(verdict.error?.message).not.toMatch(/statement 2\)/);
    const single = await evaluate({ action: 'db.query', payload: { sql: 'DELETE FROM users' } });
    expect(single.verdict.error?.message).toBe('DELETE without a WHERE clause (statement 1)');
  });

  it('names the stronger finding when several apply (fixed precedence)', async () => {
    // A privileged path outranks the drift of the ledger state: the agent has to fix the call first.
    const { status, verdict } = await evaluate({
      action: 'fs.delete',
      payload: { path: '/root', recursive: true },
      expected_state_hash: 'cd'.repeat(32),
    });
    expect(status).toBe(200);
    expect(verdict.error?.code).toBe('FILESYSTEM_DENIED');
  });

  it('keeps transport errors in the DESIGN error body', async () => {
    const broken = await t.app.inject({
      method: 'POST',
      url: '/v1/evaluate',
      headers: { ...bearer(key), 'content-type': 'application/json' },
      payload: '{"action":',
    });
    expect(broken.statusCode).toBe(400);
    expect(broken.json()).toMatchObject({ success: false, error: { code: 'INVALID_JSON' } });
    const text = await t.app.inject({
      method: 'POST',
      url: '/v1/evaluate',
      headers: { ...bearer(key), 'content-type': 'text/plain' },
      payload: 'rm -rf /',
    });
    expect(text.statusCode).toBe(415);
    const anonymous = await t.app.inject({
      method: 'POST',
      url: '/v1/evaluate',
      payload: { action: 'x', payload: {} },
    });
    expect(anonymous.statusCode).toBe(401);
  });

  it('records every verdict in the audit log without the payload', async () => {
    const secret = 'AKIAQWERTYUIOPASDFGH';
    const { verdict } = await evaluate({
      action: 'email.send',
      payload: { to: 'someone@gmail.com', subject: 'creds', body: `the key is ${secret}` },
    });
    expect(verdict.error?.code).toBe('EXFILTRATION_BLOCKED');
    expect(verdict.error?.message).not.toContain(secret);
    await t.container.audit.flush();
    const entries = await t.container.audit.repo.list(accountId, { limit: 1000 });
    const entry = entries.find((e) => e.target === verdict.hash);
    expect(entry).toMatchObject({
      action: 'verdict.rejected',
      details: { action: 'email.send', code: 'EXFILTRATION_BLOCKED' },
    });
    expect(entries.some((e) => e.action === 'verdict.evaluated')).toBe(true);
    expect(JSON.stringify(entries)).not.toContain(secret);
    expect(JSON.stringify(entries)).not.toContain('gmail');
  });

  /** The same judgement in process, best of three, on the quiet reference 2-core machine. */
  const REFERENCE_IN_PROCESS_MS = { 'db.query': 60, 'shell.exec': 40 };

  it('judges or refuses a 1 MB SQL or shell payload quickly and clearly', async () => {
    const sql = `${"INSERT INTO t VALUES (1, 'abc');\n".repeat(29_000)}DROP TABLE t;`;
    const command = `${'echo "$(date) hello" >> log.txt\n'.repeat(27_000)}rm -rf /`;
    const tail = (body: { payload: Record<string, string> }, i: number) =>
      'sql' in body.payload ? { sql: `${sql}\n-- ${i}` } : { command: `${command} # ${i}` };
    for (const body of [
      { action: 'db.query', payload: { sql } as Record<string, string> },
      { action: 'shell.exec', payload: { command } as Record<string, string> },
    ]) {
      expect(JSON.stringify(body).length).toBeGreaterThan(940_000);
      // The budgets hold on the quiet reference machine; a host busy with other suites is allowed
      // as much more as it is slower right now at the same judgement in process (best of three).
      const slowdown = Math.max(
        1,
        Math.min(
          ...[0, 1, 2].map((i) => {
            const started = performance.now();
            evaluateAction({ action: body.action, payload: { ...body.payload, ...tail(body, 10 + i) } });
            return performance.now() - started;
          }),
        ) / REFERENCE_IN_PROCESS_MS[body.action as keyof typeof REFERENCE_IN_PROCESS_MS],
      );
      // Best of five: the budget is for the service, not for a test host busy with other suites.
      const judged: number[] = [];
      for (let i = 0; i < 5; i++) {
        const started = performance.now();
        // A distinct tail each time: five identical refusals would be a loop.
        const { status, verdict } = await evaluate({
          ...body,
          payload: { ...body.payload, ...tail(body, i) },
        });
        expect(performance.now() - started).toBeLessThan(1000 * slowdown);
        expect(status).toBe(200);
        expect(verdict.error?.code).toBe('DEST_MUTATION');
        judged.push(verdict.latency_ms);
      }
      expect(Math.min(...judged), `host ${slowdown.toFixed(1)}× slower than the reference`).toBeLessThan(
        100 * slowdown,
      );
    }
    const tooLarge = await evaluate({ action: 'db.query', payload: { sql: 'x'.repeat(1_100_000) } });
    expect(tooLarge.status).toBe(413);
    expect(tooLarge.verdict).toMatchObject({ success: false, error: { code: 'PAYLOAD_TOO_LARGE' } });
  });

  describe('loop detection', () => {
    it('refuses the call after N identical failures, counting only failures, until the window cools', async () => {
      const other = await t.newAccount();
      const put = await send('PUT', '/v1/settings/loop', { threshold: 2, window_seconds: 1 }, other.key);
      expect(put.json()).toEqual({ threshold: 2, window_seconds: 1 });
      const failing = { action: 'fs.read', payload: { path: '/etc/passwd' } };
      const codes = [];
      for (let i = 0; i < 4; i++) codes.push((await evaluate(failing, {}, other.key)).verdict.error?.code);
      expect(codes).toEqual([
        'FILESYSTEM_DENIED',
        'FILESYSTEM_DENIED',
        'RATE_LIMIT_EXCEEDED',
        'RATE_LIMIT_EXCEEDED',
      ]);
      const limited = await evaluate(failing, {}, other.key);
      expect(limited.status).toBe(200);
      expect(limited.verdict.error?.message).toMatch(/repeated/);
      // Another payload, or a safe call, is not part of the loop; other accounts are unaffected.
      expect(
        (await evaluate({ action: 'fs.read', payload: { path: '/etc/hosts' } }, {}, other.key)).verdict.error
          ?.code,
      ).toBe('FILESYSTEM_DENIED');
      for (let i = 0; i < 4; i++)
        expect(
          (await evaluate({ action: 'fs.read', payload: { path: 'a' } }, {}, other.key)).verdict.is_safe,
        ).toBe(true);
      expect((await evaluate(failing)).verdict.error?.code).toBe('FILESYSTEM_DENIED');
      await new Promise((r) => setTimeout(r, 1100));
      expect((await evaluate(failing, {}, other.key)).verdict.error?.code).toBe('FILESYSTEM_DENIED');
    });

    it('validates the loop settings', async () => {
      expect((await send('GET', '/v1/settings/loop')).json()).toEqual({ threshold: 3, window_seconds: 60 });
      expect((await send('PUT', '/v1/settings/loop', { threshold: 0, window_seconds: 60 })).statusCode).toBe(
        400,
      );
      expect((await send('PUT', '/v1/settings/loop', { threshold: 3 })).statusCode).toBe(400);
      expect(
        (await send('PUT', '/v1/settings/loop', { threshold: '3', window_seconds: 60 })).statusCode,
      ).toBe(400);
    });
  });

  describe('custom actions', () => {
    const schema = {
      type: 'object',
      additionalProperties: false,
      required: ['channel', 'text'],
      properties: {
        channel: { type: 'string', pattern: '^#[a-z-]+$' },
        text: { type: 'string', maxLength: 4000 },
      },
    };

    it('registers, validates, lists, replaces and removes an account action', async () => {
      const created = await send('PUT', '/v1/actions/slack.post', schema);
      expect(created.statusCode).toBe(201);
      expect(created.json()).toMatchObject({ name: 'slack.post', builtin: false, schema });
      expect(
        (await evaluate({ action: 'slack.post', payload: { channel: '#ops', text: 'hi' } })).verdict.is_safe,
      ).toBe(true);
      const bad = await evaluate({ action: 'slack.post', payload: { channel: 'ops', text: 'hi' } });
      expect(bad.verdict.error).toMatchObject({
        code: 'SCHEMA_MISMATCH',
        message: expect.stringContaining('channel'),
      });
      const invented = await evaluate({
        action: 'slack.post',
        payload: { channel: '#ops', text: 'hi', as_user: true },
      });
      expect(invented.verdict.error?.code).toBe('SCHEMA_MISMATCH');

      const list = (await send('GET', '/v1/actions')).json() as {
        actions: { name: string; builtin: boolean }[];
      };
      expect(list.actions.filter((a) => a.builtin).map((a) => a.name)).toContain('db.query');
      expect(list.actions.find((a) => a.name === 'slack.post')?.builtin).toBe(false);
      expect((await send('GET', '/v1/actions/slack.post')).json()).toMatchObject({ schema });
      expect((await send('GET', '/v1/actions/shell.exec')).json()).toMatchObject({ builtin: true });

      const replaced = await send('PUT', '/v1/actions/slack.post', { ...schema, required: ['channel'] });
      expect(replaced.statusCode).toBe(200);
      expect((await evaluate({ action: 'slack.post', payload: { channel: '#ops' } })).verdict.is_safe).toBe(
        true,
      );

      expect((await send('DELETE', '/v1/actions/slack.post')).json()).toEqual({ success: true });
      expect((await send('GET', '/v1/actions/slack.post')).statusCode).toBe(404);
      expect((await send('DELETE', '/v1/actions/slack.post')).statusCode).toBe(404);
      expect(
        (await evaluate({ action: 'slack.post', payload: { channel: '#ops' } })).verdict.error?.code,
      ).toBe('SCHEMA_MISMATCH');
    });

    it('keeps one account’s actions away from every other account', async () => {
      expect((await send('PUT', '/v1/actions/crm.update', { type: 'object' })).statusCode).toBe(201);
      const other = await t.newAccount();
      expect((await send('GET', '/v1/actions/crm.update', undefined, other.key)).statusCode).toBe(404);
      expect((await send('DELETE', '/v1/actions/crm.update', undefined, other.key)).statusCode).toBe(404);
      expect((await evaluate({ action: 'crm.update', payload: {} }, {}, other.key)).verdict.error?.code).toBe(
        'SCHEMA_MISMATCH',
      );
      expect((await evaluate({ action: 'crm.update', payload: {} })).verdict.is_safe).toBe(true);
    });

    it('refuses built-in names with 409', async () => {
      for (const method of ['PUT', 'DELETE'] as const) {
        const res = await send(
          method,
          '/v1/actions/db.query',
          method === 'PUT' ? { type: 'object' } : undefined,
        );
        expect(res.statusCode).toBe(409);
        expect(res.json().error.message).toMatch(/built-in/);
      }
    });

    it.each([
      ['an unknown type', { type: 'object', properties: { a: { type: 'strng' } } }, /strng|type/],
      [
        'a broken pattern',
        { type: 'object', properties: { a: { type: 'string', pattern: '([a-z' } } },
        /regexp|pattern/,
      ],
      [
        'a backreference',
        { type: 'object', properties: { a: { type: 'string', pattern: '(a)\\1' } } },
        /regexp/,
      ],
      ['an async schema', { $async: true, type: 'object' }, /async/],
      ['a non-object payload', { type: 'string' }, /object/],
      ['an unknown keyword', { type: 'object', requird: ['a'] }, /requird/],
      ['an oversized schema', { type: 'object', description: 'x'.repeat(40_000) }, /larger than/],
      [
        'quadratic uniqueItems',
        { type: 'object', properties: { a: { type: 'array', uniqueItems: true } } },
        /maxItems/,
      ],
    ])('refuses %s with a 400 that says why', async (_name, bad, why) => {
      const res = await send('PUT', '/v1/actions/bad.schema', bad);
      expect(res.statusCode).toBe(400);
      expect(res.json().error.message).toMatch(why);
    });

    it('refuses malformed action names', async () => {
      expect((await send('PUT', '/v1/actions/has%20space', { type: 'object' })).statusCode).toBe(400);
      expect((await send('PUT', `/v1/actions/${'a'.repeat(101)}`, { type: 'object' })).statusCode).toBe(400);
    });

    it('validates a pattern on a long string in linear time', async () => {
      expect(
        (
          await send('PUT', '/v1/actions/pattern.heavy', {
            type: 'object',
            properties: { a: { type: 'string', pattern: 'a*b' } },
          })
        ).statusCode,
      ).toBe(201);
      const started = performance.now();
      const { verdict } = await evaluate({ action: 'pattern.heavy', payload: { a: 'a'.repeat(500_000) } });
      expect(performance.now() - started).toBeLessThan(200);
      expect(verdict.error?.code).toBe('SCHEMA_MISMATCH');
    });
  });

  describe('egress settings', () => {
    it('starts in denylist mode and applies a saved allowlist to the next verdict', async () => {
      const other = await t.newAccount();
      expect((await send('GET', '/v1/settings/egress', undefined, other.key)).json()).toEqual({
        mode: 'denylist',
        trusted_domains: [],
        blocked_domains: [],
      });
      const url = { action: 'http.request', payload: { url: 'https://api.example.com/v1' } };
      const before = await evaluate(url, {}, other.key);
      expect(before.verdict.is_safe).toBe(true);
      const saved = await send(
        'PUT',
        '/v1/settings/egress',
        {
          mode: 'allowlist',
          trusted_domains: ['*.Acme.test', 'github.com', 'github.com'],
          blocked_domains: ['bücher.example'],
        },
        other.key,
      );
      expect(saved.json()).toEqual({
        mode: 'allowlist',
        trusted_domains: ['acme.test', 'github.com'],
        blocked_domains: ['xn--bcher-kva.example'],
      });
      const after = await evaluate(url, {}, other.key);
      expect(after.verdict.error?.code).toBe('EXFILTRATION_BLOCKED');
      expect(
        (
          await evaluate(
            { action: 'http.request', payload: { url: 'https://ci.acme.test/x' } },
            {},
            other.key,
          )
        ).verdict.is_safe,
      ).toBe(true);
      // The policy is part of the hash: the same safe input hashes differently under another policy.
      const sameInput = { action: 'fs.read', payload: { path: 'a.txt' } };
      expect((await evaluate(sameInput, {}, other.key)).verdict.hash).not.toBe(
        (await evaluate(sameInput)).verdict.hash,
      );
    });

    it.each([
      [{ mode: 'allowlist', trusted_domains: ['https://github.com/x'] }, /not a URL/],
      [{ mode: 'allowlist', trusted_domains: ['10.0.0.1'] }, /IP address/],
      [{ mode: 'allowlist', trusted_domains: ['co.uk'] }, /public suffix/],
      [{ mode: 'denylist', blocked_domains: ['localhost'] }, /two labels/],
      [{ mode: 'denylist', blocked_domains: ['exa mple.com'] }, /domain/],
      [{ mode: 'sometimes' }, /mode/],
    ])('refuses %j', async (body, why) => {
      const res = await send('PUT', '/v1/settings/egress', body);
      expect(res.statusCode).toBe(400);
      expect(res.json().error.message).toMatch(why);
    });
  });
});

describe.each(DIALECTS)('two instances on one %s database', (dialect) => {
  let a: TestApp;
  let b: TestApp;
  beforeAll(async () => {
    a = await createTestApp(dialect, { env: { ARBITER_LOG_LEVEL: 'silent' } });
    b = await createTestApp(dialect, { database: a.db, env: { ARBITER_LOG_LEVEL: 'silent' } });
  });
  afterAll(async () => {
    await b.close();
    await a.close();
  });

  it('applies a settings change made on one instance to the other within a second', async () => {
    const evaluateOnB = async () =>
      (
        await b.app.inject({
          method: 'POST',
          url: '/v1/evaluate',
          headers: bearer(a.ownerKey),
          payload: { action: 'http.request', payload: { url: 'https://example.org/' } },
        })
      ).json() as VerdictJson;
    expect((await evaluateOnB()).is_safe).toBe(true);
    const put = await a.app.inject({
      method: 'PUT',
      url: '/v1/settings/egress',
      headers: bearer(a.ownerKey),
      payload: { mode: 'denylist', blocked_domains: ['example.org'] },
    });
    expect(put.statusCode).toBe(200);
    const started = performance.now();
    while ((await evaluateOnB()).is_safe && performance.now() - started < 3000) {
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(performance.now() - started).toBeLessThan(1000);
  });
});
