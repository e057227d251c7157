import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { type Arbiter, createArbiter, type GuardDecision, mapToolCall } from '@arbiter/sdk';
import { generateText, type ModelMessage, stepCountIs, tool } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createTestApp, type TestApp } from '../../../test/helpers/app.ts';
import { guardTools } from '../src/index.ts';

const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 1, text: 1, reasoning: undefined },
};

/** A scripted model: first it calls one tool, then it answers with text. */
function scriptedModel(toolName: string, input: Record<string, unknown>) {
  return new MockLanguageModelV3({
    doGenerate: [
      {
        content: [{ type: 'tool-call', toolCallId: 'call-1', toolName, input: JSON.stringify(input) }],
        finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
        usage,
        warnings: [],
      },
      {
        content: [{ type: 'text', text: 'done' }],
        finishReason: { unified: 'stop', raw: 'stop' },
        usage,
        warnings: [],
      },
    ],
  });
}

/** Tools whose side effects a test can see. */
function toolbox() {
  const effects: string[] = [];
  const tools = {
    run_command: tool({
      description: 'Run a shell command',
      inputSchema: z.object({ command: z.string() }),
      execute: async ({ command }) => {
        effects.push(`ran ${command}`);
        return `ran ${command}`;
      },
    }),
    read_file: tool({
      description: 'Read a file',
      inputSchema: z.object({ path: z.string() }),
      execute: async ({ path }) => {
        effects.push(`read ${path}`);
        return `contents of ${path}`;
      },
    }),
    send_email: tool({
      description: 'Send an email',
      inputSchema: z.object({ to: z.string(), subject: z.string(), body: z.string() }),
      execute: async ({ to }) => {
        effects.push(`mailed ${to}`);
        return 'sent';
      },
    }),
  };
  return { tools, effects };
}

