import { type Arbiter, ArbiterError } from '@arbiter/sdk';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import pkg from '../../package.json' with { type: 'json' };
import { ACTOR_ROLES, IMPACT_SCOPES } from '../shared/action-vocabulary.ts';

const json = (value: unknown): CallToolResult => ({
  content: [{ type: 'text', text: JSON.stringify(value, null, 2) }],
});

/** A refusal or failure of the service, as an MCP tool error that carries the code. */
export function toolError(code: string, message: string): CallToolResult {
  return { isError: true, content: [{ type: 'text', text: `${code}: ${message}` }] };
}

async function answer(run: () => Promise<CallToolResult>): Promise<CallToolResult> {
  try {
    return await run();
  } catch (err) {
    if (err instanceof ArbiterError) return toolError(err.code, err.message);
    throw err;
  }
}

const Role = z.enum(ACTOR_ROLES);
const Scope = z.enum(IMPACT_SCOPES);

/** The MCP server of Arbiter's own tools, answering through an Arbiter client. */
export function createArbiterMcpServer(arbiter: Arbiter, version: string): McpServer {
  const server = new McpServer({ name: 'arbiter', version });

  server.registerTool(
    'evaluate_action',
    {
      description:
        'Verdict on an action before it runs (shell.exec {command}, db.query {sql}, fs.read/fs.write/fs.delete {path}, ' +
        'http.request {url}, email.send, agent.respond, or an action of the account). is_safe false carries a code.',
      inputSchema: {
        action: z.string().min(1).describe('the action, e.g. shell.exec'),
        payload: z.record(z.string(), z.unknown()).describe("the action's parameters, e.g. {command}"),
      },
    },
    ({ action, payload }) => answer(async () => json(await arbiter.evaluate(action, payload))),
  );

  server.registerTool(
    'judge_action',
    {
      description:
        'Judge a proposed action through the gates: ALLOWED, BLOCKED, or ESCALATE to a human, with every gate.',
      inputSchema: {
        action_type: z.string().min(1).max(200),
        actor: z.string().min(1).max(200).describe('who proposes the action'),
        actor_role: Role,
        payload: z.record(z.string(), z.unknown()),
        impact_scope: Scope,
      },
    },
    (input) => answer(async () => json(await arbiter.judge(input))),
  );

  server.registerTool(
    'remember',
    {
      description: 'Store a claim in the ledger; answers its id, version and the claims it conflicts with.',
      inputSchema: {
        claim: z.string().min(1),
        source: z.string().min(1).describe('where the claim comes from'),
        confidence: z.number().min(0).max(1),
      },
    },
    (input) =>
      answer(async () => {
        const stored = await arbiter.remember(input);
        return json({ id: stored.id, version: stored.version, conflicts: stored.conflicts });
      }),
  );

  server.registerTool(
    'recall',
    {
      description:
        'The facts the ledger holds about a query, best first; the text "unknown" when none is relevant.',
      inputSchema: {
        query: z.string().min(1),
        top_k: z.number().int().min(1).max(100).optional(),
      },
    },
    ({ query, top_k }) =>
      answer(async () => {
        const recalled = await arbiter.recall(query, top_k);
        return recalled.status === 'unknown'
          ? { content: [{ type: 'text', text: 'unknown' }] }
          : json(recalled.facts);
      }),
  );

  return server;
}

/** `arbiter mcp`: the server on stdio, talking to the service at ARBITER_URL with ARBITER_API_KEY. */
export async function runStdioServer(): Promise<void> {
  const [{ StdioServerTransport }, { arbiterFromEnv }] = await Promise.all([
    import('@modelcontextprotocol/sdk/server/stdio.js'),
    import('./client-from-env.ts'),
  ]);
  const server = createArbiterMcpServer(arbiterFromEnv(process.env), pkg.version);
  await server.connect(new StdioServerTransport());
}
