import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { principalOf } from '../../http/auth.ts';
import { errorResponses, SuccessSchema } from '../../http/common-schemas.ts';
import { CoverageSchema, readCoverage } from './catalogue/coverage.ts';
import {
  AccountRulesBody,
  AccountRulesSchema,
  ActionListSchema,
  ActionParams,
  ActionSchema,
  ActionSchemaBody,
  CatalogueSchema,
  ContextSettingsBody,
  ContextSettingsSchema,
  EgressBody,
  EgressSchema,
  EvaluateBody,
  ExecutionBody,
  ExecutionSchema,
  LoopBody,
  LoopSchema,
  ProtectedBody,
  ProtectedSchema,
  VerdictSchema,
} from './schemas.ts';
import type { VerdictService } from './service.ts';

const conflict = { 409: Type.Ref('ErrorBody') } as const;

export function verdictRoutes(verdicts: VerdictService): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.post(
      '/v1/evaluate',
      {
        config: { role: 'agent' },
        schema: {
          tags: ['Verdicts'],
          summary: 'Judge a proposed action: 200 safe or unsafe, 409 CONFLICT_DETECTED, 412 STATE_DRIFT',
          description:
            'Every readable JSON body gets a verdict; one that is not {action, payload} is a SCHEMA_MISMATCH verdict. ' +
            'An If-Match header may carry the expected state hash instead of expected_state_hash. ' +
            "An optional context (workspace, user, home, os) says where the agent works; the account's defaults fill what it leaves out.",
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
        config: { role: 'operator' },
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
        config: { role: 'operator' },
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
        config: { role: 'operator' },
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
        config: { role: 'operator' },
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
        config: { role: 'operator' },
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
        config: { role: 'operator' },
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
      '/v1/settings/context',
      {
        config: { role: 'operator' },
        schema: {
          tags: ['Verdicts'],
          summary:
            "Where the account's agents work by default, and the local origins an http.request may reach",
          response: { 200: ContextSettingsSchema, ...errorResponses },
        },
      },
      async (request) => verdicts.getContext(principalOf(request).accountId),
    );

    app.put(
      '/v1/settings/context',
      {
        config: { role: 'operator' },
        schema: {
          tags: ['Verdicts'],
          summary: 'Replace the default agent context and the named local origins (omitted fields are unset)',
          description:
            "A request's own context overrides these field by field. Paths must be absolute; local origins must be loopback and never the Docker or kubelet APIs.",
          body: ContextSettingsBody,
          response: { 200: ContextSettingsSchema, ...errorResponses },
        },
      },
      async (request) => {
        const { accountId, keyId } = principalOf(request);
        return verdicts.putContext({ accountId, keyId }, request.body);
      },
    );

    app.get(
      '/v1/settings/loop',
      {
        config: { role: 'operator' },
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
        config: { role: 'operator' },
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

    app.get(
      '/v1/catalogue',
      {
        config: { role: 'operator' },
        schema: {
          tags: ['Verdicts'],
          summary: "The destructive-operation catalogue: built-in rule families and the account's own rules",
          response: { 200: CatalogueSchema, ...errorResponses },
        },
      },
      async (request) => verdicts.describeCatalogue(principalOf(request).accountId),
    );

    app.get(
      '/v1/catalogue/coverage',
      {
        config: { role: 'operator' },
        schema: {
          tags: ['Verdicts'],
          summary:
            'MITRE ATT&CK coverage: for each technique and platform, the built-in rules that refuse it and the Sigma and LOLBAS entries it was seen in',
          response: { 200: CoverageSchema, ...errorResponses },
        },
      },
      async () => readCoverage(),
    );

    app.get(
      '/v1/catalogue/rules',
      {
        config: { role: 'operator' },
        schema: {
          tags: ['Verdicts'],
          summary: "The account's own catalogue rules, judged after the built-in ones",
          response: { 200: AccountRulesSchema, ...errorResponses },
        },
      },
      async (request) => verdicts.getRules(principalOf(request).accountId),
    );

    app.put(
      '/v1/catalogue/rules',
      {
        config: { role: 'operator' },
        schema: {
          tags: ['Verdicts'],
          summary:
            "Replace the account's catalogue rules as a whole; in force on the next evaluation on every instance",
          description:
            'Rules that do not match the rule format are refused with 400 VALIDATION_ERROR; error.details.errors lists every problem.',
          body: AccountRulesBody,
          response: { 200: AccountRulesSchema, ...errorResponses },
        },
      },
      async (request) => {
        const { accountId, keyId } = principalOf(request);
        return verdicts.putRules({ accountId, keyId }, request.body.rules);
      },
    );

    app.delete(
      '/v1/catalogue/rules',
      {
        config: { role: 'operator' },
        schema: {
          tags: ['Verdicts'],
          summary: "Remove all of the account's catalogue rules (the built-in ones stay)",
          response: { 200: AccountRulesSchema, ...errorResponses },
        },
      },
      async (request) => {
        const { accountId, keyId } = principalOf(request);
        return verdicts.putRules({ accountId, keyId }, []);
      },
    );

    app.get(
      '/v1/settings/protected',
      {
        config: { role: 'operator' },
        schema: {
          tags: ['Verdicts'],
          summary: 'Resources the account never lets an agent delete or force-push',
          response: { 200: ProtectedSchema, ...errorResponses },
        },
      },
      async (request) => verdicts.getProtected(principalOf(request).accountId),
    );

    app.put(
      '/v1/settings/protected',
      {
        config: { role: 'operator' },
        schema: {
          tags: ['Verdicts'],
          summary: 'Replace the protected resources (omitted lists are empty)',
          body: ProtectedBody,
          response: { 200: ProtectedSchema, ...errorResponses },
        },
      },
      async (request) => {
        const { accountId, keyId } = principalOf(request);
        return verdicts.putProtected({ accountId, keyId }, request.body);
      },
    );

    app.get(
      '/v1/settings/execution',
      {
        config: { role: 'operator' },
        schema: {
          tags: ['Verdicts'],
          summary: 'Execution settings of the account',
          response: { 200: ExecutionSchema, ...errorResponses },
        },
      },
      async (request) => verdicts.getExecution(principalOf(request).accountId),
    );

    app.put(
      '/v1/settings/execution',
      {
        config: { role: 'operator' },
        schema: {
          tags: ['Verdicts'],
          summary: 'Replace the execution settings',
          body: ExecutionBody,
          response: { 200: ExecutionSchema, ...errorResponses },
        },
      },
      async (request) => {
        const { accountId, keyId } = principalOf(request);
        return verdicts.putExecution({ accountId, keyId }, request.body);
      },
    );
  };
}