describe('guardTools on the Vercel AI SDK agent loop', () => {
  let t: TestApp;
  let arbiter: Arbiter;
  beforeAll(async () => {
    t = await createTestApp('sqlite');
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const url = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    arbiter = createArbiter({ baseUrl: url, apiKey: t.ownerKey, impactScope: 'external' });
  });
  afterAll(() => t.close());

  it('refuses an unsafe call before execute runs: the model sees a tool error, nothing happened', async () => {
    const { tools, effects } = toolbox();
    const result = await generateText({
      model: scriptedModel('run_command', { command: 'rm -rf /' }),
      tools: guardTools(tools, arbiter),
      prompt: 'clean up',
      stopWhen: stepCountIs(3),
    });
    expect(effects).toEqual([]);
    const error = result.steps[0]!.content.find((p) => p.type === 'tool-error');
    expect(String((error as { error: unknown }).error)).toContain('DEST_MUTATION');
    expect(result.text).toBe('done');
  });

  it('judges a relative path where the tool runs: ../../etc/shadow from /work/x is refused', async () => {
    for (const [path_, options] of [
      ['../../etc/shadow', { cwd: '/work/x' }],
      // By default the tools run in this process's directory.
      [path.relative(process.cwd(), '/etc/shadow'), {}],
    ] as const) {
      const { tools, effects } = toolbox();
      const result = await generateText({
        model: scriptedModel('read_file', { path: path_ }),
        tools: guardTools(tools, arbiter, options),
        prompt: 'read it',
        stopWhen: stepCountIs(3),
      });
      expect(effects).toEqual([]);
      const error = result.steps[0]!.content.find((p) => p.type === 'tool-error');
      expect(String((error as { error: unknown }).error)).toContain('FILESYSTEM_DENIED');
    }
  });

  it('passes a safe call through to execute', async () => {
    const { tools, effects } = toolbox();
    const result = await generateText({
      model: scriptedModel('run_command', { command: 'ls -la' }),
      tools: guardTools(tools, arbiter),
      prompt: 'look around',
      stopWhen: stepCountIs(3),
    });
    expect(effects).toEqual(['ran ls -la']);
    expect(result.steps[0]!.content.find((p) => p.type === 'tool-result')).toMatchObject({
      output: 'ran ls -la',
    });
  });

  it("turns a call Arbiter does not recognise into the AI SDK's tool approval: nothing runs until approved", async () => {
    const { tools, effects } = toolbox();
    const decisions: GuardDecision[] = [];
    const watched = createArbiter({ ...arbiter.options, onDecision: (d) => decisions.push(d) });
    const guarded = guardTools(tools, watched);
    const model = scriptedModel('run_command', { command: 'frobctl --purge-all' });
    const prompt: ModelMessage[] = [{ role: 'user', content: 'purge it' }];
    const first = await generateText({ model, tools: guarded, messages: prompt, stopWhen: stepCountIs(3) });
    const request = first.content.find((p) => p.type === 'tool-approval-request');
    expect(request).toMatchObject({ toolCall: { toolName: 'run_command' } });
    expect(effects).toEqual([]);
    // What the application shows the person: what was not understood and what it may do.
    expect(decisions[0]).toMatchObject({
      decision: 'ask',
      code: 'UNRECOGNISED',
      reason: 'Arbiter does not know what this does: unknown program "frobctl"; it may execute frobctl',
    });

    const denied = await generateText({
      model,
      tools: guarded,
      messages: [
        ...prompt,
        ...first.response.messages,
        {
          role: 'tool',
          content: [
            {
              type: 'tool-approval-response',
              approvalId: (request as { approvalId: string }).approvalId,
              approved: false,
            },
          ],
        },
      ],
      stopWhen: stepCountIs(3),
    });
    expect(effects).toEqual([]);
    expect(denied.text).toBe('done');

    const retry = scriptedModel('run_command', { command: 'frobctl --purge-all' });
    const again = await generateText({
      model: retry,
      tools: guarded,
      messages: prompt,
      stopWhen: stepCountIs(3),
    });
    const approval = again.content.find((p) => p.type === 'tool-approval-request') as { approvalId: string };
    await generateText({
      model: retry,
      tools: guarded,
      messages: [
        ...prompt,
        ...again.response.messages,
        {
          role: 'tool',
          content: [{ type: 'tool-approval-response', approvalId: approval.approvalId, approved: true }],
        },
      ],
      stopWhen: stepCountIs(3),
    });
    expect(effects).toEqual(['ran frobctl --purge-all']);
  });

  it("leaves a safe, recognised call to the tool's own approval rule", async () => {
    const { tools, effects } = toolbox();
    const own = { ...tools, run_command: { ...tools.run_command, needsApproval: true } };
    const result = await generateText({
      model: scriptedModel('run_command', { command: 'ls -la' }),
      tools: guardTools(own, arbiter),
      prompt: 'look around',
      stopWhen: stepCountIs(3),
    });
    expect(result.content.find((p) => p.type === 'tool-approval-request')).toBeDefined();
    expect(effects).toEqual([]);
  });

  it("turns ESCALATE into the AI SDK's tool approval: nothing runs until the application approves", async () => {
    const { tools, effects } = toolbox();
    const guarded = guardTools(tools, arbiter, {
      // The account knows sending mail as email.send; an assistant mailing outside is a human's call.
      map: (call) =>
        call.name === 'send_email'
          ? { kind: 'judgment', action_type: 'email.send', payload: call.args }
          : mapToolCall(call),
    });
    const model = scriptedModel('send_email', { to: 'partner@example.com', subject: 'Offer', body: 'Hello' });
    const prompt: ModelMessage[] = [{ role: 'user', content: 'email the partner' }];
    const first = await generateText({ model, tools: guarded, messages: prompt, stopWhen: stepCountIs(3) });
    const request = first.content.find((p) => p.type === 'tool-approval-request');
    expect(request).toBeDefined();
    expect(effects).toEqual([]);

    const approved = await generateText({
      model,
      tools: guarded,
      messages: [
        ...prompt,
        ...first.response.messages,
        {
          role: 'tool',
          content: [
            {
              type: 'tool-approval-response',
              approvalId: (request as { approvalId: string }).approvalId,
              approved: true,
            },
          ],
        },
      ],
      stopWhen: stepCountIs(3),
    });
    expect(effects).toEqual(['mailed partner@example.com']);
    expect(approved.text).toBe('done');
  });
});
