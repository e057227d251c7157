import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import pkg from '../../package.json' with { type: 'json' };
import { errorResponses } from '../http/common-schemas.ts';

/** A `fetch` answered by the application itself: the tools go through the same auth, quotas and metering. */
function injectFetch(app: FastifyInstance): typeof fetch {
  return (async (input: Request | string | URL, init?: RequestInit) => {
    const request = input instanceof Request ? input : new Request(input, init);
    const url = new URL(request.url);
    const body = request.body ? Buffer.from(await request.arrayBuffer()) : undefined;
    const res = await app.inject({
      method: request.method as 'POST',
      url: url.pathname + url.search,
      headers: Object.fromEntries(request.headers),
      ...(body ? { payload: body } : {}),
    });
    const headers = new Headers();
    for (const [name, value] of Object.entries(res.headers)) {
      if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : String(value));
    }
    return new Response(res.rawPayload.length > 0 ? res.rawPayload : null, {
      status: res.statusCode,
      headers,
    });
  }) as typeof fetch;
}

/**
 * `POST /mcp`: Arbiter's MCP tools over streamable HTTP, stateless, with the API key as bearer.
 * The MCP SDK is loaded on the first call, so a service that never serves MCP does not load it.
 */
export function mcpRoutes(): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.post(
      '/mcp',
      {
        config: { role: 'agent' },
        schema: {
          tags: ['MCP'],
          summary: 'MCP over streamable HTTP (stateless): evaluate_action, judge_action, remember, recall',
          description: 'A JSON-RPC message of the Model Context Protocol; the answer is JSON.',
          body: Type.Unknown(),
          response: errorResponses,
        },
        // The MCP transport validates the message and answers a JSON-RPC error, not a 400.
        validatorCompiler: () => () => true,
      },
      async (request, reply) => {
        const [{ StreamableHTTPServerTransport }, { createArbiterMcpServer }, { createArbiter }] =
          await Promise.all([
            import('@modelcontextprotocol/sdk/server/streamableHttp.js'),
            import('./mcp-server.ts'),
            import('@arbiter/sdk'),
          ]);
        const apiKey = (request.headers.authorization ?? '').replace(/^Bearer\s+/i, '');
        const arbiter = createArbiter({
          baseUrl: 'http://arbiter.internal',
          apiKey,
          retries: 0,
          fetch: injectFetch(app),
        });
        const server = createArbiterMcpServer(arbiter, pkg.version);
        const transport = new StreamableHTTPServerTransport({
          sessionIdGenerator: undefined,
          enableJsonResponse: true,
        });
        await server.connect(transport);
        reply.hijack();
        reply.raw.on('close', () => {
          void transport.close();
          void server.close();
        });
        await transport.handleRequest(request.raw, reply.raw, request.body);
      },
    );
  };
}
