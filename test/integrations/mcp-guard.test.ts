import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import {
  type ElicitRequest,
  ElicitRequestSchema,
  type ElicitResult,
  ListRootsRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN } from '../helpers/process.ts';
import { type RunningService, secondKey, startService } from './service.ts';

const SERVER = path.resolve('test/integrations/fixtures/recording-mcp-server.mjs');

interface Guarded {
  client: Client;
  /** Resolves once the guard asked the client for its roots (when the client has roots). */
  rootsAsked: Promise<void>;
  /** The calls the wrapped server received. */
  received(): Array<{ tool: string; args: Record<string, unknown> }>;
  close(): Promise<void>;
}

/**
 * A real MCP client → `arbiter mcp guard` (started in `cwd`, by default this one) → the recording
 * MCP server. With `elicit`, the client offers elicitation and answers each `elicitation/create`
 * with it; with `roots`, it offers those directories as its MCP roots.
 */
async function guarded(
  env: Record<string, string>,
  guardArgs: string[] = [],
  cwd?: string,
  elicit?: (request: ElicitRequest['params']) => ElicitResult | Promise<ElicitResult>,
  roots?: string[],
): Promise<Guarded> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'arbiter-guard-'));
  const recordFile = path.join(dir, 'calls.jsonl');
  fs.writeFileSync(recordFile, '');
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, 'mcp', 'guard', ...guardArgs, '--', process.execPath, SERVER],
    env: { ...(process.env as Record<string, string>), ...env, RECORD_FILE: recordFile },
    stderr: 'pipe',
    ...(cwd ? { cwd } : {}),
  });
  const client = new Client(
    { name: 'guard-test', version: '1.0.0' },
    {
      capabilities: {
        ...(elicit ? { elicitation: { form: {} } } : {}),
        ...(roots ? { roots: { listChanged: true } } : {}),
      },
    },
  );
  if (elicit) client.setRequestHandler(ElicitRequestSchema, (request) => elicit(request.params));
  let asked = () => {};
  const rootsAsked = new Promise<void>((resolve) => {
    asked = resolve;
  });
  if (roots)
    client.setRequestHandler(ListRootsRequestSchema, () => {
      asked();
      return { roots: roots.map((dir) => ({ uri: pathToFileURL(dir).href })) };
    });
  await client.connect(transport);
  return {
    client,
    rootsAsked,
    received: () =>
      fs
        .readFileSync(recordFile, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line)),
    async close() {
      await client.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

const text = (result: unknown) =>
  ((result as { content: Array<{ text: string }> }).content[0]?.text ?? '') as string;

// Every case starts processes of the CLI; a busy machine makes them slow, not wrong.
describe('arbiter mcp guard', { timeout: 120_000 }, () => {
  let service: RunningService;
  beforeAll(async () => {
    service = await startService();
  });
  afterAll(() => service.stop());

  it('refuses unsafe calls as tool errors that never reach the server, and passes safe ones', async () => {
    const g = await guarded(service.env);
    try {
      expect((await g.client.listTools()).tools.map((t) => t.name).sort()).toEqual([
        'delete_path',
        'execute_command',
        'publish_note',
        'read_file',
      ]);
      const shadow = await g.client.callTool({ name: 'read_file', arguments: { path: '/etc/shadow' } });
      expect(shadow.isError).toBe(true);
      expect(text(shadow)).toMatch(/^FILESYSTEM_DENIED: /);
      const indirect = await g.client.callTool({
        name: 'execute_command',
        arguments: { command: 'X=rm; $X -rf /' },
      });
      expect(indirect.isError).toBe(true);
      expect(text(indirect)).toMatch(/^[A-Z_]+: /);
      expect(g.received()).toEqual([]);

      const readme = await g.client.callTool({ name: 'read_file', arguments: { path: 'README.md' } });
      expect(readme.isError).toBeFalsy();
      expect(text(readme)).toBe('contents of README.md');
      expect(g.received()).toEqual([{ tool: 'read_file', args: { path: 'README.md' } }]);
    } finally {
      await g.close();
    }
  });

  it("judges relative paths from the wrapped server's directory: ../../etc/shadow from there is refused", async () => {
    // A directory of its own, so that the way up to /etc/shadow is relative: ../../etc/shadow from /tmp/x.
    const where = fs.mkdtempSync(path.join(os.tmpdir(), 'arbiter-guard-cwd-'));
    const shadow = path.relative(where, '/etc/shadow');
    expect(shadow).toMatch(/^(\.\.\/)+etc\/shadow$/);
    const pidFile = path.join(where, 'server.json');
    // The server runs where the guard runs, or in --cwd.
    const own = await guarded(service.env, [], where);
    const configured = await guarded({ ...service.env, PID_FILE: pidFile }, ['--cwd', where]);
    try {
      for (const g of [own, configured]) {
        const read = await g.client.callTool({ name: 'read_file', arguments: { path: shadow } });
        expect(read.isError).toBe(true);
        expect(text(read)).toMatch(/^FILESYSTEM_DENIED: .*\/etc\/shadow/);
        const cat = await g.client.callTool({
          name: 'execute_command',
          arguments: { command: `cat ${shadow}` },
        });
        expect(cat.isError).toBe(true);
        expect(text(cat)).toMatch(/^FILESYSTEM_DENIED: /);
        // Resolving the path does not hide the wipe of the server's own working tree.
        const wipe = await g.client.callTool({
          name: 'delete_path',
          arguments: { path: '.', recursive: true },
        });
        expect(wipe.isError).toBe(true);
        expect(text(wipe)).toMatch(/^DEST_MUTATION: /);
        expect(g.received()).toEqual([]);

        // The server receives the call as the client made it.
        const notes = await g.client.callTool({ name: 'read_file', arguments: { path: 'notes/a.md' } });
        expect(notes.isError).toBeFalsy();
        expect(g.received()).toEqual([{ tool: 'read_file', args: { path: 'notes/a.md' } }]);
      }
      expect(JSON.parse(fs.readFileSync(pidFile, 'utf8')).cwd).toBe(fs.realpathSync(where));
    } finally {
      await Promise.all([own.close(), configured.close()]);
      fs.rmSync(where, { recursive: true, force: true });
    }
  });

  it("sends the client's roots as the workspace: files there are the agent's own, its keys are not", async () => {
    const g = await guarded(service.env, [], undefined, undefined, ['/root']);
    const plain = await guarded(service.env);
    try {
      await g.rootsAsked;
      // A round trip after the roots were asked: the client's answer, sent first, has been read.
      await g.client.listTools();
      const csv = await g.client.callTool({
        name: 'read_file',
        arguments: { path: '/root/security_audit.csv' },
      });
      expect(csv.isError).toBeFalsy();
      const keys = await g.client.callTool({ name: 'read_file', arguments: { path: '/root/.ssh/id_rsa' } });
      expect(text(keys)).toMatch(/^FILESYSTEM_DENIED: /);
      expect(g.received()).toEqual([{ tool: 'read_file', args: { path: '/root/security_audit.csv' } }]);
      // A client without roots says nothing about where the agent works.
      const elsewhere = await plain.client.callTool({
        name: 'read_file',
        arguments: { path: '/root/security_audit.csv' },
      });
      expect(text(elsewhere)).toMatch(/^FILESYSTEM_DENIED: .*superuser's home/);
    } finally {
      await Promise.all([g.close(), plain.close()]);
    }
  });

  it('refuses a call Arbiter does not recognise when the client cannot ask, naming what it may do', async () => {
    const g = await guarded(service.env);
    try {
      const unknown = await g.client.callTool({
        name: 'execute_command',
        arguments: { command: 'frobctl --purge-all' },
      });
      expect(unknown.isError).toBe(true);
      expect(text(unknown)).toBe(
        'UNRECOGNISED: Arbiter does not know what this does: unknown program "frobctl"; it may execute frobctl; refused, as this MCP client cannot ask a person (it does not offer elicitation)',
      );
      const iam = await g.client.callTool({
        name: 'execute_command',
        arguments: { command: 'aws iam attach-user-policy --user-name ci --policy-arn x' },
      });
      expect(text(iam)).toMatch(
        /^UNRECOGNISED: .*"aws iam attach-user-policy" is a aws operation Arbiter does not model; it may remote_mutation aws iam attach-user-policy; refused/,
      );
      expect(g.received()).toEqual([]);
    } finally {
      await g.close();
    }
  });

  it('asks the person through elicitation where the client offers it: allowed once runs, declined does not', async () => {
    const asked: ElicitRequest['params'][] = [];
    const answers: ElicitResult[] = [
      { action: 'accept', content: { allow: true } },
      { action: 'decline' },
      { action: 'accept', content: { allow: false } },
    ];
    const g = await guarded(service.env, [], undefined, (request) => {
      asked.push(request);
      return answers[asked.length - 1] ?? { action: 'cancel' };
    });
    try {
      const allowed = await g.client.callTool({
        name: 'execute_command',
        arguments: { command: 'frobctl --purge-all' },
      });
      expect(allowed.isError).toBeFalsy();
      expect(text(allowed)).toBe('ran frobctl --purge-all');
      expect(asked[0]).toMatchObject({
        message:
          'Arbiter does not know what this does: unknown program "frobctl"; it may execute frobctl.\n\nexecute_command {"command":"frobctl --purge-all"}\n\nRun this call once?',
        requestedSchema: { type: 'object', properties: { allow: { type: 'boolean', default: false } } },
      });

      const declined = await g.client.callTool({
        name: 'execute_command',
        arguments: { command: 'frobctl x' },
      });
      expect(declined.isError).toBe(true);
      expect(text(declined)).toMatch(
        /^UNRECOGNISED: Arbiter does not know what this does: unknown program "frobctl"; it may execute frobctl; the person did not allow it \(decline\)$/,
      );
      const unticked = await g.client.callTool({
        name: 'execute_command',
        arguments: { command: 'frobctl y' },
      });
      expect(text(unticked)).toMatch(/; the person did not allow it$/);

      // Unsafe is refused without a question; safe and recognised runs without one.
      const unsafe = await g.client.callTool({ name: 'execute_command', arguments: { command: 'rm -rf /' } });
      expect(text(unsafe)).toMatch(/^DEST_MUTATION: /);
      const safe = await g.client.callTool({ name: 'read_file', arguments: { path: 'README.md' } });
      expect(safe.isError).toBeFalsy();
      expect(asked).toHaveLength(3);
      expect(g.received()).toEqual([
        { tool: 'execute_command', args: { command: 'frobctl --purge-all' } },
        { tool: 'read_file', args: { path: 'README.md' } },
      ]);
    } finally {
      await g.close();
    }
  });

  it('refuses a call the person leaves unanswered past --approval-timeout', async () => {
    const g = await guarded(service.env, ['--approval-timeout', '1'], undefined, () => new Promise(() => {}));
    try {
      const unanswered = await g.client.callTool({
        name: 'execute_command',
        arguments: { command: 'frobctl z' },
      });
      expect(text(unanswered)).toMatch(/^UNRECOGNISED: .*; the person did not answer within 1 s$/);
      expect(g.received()).toEqual([]);
    } finally {
      await g.close();
    }
  });

  it('fails closed when Arbiter is down, open with --fail-open, and only records in --monitor', async () => {
    const down = { ARBITER_URL: 'http://127.0.0.1:9', ARBITER_API_KEY: service.key };
    const closed = await guarded(down);
    const open = await guarded(down, ['--fail-open']);
    const monitor = await guarded(service.env, ['--monitor']);
    try {
      const refused = await closed.client.callTool({ name: 'execute_command', arguments: { command: 'ls' } });
      expect(refused.isError).toBe(true);
      expect(text(refused)).toMatch(/^UNREACHABLE: /);
      expect(closed.received()).toEqual([]);
      const let_through = await open.client.callTool({
        name: 'execute_command',
        arguments: { command: 'ls' },
      });
      expect(let_through.isError).toBeFalsy();
      expect(open.received()).toHaveLength(1);
      const monitored = await monitor.client.callTool({
        name: 'read_file',
        arguments: { path: '/etc/shadow' },
      });
      expect(monitored.isError).toBeFalsy();
      expect(monitor.received()).toEqual([{ tool: 'read_file', args: { path: '/etc/shadow' } }]);
    } finally {
      await Promise.all([closed.close(), open.close(), monitor.close()]);
    }
  });

  it('holds an escalated call until a human decides: approved reaches the server, denied does not', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'arbiter-guard-config-'));
    const config = path.join(dir, 'guard.json');
    // publish_note is judged as a file write by an assistant, outside the organisation: a human decides.
    fs.writeFileSync(
      config,
      JSON.stringify({
        actor: 'notes-agent',
        impact_scope: 'external',
        tools: { publish_note: { action_type: 'fs.write' } },
      }),
    );
    const approver = await secondKey(service);
    const g = await guarded(service.env, ['--config', config, '--approval-timeout', '20']);
    const decideNext = async (verdict: 'approve' | 'deny') => {
      for (;;) {
        const res = await fetch(`${service.url}/v2/actions/evaluations?status=pending&actor=notes-agent`, {
          headers: { authorization: `Bearer ${approver}` },
        });
        const { evaluations } = (await res.json()) as { evaluations: Array<{ evaluation_id: string }> };
        const pending = evaluations[0];
        if (pending) {
          const decided = await fetch(
            `${service.url}/v2/actions/evaluations/${pending.evaluation_id}/${verdict}`,
            {
              method: 'POST',
              headers: { authorization: `Bearer ${approver}`, 'content-type': 'application/json' },
              body: JSON.stringify({ comment: `${verdict} by the test` }),
            },
          );
          expect(decided.status).toBe(200);
          return;
        }
        await new Promise((r) => setTimeout(r, 100));
      }
    };
    try {
      const [approved] = await Promise.all([
        g.client.callTool({ name: 'publish_note', arguments: { path: 'notes/a.md', content: 'hello' } }),
        decideNext('approve'),
      ]);
      expect(approved.isError).toBeFalsy();
      expect(g.received()).toEqual([
        { tool: 'publish_note', args: { path: 'notes/a.md', content: 'hello' } },
      ]);

      const [denied] = await Promise.all([
        g.client.callTool({ name: 'publish_note', arguments: { path: 'notes/b.md', content: 'bye' } }),
        decideNext('deny'),
      ]);
      expect(denied.isError).toBe(true);
      expect(text(denied)).toMatch(/^ESCALATION_DENIED: the escalation was denied: deny by the test/);
      expect(g.received()).toHaveLength(1);
    } finally {
      await g.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses to start with a configuration that does not parse', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'arbiter-guard-config-'));
    const config = path.join(dir, 'guard.json');
    fs.writeFileSync(config, JSON.stringify({ tools: { x: { action: 'shell.exec', oops: true } } }));
    try {
      await expect(guarded(service.env, ['--config', config])).rejects.toThrow();
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
