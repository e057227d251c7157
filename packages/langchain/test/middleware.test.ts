import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { type Arbiter, createArbiter, mapToolCall } from '@arbiter/sdk';
import { fakeModel } from '@langchain/core/testing';
import { Command, MemorySaver } from '@langchain/langgraph';
import { AIMessage, createAgent, type ToolMessage, tool } from 'langchain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createTestApp, type TestApp } from '../../../test/helpers/app.ts';
import { arbiterMiddleware } from '../src/index.ts';

/** Tools whose side effects a test can see. */
function toolbox() {
  const effects: string[] = [];
  const runCommand = tool(
    async ({ command }) => {
      effects.push(`ran ${command}`);
      return `ran ${command}`;
    },
    { name: 'run_command', description: 'Run a shell command', schema: z.object({ command: z.string() }) },
  );
  const readFile = tool(
    async ({ path }) => {
      effects.push(`read ${path}`);
      return `contents of ${path}`;
    },
    { name: 'read_file', description: 'Read a file', schema: z.object({ path: z.string() }) },
  );
  const sendEmail = tool(
    async ({ to }) => {
      effects.push(`mailed ${to}`);
      return 'sent';
    },
    {
      name: 'send_email',
      description: 'Send an email',
      schema: z.object({ to: z.string(), subject: z.string(), body: z.string() }),
    },
  );
  return { tools: [runCommand, readFile, sendEmail], effects };
}

/** The model's scripted turns: one tool call, then a final answer. */
const scripted = (name: string, args: Record<string, unknown>) =>
  fakeModel()
    .respondWithTools([{ name, args, id: 'call-1' }])
    .respond(new AIMessage('done'));

const toolMessage = (messages: unknown[]) =>
  messages.find((m) => (m as { _getType?: () => string })._getType?.() === 'tool') as ToolMessage | undefined;

