import type { AddressInfo } from 'node:net';
import { createArbiter } from '@arbiter/sdk';
import { describe, expect, it } from 'vitest';
import { decideToolCall, GuardConfigSchema, mapGuardedCall } from '../../src/integrations/mcp-guard.ts';
import { createTestApp } from '../helpers/app.ts';

const config = GuardConfigSchema.parse({
  tools: {
    publish: { action_type: 'fs.write' },
    run_query: { action: 'db.query', payload: { sql: 'query' } },
  },
});

describe('the guard decides one call', () => {
  it('maps by its configuration first, then by argument names', () => {
    expect(mapGuardedCall(config, 'run_query', { query: 'select 1', limit: 3 })).toEqual({
      kind: 'verdict',
      action: 'db.query',
      payload: { sql: 'select 1' },
    });
    expect(mapGuardedCall(config, 'publish', { path: 'a', content: 'b' })).toEqual({
      kind: 'judgment',
      action_type: 'fs.write',
      payload: { path: 'a', content: 'b' },
    });
    expect(mapGuardedCall(config, 'read_file', { path: 'a' })).toMatchObject({
      kind: 'verdict',
      action: 'fs.read',
    });
    expect(() => GuardConfigSchema.parse({ tools: { x: { action: 'shell.exec', extra: 1 } } })).toThrow();
  });

  it("resolves relative paths against the server's directory, configured mappings included", () => {
    const cat = GuardConfigSchema.parse({ tools: { cat: { action: 'fs.read', payload: { path: 'file' } } } });
    expect(mapGuardedCall(cat, 'cat', { file: '../../etc/shadow' }, '/work/x')).toEqual({
      kind: 'verdict',
      action: 'fs.read',
      payload: { path: '/etc/shadow' },
    });
    expect(mapGuardedCall(config, 'read_file', { path: '../../etc/shadow' }, '/work/x')).toEqual({
      kind: 'verdict',
      action: 'fs.read',
      payload: { path: '/etc/shadow' },
    });
    expect(mapGuardedCall(config, 'run', { command: 'ls' }, '/work/x')).toEqual({
      kind: 'verdict',
      action: 'shell.exec',
      payload: { command: 'ls', cwd: '/work/x' },
    });
    // Without a directory, the guard's own.
    expect(mapGuardedCall(config, 'read_file', { path: 'a' }).payload).toEqual({
      path: `${process.cwd()}/a`,
    });
  });

  it('refuses an escalated call when Arbiter goes away while a human decides', async () => {
    const t = await createTestApp('sqlite');
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const url = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    const arbiter = createArbiter({ baseUrl: url, apiKey: t.ownerKey, impactScope: 'external', retries: 0 });
    const deciding = decideToolCall(
      arbiter,
      { config, approvalTimeoutMs: 20_000, approvalIntervalMs: 50 },
      'publish',
      {
        path: 'site/index.html',
        content: 'hello',
      },
    );
    // Once the escalation is pending, the service stops.
    for (;;) {
      const { evaluations } = await t.container.judgment.list(t.ownerId, { status: 'pending' });
      if (evaluations.length > 0) break;
      await new Promise((r) => setTimeout(r, 20));
    }
    await t.close();
    const decided = await deciding;
    expect(decided.forward).toBe(false);
    expect(decided).toMatchObject({ result: { isError: true } });
    expect(JSON.stringify(decided)).toMatch(/UNREACHABLE: while waiting for a human/);
  });
});
