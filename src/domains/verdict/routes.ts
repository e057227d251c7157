import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { principalOf } from '../../http/auth.ts';
import { errorResponses, SuccessSchema } from '../../http/common-schemas.ts';
import {
  ActionListSchema,
  ActionParams,
  ActionSchema,
  ActionSchemaBody,
  EgressBody,
  EgressSchema,
  EvaluateBody,
  LoopBody,
  LoopSchema,
  VerdictSchema,
} from './schemas.ts';
import type { VerdictService } from './service.ts';

const conflict = { 409: Type.Ref('ErrorBody') } as const;

export function verdictRoutes(verdicts: VerdictService): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.post(
      '/v1/evaluate',
      {
        schema: {
          tags: ['Verdicts'],
          summary: 'Judge a proposed action: 200 safe or unsafe, 409 CONFLICT_DETECTED, 412 STATE_DRIFT',
          description:
            'Every readable JSON body gets a verdict; one that is not {action, payload} is a SCHEMA_MISMATCH verdict. ' +
            'An If-Match header may carry the expected state hash instead of expected_state_hash.',
          body: EvaluateBody,
          response: { 200: VerdictSchema, 409: VerdictSchema, 412: VerdictSchema, ...errorResponses },
        },
        // The shape is judged by the service so that a mismatch is a verdict, not a 400.
        validatorCompiler: () => () => true,
      },
      async (request, reply) => {
        const { accountId, keyId } = principalOf(request);
        const result = await verdicts.evaluate(
          { accountId, keyId },
          request.body as unknown,
          request.headers['if-match'],
        );
        return reply.status(result.status).send(result.verdict);
      },
    );

    app.get(
      '/v1/actions',
      {
        schema: {
          tags: ['Verdicts'],
          summary: "Built-in actions and the account's own, with their payload schemas",
          response: { 200: ActionListSchema, ...errorResponses },
        },
      },
      async (request) => ({ actions: await verdicts.listActions(principalOf(request).accountId) }),
    );

    app.get(
      '/v1/actions/:action',
      {
        schema: {
          tags: ['Verdicts'],
          summary: 'One action and its payload schema',
          params: ActionParams,
          response: { 200: ActionSchema, ...errorResponses },
        },
      },
      async (request) => verdicts.getAction(principalOf(request).accountId, request.params.action),
    );

    app.put(
      '/v1/actions/:action',
      {
        schema: {
          tags: ['Verdicts'],
          summary: 'Register or replace a custom action (201 when new); built-in names are refused with 409',
          params: ActionParams,
          body: ActionSchemaBody,
          response: { 200: ActionSchema, 201: ActionSchema, ...errorResponses, ...conflict },
        },
      },
      async (request, reply) => {
        const { accountId, keyId } = principalOf(request);
        const { action, created } = await verdicts.putAction(
          { accountId, keyId },
          request.params.action,
          request.body,
        );
        return reply.status(created ? 201 : 200).send(action);
      },
    );

    app.delete(
      '/v1/actions/:action',
      {
        schema: {
          tags: ['Verdicts'],
          summary: 'Remove a custom action; built-in actions cannot be removed (409)',
          params: ActionParams,
          response: { 200: SuccessSchema, ...errorResponses, ...conflict },
        },
      },
      async (request) => {
        const { accountId, keyId } = principalOf(request);
        await verdicts.deleteAction({ accountId, keyId }, request.params.action);
        return { success: true };
      },
    );

    app.get(
      '/v1/settings/egress',
      {
        schema: {
          tags: ['Verdicts'],
          summary: 'Egress policy of the account',
          response: { 200: EgressSchema, ...errorResponses },
        },
      },
      async (request) => verdicts.getEgress(principalOf(request).accountId),
    );

    app.put(
      '/v1/settings/egress',
      {
        schema: {
          tags: ['Verdicts'],
          summary: 'Replace the egress policy (omitted lists are empty)',
          body: EgressBody,
          response: { 200: EgressSchema, ...errorResponses },
        },
      },
      async (request) => {
        const { accountId, keyId } = principalOf(request);
        return verdicts.putEgress({ accountId, keyId }, request.body);
      },
    );

    app.get(
      '/v1/settings/loop',
      {
        schema: {
          tags: ['Verdicts'],
          summary: 'Loop detection settings of the account',
          response: { 200: LoopSchema, ...errorResponses },
        },
      },
      async (request) => verdicts.getLoop(principalOf(request).accountId),
    );

    app.put(
      '/v1/settings/loop',
      {
        schema: {
          tags: ['Verdicts'],
          summary: 'Replace the loop detection settings',
          body: LoopBody,
          response: { 200: LoopSchema, ...errorResponses },
        },
      },
      async (request) => {
        const { accountId, keyId } = principalOf(request);
        return verdicts.putLoop({ accountId, keyId }, request.body);
      },
    );
  };
}
