import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { principalOf } from '../../http/auth.ts';
import { errorResponses } from '../../http/common-schemas.ts';
import { CEDAR_SCHEMA } from './cedar-schema.ts';
import { PolicyDocumentSchema, PolicyQuery, PutPolicyBody, PutPolicyResponse } from './schemas.ts';
import type { PoliciesService } from './service.ts';

export function policiesRoutes(policies: PoliciesService): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get(
      '/v2/policies',
      {
        config: { role: 'operator' },
        schema: {
          tags: ['Judgment'],
          summary:
            "The account's current Cedar policy document (or an older version) and the schema it is checked against",
          querystring: PolicyQuery,
          response: { 200: PolicyDocumentSchema, ...errorResponses },
        },
      },
      async (request) => {
        const doc = await policies.get(principalOf(request).accountId, request.query.version);
        return { ...doc, schema: CEDAR_SCHEMA };
      },
    );

    app.put(
      '/v2/policies',
      {
        config: { role: 'operator' },
        schema: {
          tags: ['Judgment'],
          summary: 'Replace the policy document: validated, then in force from the next evaluation on',
          body: PutPolicyBody,
          response: { 200: PutPolicyResponse, ...errorResponses },
        },
      },
      async (request) => {
        const principal = principalOf(request);
        const saved = await policies.put(principal.accountId, request.body.policies, principal.keyId);
        return {
          success: true as const,
          version: saved.version,
          created_at: saved.created_at!,
          policies: saved.compiled.map((p) => ({
            id: p.id,
            effect: p.effect,
            escalate: p.escalate ?? null,
            line: p.line,
          })),
        };
      },
    );
  };
}
