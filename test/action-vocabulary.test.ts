import { createArbiter } from '@arbiter/sdk';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { describe, expect, it } from 'vitest';
import { EvaluateBody } from '../src/domains/judgment/schemas.ts';
import { CEDAR_SCHEMA } from '../src/domains/policies/cedar-schema.ts';
import { GuardConfigSchema } from '../src/integrations/mcp-guard.ts';
import { createArbiterMcpServer } from '../src/integrations/mcp-server.ts';
import { ACTION_KINDS, ACTOR_ROLES, IMPACT_SCOPES } from '../src/shared/action-vocabulary.ts';

/**
 * Every reader of the evaluation vocabulary enumerates exactly the shared lists: a copy typed out
 * again in any of them, and then changed on one side only, fails here.
 */
describe('actor roles, impact scopes and action kinds are one list', () => {
  it('the Cedar schema', () => {
    const words = (pattern: RegExp) => JSON.parse(`[${CEDAR_SCHEMA.match(pattern)?.[1] ?? ''}]`);
    expect(words(/entity Role enum \[([^\]]*)\]/)).toEqual([...ACTOR_ROLES]);
    expect(words(/entity Scope enum \[([^\]]*)\]/)).toEqual([...IMPACT_SCOPES]);
    expect(words(/action ([^\n]*)\n\s*appliesTo/)).toEqual([...ACTION_KINDS]);
  });

  it('the judgment request schema', () => {
    const consts = (schema: unknown) => (schema as { anyOf: { const: string }[] }).anyOf.map((s) => s.const);
    expect(consts(EvaluateBody.properties.actor_role)).toEqual([...ACTOR_ROLES]);
    expect(consts(EvaluateBody.properties.impact_scope)).toEqual([...IMPACT_SCOPES]);
  });

  it('the MCP guard configuration', () => {
    const shape = GuardConfigSchema.shape;
    expect(shape.actor_role.unwrap().options).toEqual([...ACTOR_ROLES]);
    expect(shape.impact_scope.unwrap().options).toEqual([...IMPACT_SCOPES]);
  });

  it("the MCP server's tools", async () => {
    const server = createArbiterMcpServer(
      createArbiter({ baseUrl: 'http://127.0.0.1:9', apiKey: 'unused' }),
      '0',
    );
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    const client = new Client({ name: 'vocabulary-test', version: '0' });
    await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
    try {
      const { tools } = await client.listTools();
      const enums = new Map<string, unknown[]>();
      for (const tool of tools) {
        for (const [name, property] of Object.entries(tool.inputSchema.properties ?? {})) {
          const values = (property as { enum?: unknown[] }).enum;
          if (values) enums.set(`${tool.name}.${name}`, values);
        }
      }
      const roles = [...enums].filter(([key]) => key.endsWith('.actor_role'));
      const scopes = [...enums].filter(([key]) => key.endsWith('.impact_scope'));
      expect(roles.length).toBeGreaterThan(0);
      expect(scopes.length).toBeGreaterThan(0);
      for (const [, values] of roles) expect(values).toEqual([...ACTOR_ROLES]);
      for (const [, values] of scopes) expect(values).toEqual([...IMPACT_SCOPES]);
    } finally {
      await client.close();
      await server.close();
    }
  });
});
