import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { type Arbiter, createArbiter, type GuardDecision, mapToolCall } from '@arbiter/sdk';
import {
  Agent,
  type AgentOutputItem,
  type Model,
  type ModelRequest,
  type ModelResponse,
  run,
  setTracingDisabled,
  tool,
  Usage,
} from '@openai/agents';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createTestApp, type TestApp } from '../../../test/helpers/app.ts';
import { arbiterGuard } from '../src/index.ts';

setTracingDisabled(true);

/** A scripted model speaking the Agents SDK's Model interface: one tool call, then a final answer. */
class ScriptedModel implements Model {
  readonly requests: ModelRequest[] = [];
  constructor(private readonly call: { name: string; args: Record<string, unknown> }) {}

  async getResponse(request: ModelRequest): Promise<ModelResponse> {
    this.requests.push(request);
    const output: AgentOutputItem[] =
      this.requests.length === 1
        ? [
            {
              type: 'function_call',
              callId: 'call-1',
              name: this.call.name,
              arguments: JSON.stringify(this.call.args),
              status: 'completed',
            },
          ]
        : [
            {
              type: 'message',
              role: 'assistant',
              status: 'completed',
              content: [{ type: 'output_text', text: 'done' }],
            },
          ];
    return { usage: new Usage(), output, responseId: `resp-${this.requests.length}` };
  }

  getStreamedResponse(): AsyncIterable<never> {
    throw new Error('the scripted model does not stream');
  }
}

/** What the model was told about the tool call, on its second turn. */
function toolOutputSeen(model: ScriptedModel): string {
  const input = model.requests[1]?.input;
  const items = Array.isArray(input) ? input : [];
  const output = items.find((i) => (i as { type?: string }).type === 'function_call_result') as
    | { output: unknown }
    | undefined;
  return JSON.stringify(output?.output ?? null);
}

function toolbox() {
  const effects: string[] = [];
  const runCommand = tool({
    name: 'run_command',
    description: 'Run a shell command',
    parameters: z.object({ command: z.string() }),
    execute: async ({ command }) => {
      effects.push(`ran ${command}`);
      return `ran ${command}`;
    },
  });
  const readFile = tool({
    name: 'read_file',
    description: 'Read a file',
    parameters: z.object({ path: z.string() }),
    execute: async ({ path }) => {
      effects.push(`read ${path}`);
      return `contents of ${path}`;
    },
  });
  const sendEmail = tool({
    name: 'send_email',
    description: 'Send an email',
    parameters: z.object({ to: z.string(), subject: z.string(), body: z.string() }),
    execute: async ({ to }) => {
      effects.push(`mailed ${to}`);
      return 'sent';
    },
  });
  return { runCommand, readFile, sendEmail, effects };
}

