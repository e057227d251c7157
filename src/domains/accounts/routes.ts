import { timingSafeEqual } from 'node:crypto';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Errors } from '../../errors.ts';
import { bearerToken } from '../../http/auth.ts';
import { errorResponses } from '../../http/common-schemas.ts';
import { CreateAccountBody, CreatedAccountSchema } from './schemas.ts';
import type { AccountsService } from './service.ts';

function sameSecret(given: string | undefined, expected: string): boolean {
  if (given === undefined) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** Operator API: registered only when ARBITER_ADMIN_TOKEN is set; the bearer is that token, not an API key. */
export function adminRoutes(accounts: AccountsService, adminToken: string): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.addHook('onRequest', async (request) => {
      if (!sameSecret(bearerToken(request), adminToken)) {
        throw Errors.unauthenticated('The operator API needs Authorization: Bearer <ARBITER_ADMIN_TOKEN>');
      }
    });

    app.post(
      '/admin/accounts',
      {
        config: { auth: false },
        schema: {
          tags: ['Operator'],
          security: [{ adminToken: [] }],
          summary: 'Create an account and its first API key',
          body: CreateAccountBody,
          response: { 201: CreatedAccountSchema, ...errorResponses },
        },
      },
      async (request, reply) => {
        const { account, key } = await accounts.create(request.body, { actor: 'operator' });
        return reply.status(201).send({ success: true as const, account, api_key: key });
      },
    );
  };
}
