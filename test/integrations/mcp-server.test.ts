import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN } from '../helpers/process.ts';
import { type RunningService, startService } from './service.ts';

const text = (result: unknown) => (result as { content: Array<{ text: string }> }).content[0]?.text ?? '';

/** The acceptance walk of the four tools, against an empty ledger, through any transport. */
async function exerciseTools(client: Client, fact: { query: string; claim: string }): Promise<void> {
  expect((await client.listTools()).tools.map((t) => t.name).sort()).toEqual([
    'evaluate_action',
    'judge_action',
    'recall',
    'remember',
  ]);

  const verdict = await client.callTool({
    name: 'evaluate_action',
    arguments: { action: 'shell.exec', payload: { command: 'rm -rf /' } },
  });
  expect(JSON.parse(text(verdict))).toMatchObject({ is_safe: false, error: { code: 'DEST_MUTATION' } });

  const before = await client.callTool({ name: 'recall', arguments: { query: fact.query } });
  expect(text(before)).toBe('unknown');
  const stored = await client.callTool({
    name: 'remember',
    arguments: { claim: fact.claim, source: 'release plan', confidence: 0.9 },
  });
  const { id, version, conflicts } = JSON.parse(text(stored));
  expect(version).toBe(1);
  expect(conflicts).toEqual([]);
  const after = await client.callTool({
    name: 'recall',
    arguments: { query: fact.query, top_k: 3 },
  });
  const facts = JSON.parse(text(after)) as Array<{ id: string; claim: string }>;
  expect(facts[0]).toMatchObject({ id, claim: fact.claim });

  const judged = await client.callTool({
    name: 'judge_action',
    arguments: {
      action_type: 'fs.write',
      actor: 'writer-bot',
      actor_role: 'assistant',
      payload: { path: 'public/index.html', content: '<h1>hi</h1>' },
      impact_scope: 'external',
    },
  });
  const decision = JSON.parse(text(judged));
  expect(decision.decision).toBe('ESCALATE');
  expect(decision.gates.authority.outcome).toBe('escalate');

  const refused = await client.callTool({
    name: 'remember',
    arguments: { claim: 'x', source: 'y', confidence: 7 },
  });
  expect(refused.isError).toBe(true);
}

// Every case starts processes of the CLI; a busy machine makes them slow, not wrong.
describe('arbiter mcp', { timeout: 120_000 }, () => {
  let service: RunningService;
  beforeAll(async () => {
    service = await startService();
  });
  afterAll(() => service.stop());

  it('serves the four tools on stdio', async () => {
    const client = new Client({ name: 'mcp-test', version: '1.0.0' });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [BIN, 'mcp'],
        env: { ...(process.env as Record<string, string>), ...service.env },
      }),
    );
    try {
      // Each transport asks about words the other never stored: the ledger is the same account's.
      await exerciseTools(client, { query: 'Orion release', claim: 'The Orion release ships in spring' });
    } finally {
      await client.close();
    }
  });

  it('serves them over streamable HTTP at /mcp with the API key as bearer', async () => {
    const client = new Client({ name: 'mcp-http-test', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${service.url}/mcp`), {
        requestInit: { headers: { authorization: `Bearer ${service.key}` } },
      }),
    );
    try {
      await exerciseTools(client, { query: 'Vega budget', claim: 'The Vega budget is approved by finance' });
    } finally {
      await client.close();
    }
  });

  it('refuses /mcp without a valid key, and a service error comes back as a tool error with its code', async () => {
    const anonymous = new Client({ name: 'anonymous', version: '1.0.0' });
    await expect(
      anonymous.connect(new StreamableHTTPClientTransport(new URL(`${service.url}/mcp`))),
    ).rejects.toThrow(/401|UNAUTHENTICATED/);

    const client = new Client({ name: 'wrong-key', version: '1.0.0' });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [BIN, 'mcp'],
        env: {
          ...(process.env as Record<string, string>),
          ARBITER_URL: service.url,
          ARBITER_API_KEY: 'nope',
        },
      }),
    );
    try {
      const result = await client.callTool({ name: 'recall', arguments: { query: 'anything' } });
      expect(result.isError).toBe(true);
      expect(text(result)).toMatch(/^UNAUTHENTICATED: /);
    } finally {
      await client.close();
    }
  });
});