describe('arbiterGuard on the OpenAI Agents JS runner', () => {
  let t: TestApp;
  let arbiter: Arbiter;
  beforeAll(async () => {
    t = await createTestApp('sqlite');
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const url = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    arbiter = createArbiter({ baseUrl: url, apiKey: t.ownerKey, impactScope: 'external' });
  });
  afterAll(() => t.close());

  it('rejects an unsafe call in the tool input guardrail: execute never runs, the model gets the reason', async () => {
    const { runCommand, effects } = toolbox();
    const model = new ScriptedModel({ name: 'run_command', args: { command: 'rm -rf /' } });
    const agent = new Agent({
      name: 'ops',
      instructions: 'help',
      model,
      tools: [arbiterGuard(arbiter).guard(runCommand)],
    });
    const result = await run(agent, 'clean up');
    expect(effects).toEqual([]);
    expect(toolOutputSeen(model)).toContain('DEST_MUTATION');
    expect(result.finalOutput).toBe('done');
  });

  it('judges a relative path where the tool runs: ../../etc/shadow from /work/x is refused', async () => {
    for (const [path_, options] of [
      ['../../etc/shadow', { cwd: '/work/x' }],
      // By default the tools run in this process's directory.
      [path.relative(process.cwd(), '/etc/shadow'), {}],
    ] as const) {
      const { readFile, effects } = toolbox();
      const model = new ScriptedModel({ name: 'read_file', args: { path: path_ } });
      const agent = new Agent({
        name: 'ops',
        instructions: 'help',
        model,
        tools: [arbiterGuard(arbiter, options).guard(readFile)],
      });
      await run(agent, 'read it');
      expect(effects).toEqual([]);
      expect(toolOutputSeen(model)).toContain('FILESYSTEM_DENIED');
    }
  });

  it('lets a safe call run', async () => {
    const { runCommand, effects } = toolbox();
    const model = new ScriptedModel({ name: 'run_command', args: { command: 'ls -la' } });
    const agent = new Agent({
      name: 'ops',
      instructions: 'help',
      model,
      tools: [arbiterGuard(arbiter).guard(runCommand)],
    });
    const result = await run(agent, 'look around');
    expect(effects).toEqual(['ran ls -la']);
    expect(toolOutputSeen(model)).toContain('ran ls -la');
    expect(result.finalOutput).toBe('done');
  });

  it('turns a call Arbiter does not recognise into needsApproval: interrupted, run once approved, never if rejected', async () => {
    const { runCommand, effects } = toolbox();
    const decisions: GuardDecision[] = [];
    const guard = arbiterGuard(createArbiter({ ...arbiter.options, onDecision: (d) => decisions.push(d) }));
    const ask = async (decide: 'approve' | 'reject') => {
      const model = new ScriptedModel({ name: 'run_command', args: { command: 'frobctl --purge-all' } });
      const agent = new Agent({ name: 'ops', instructions: 'help', model, tools: [guard.guard(runCommand)] });
      const first = await run(agent, 'purge it');
      expect(first.interruptions).toHaveLength(1);
      expect(effects).toEqual([]);
      first.state[decide](first.interruptions[0]!);
      return run(agent, first.state);
    };
    await ask('reject');
    expect(effects).toEqual([]);
    expect(decisions[0]).toMatchObject({
      decision: 'ask',
      code: 'UNRECOGNISED',
      reason: 'Arbiter does not know what this does: unknown program "frobctl"; it may execute frobctl',
    });
    const approved = await ask('approve');
    expect(effects).toEqual(['ran frobctl --purge-all']);
    expect(approved.finalOutput).toBe('done');
  });

  it("leaves a safe, recognised call to the tool's own needsApproval", async () => {
    const { effects } = toolbox();
    const own = tool({
      name: 'run_command',
      description: 'Run a shell command',
      parameters: z.object({ command: z.string() }),
      needsApproval: true,
      execute: async ({ command }) => {
        effects.push(`ran ${command}`);
        return `ran ${command}`;
      },
    });
    const model = new ScriptedModel({ name: 'run_command', args: { command: 'ls -la' } });
    const agent = new Agent({
      name: 'ops',
      instructions: 'help',
      model,
      tools: [arbiterGuard(arbiter).guard(own)],
    });
    const first = await run(agent, 'look around');
    expect(first.interruptions).toHaveLength(1);
    expect(effects).toEqual([]);
  });

  it('turns ESCALATE into needsApproval: the run is interrupted, and the tool runs once approved', async () => {
    const { sendEmail, effects } = toolbox();
    const guard = arbiterGuard(arbiter, {
      // The account knows sending mail as email.send; an assistant mailing outside is a human's call.
      map: (call) =>
        call.name === 'send_email'
          ? { kind: 'judgment', action_type: 'email.send', payload: call.args }
          : mapToolCall(call),
    });
    const model = new ScriptedModel({
      name: 'send_email',
      args: { to: 'partner@example.com', subject: 'Offer', body: 'Hello' },
    });
    const agent = new Agent({ name: 'mailer', instructions: 'help', model, tools: [guard.guard(sendEmail)] });
    const first = await run(agent, 'email the partner');
    expect(first.interruptions).toHaveLength(1);
    expect(effects).toEqual([]);

    first.state.approve(first.interruptions[0]!);
    const resumed = await run(agent, first.state);
    expect(effects).toEqual(['mailed partner@example.com']);
    expect(resumed.finalOutput).toBe('done');
  });

  it('a rejected approval never runs the tool', async () => {
    const { sendEmail, effects } = toolbox();
    const guard = arbiterGuard(arbiter, {
      map: (call) => ({ kind: 'judgment', action_type: 'email.send', payload: call.args }),
    });
    const model = new ScriptedModel({
      name: 'send_email',
      args: { to: 'partner@example.com', subject: 'Offer', body: 'Hello' },
    });
    const agent = new Agent({ name: 'mailer', instructions: 'help', model, tools: [guard.guard(sendEmail)] });
    const first = await run(agent, 'email the partner');
    first.state.reject(first.interruptions[0]!);
    await run(agent, first.state);
    expect(effects).toEqual([]);
  });
});