describe('arbiterMiddleware on a LangChain createAgent loop', () => {
  let t: TestApp;
  let arbiter: Arbiter;
  beforeAll(async () => {
    t = await createTestApp('sqlite');
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const url = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    arbiter = createArbiter({ baseUrl: url, apiKey: t.ownerKey, impactScope: 'external' });
  });
  afterAll(() => t.close());

  it('refuses an unsafe call in wrapToolCall: the tool never runs, the model reads the code', async () => {
    const { tools, effects } = toolbox();
    const agent = createAgent({
      model: scripted('run_command', { command: 'rm -rf /' }),
      tools,
      middleware: [arbiterMiddleware(arbiter)],
    });
    const result = await agent.invoke({ messages: [{ role: 'user', content: 'clean up' }] });
    expect(effects).toEqual([]);
    const refused = toolMessage(result.messages)!;
    expect(refused.status).toBe('error');
    expect(String(refused.content)).toContain('DEST_MUTATION');
    expect(result.messages.at(-1)!.content).toBe('done');
  });

  it('judges a relative path where the tool runs: ../../etc/shadow from /work/x is refused', async () => {
    for (const [path_, options] of [
      ['../../etc/shadow', { cwd: '/work/x' }],
      // By default the tools run in this process's directory.
      [path.relative(process.cwd(), '/etc/shadow'), {}],
    ] as const) {
      const { tools, effects } = toolbox();
      const agent = createAgent({
        model: scripted('read_file', { path: path_ }),
        tools,
        middleware: [arbiterMiddleware(arbiter, options)],
      });
      const result = await agent.invoke({ messages: [{ role: 'user', content: 'read it' }] });
      expect(effects).toEqual([]);
      expect(String(toolMessage(result.messages)!.content)).toContain('FILESYSTEM_DENIED');
    }
  });

  it('passes a safe call to the tool', async () => {
    const { tools, effects } = toolbox();
    const agent = createAgent({
      model: scripted('run_command', { command: 'ls -la' }),
      tools,
      middleware: [arbiterMiddleware(arbiter)],
    });
    const result = await agent.invoke({ messages: [{ role: 'user', content: 'look around' }] });
    expect(effects).toEqual(['ran ls -la']);
    expect(String(toolMessage(result.messages)!.content)).toBe('ran ls -la');
  });

  describe('a call Arbiter does not recognise becomes a human-in-the-loop interrupt', () => {
    const purge = { command: 'frobctl --purge-all' };
    const start = async (thread: string) => {
      const { tools, effects } = toolbox();
      const agent = createAgent({
        model: scripted('run_command', purge),
        tools,
        middleware: [arbiterMiddleware(arbiter)],
        checkpointer: new MemorySaver(),
      });
      const config = { configurable: { thread_id: thread } };
      const first = await agent.invoke({ messages: [{ role: 'user', content: 'purge it' }] }, config);
      return { agent, config, first, effects };
    };

    it('names what was not understood and what it may do; nothing runs until a person approves', async () => {
      const { agent, config, first, effects } = await start('unrecognised-approve');
      const interrupts = (first as { __interrupt__?: Array<{ value: unknown }> }).__interrupt__;
      expect(interrupts?.[0]?.value).toMatchObject({
        actionRequests: [
          {
            name: 'run_command',
            args: purge,
            description:
              'Arbiter asks before this call runs (UNRECOGNISED): Arbiter does not know what this does: unknown program "frobctl"; it may execute frobctl',
          },
        ],
        reviewConfigs: [{ actionName: 'run_command', allowedDecisions: ['approve', 'reject'] }],
      });
      expect(effects).toEqual([]);
      const resumed = await agent.invoke(
        new Command({ resume: { decisions: [{ type: 'approve' }] } }),
        config,
      );
      expect(effects).toEqual(['ran frobctl --purge-all']);
      expect(resumed.messages.at(-1)!.content).toBe('done');
    });

    it('a rejection never runs the tool and tells the model why', async () => {
      const { agent, config, effects } = await start('unrecognised-reject');
      const resumed = await agent.invoke(
        new Command({ resume: { decisions: [{ type: 'reject', message: 'not on production' }] } }),
        config,
      );
      expect(effects).toEqual([]);
      expect(String(toolMessage(resumed.messages)!.content)).toContain('NOT_APPROVED: not on production');
    });
  });

  describe('ESCALATE becomes a human-in-the-loop interrupt', () => {
    // The account knows sending mail as email.send; an assistant mailing outside is a human's call.
    const middleware = () =>
      arbiterMiddleware(arbiter, {
        map: (call) =>
          call.name === 'send_email'
            ? { kind: 'judgment', action_type: 'email.send', payload: call.args }
            : mapToolCall(call),
      });
    const email = { to: 'partner@example.com', subject: 'Offer', body: 'Hello' };

    it('nothing runs until a human approves; then the tool runs', async () => {
      const { tools, effects } = toolbox();
      const agent = createAgent({
        model: scripted('send_email', email),
        tools,
        middleware: [middleware()],
        checkpointer: new MemorySaver(),
      });
      const config = { configurable: { thread_id: 'approve' } };
      const first = await agent.invoke(
        { messages: [{ role: 'user', content: 'email the partner' }] },
        config,
      );
      const interrupts = (first as { __interrupt__?: Array<{ value: unknown }> }).__interrupt__;
      expect(interrupts?.[0]?.value).toMatchObject({
        actionRequests: [{ name: 'send_email', args: email }],
        reviewConfigs: [{ actionName: 'send_email', allowedDecisions: ['approve', 'reject'] }],
      });
      expect(effects).toEqual([]);

      const resumed = await agent.invoke(
        new Command({ resume: { decisions: [{ type: 'approve' }] } }),
        config,
      );
      expect(effects).toEqual(['mailed partner@example.com']);
      expect(resumed.messages.at(-1)!.content).toBe('done');
    });

    it('a rejection never runs the tool and tells the model why', async () => {
      const { tools, effects } = toolbox();
      const agent = createAgent({
        model: scripted('send_email', email),
        tools,
        middleware: [middleware()],
        checkpointer: new MemorySaver(),
      });
      const config = { configurable: { thread_id: 'reject' } };
      await agent.invoke({ messages: [{ role: 'user', content: 'email the partner' }] }, config);
      const resumed = await agent.invoke(
        new Command({ resume: { decisions: [{ type: 'reject', message: 'not this week' }] } }),
        config,
      );
      expect(effects).toEqual([]);
      expect(String(toolMessage(resumed.messages)!.content)).toContain('ESCALATION_DENIED: not this week');
    });
  });
});
