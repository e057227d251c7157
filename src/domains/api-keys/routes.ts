import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { principalOf } from '../../http/auth.ts';
import { errorResponses, SuccessSchema } from '../../http/common-schemas.ts';
import { CreatedKeySchema, CreateKeyBody, KeyIdParams, ListedKeySchema, WhoAmISchema } from './schemas.ts';
import type { ApiKeysService } from './service.ts';

export function apiKeysRoutes(apiKeys: ApiKeysService): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.post(
      '/api-keys',
      {
        config: { role: 'admin' },
        schema: {
          tags: ['API keys'],
          summary: 'Create an API key of a role, agent by default (the secret is returned once)',
          body: CreateKeyBody,
          response: { 201: CreatedKeySchema, ...errorResponses },
        },
      },
      async (request, reply) => {
        const principal = principalOf(request);
        const created = await apiKeys.create(principal.accountId, request.body.name, {
          actor: principal.keyId,
          actorRole: principal.role,
          ...(request.body.role === undefined ? {} : { role: request.body.role }),
        });
        return reply.status(201).send({ success: true as const, ...created });
      },
    );

    app.get(
      '/api-keys',
      {
        config: { role: 'admin' },
        schema: {
          tags: ['API keys'],
          summary: 'List the keys of the calling account, masked, oldest first',
          response: { 200: Type.Array(ListedKeySchema), ...errorResponses },
        },
      },
      async (request) => apiKeys.list(principalOf(request).accountId),
    );

    app.delete(
      '/api-keys/:key_id',
      {
        config: { role: 'admin' },
        schema: {
          tags: ['API keys'],
          summary: 'Revoke a key, permanently (a key already revoked answers 404 NOT_FOUND)',
          params: KeyIdParams,
          response: { 200: SuccessSchema, ...errorResponses },
        },
      },
      async (request) => {
        const principal = principalOf(request);
        await apiKeys.revoke(principal.accountId, request.params.key_id, principal.keyId);
        return { success: true };
      },
    );

    app.get(
      '/v1/whoami',
      {
        config: { role: 'agent' },
        schema: {
          tags: ['API keys'],
          summary: 'The account, key and plan behind the bearer key',
          response: { 200: WhoAmISchema, ...errorResponses },
        },
      },
      async (request) => {
        const p = principalOf(request);
        return { account_id: p.accountId, key_id: p.keyId, plan: p.plan, role: p.role };
      },
    );
  };
}
