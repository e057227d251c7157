import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { principalOf } from '../../http/auth.ts';
import { errorResponses } from '../../http/common-schemas.ts';
import type { Principal } from '../api-keys/index.ts';
import {
  DecisionBody,
  EvaluateBody,
  EvaluateResponse,
  EvaluationParams,
  EvaluationSchema,
  ListQuery,
  ListResponse,
} from './schemas.ts';
import type { JudgmentService } from './service.ts';

/** Normalises a timestamp filter so it compares correctly with stored ISO strings. */
function iso(value: string | undefined): string | undefined {
  return value === undefined ? undefined : new Date(value).toISOString();
}

/** An agent key reads the evaluations it asked for; people read the whole account's. */
function askedBy(principal: Principal): string | undefined {
  return principal.role === 'agent' ? principal.keyId : undefined;
}

export function judgmentRoutes(judgment: JudgmentService): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.post(
      '/v2/actions/evaluate',
      {
        config: { role: 'agent' },
        schema: {
          tags: ['Judgment'],
          summary: 'Judge a proposed action through seven gates: ALLOWED, BLOCKED or ESCALATE',
          description:
            'An If-Match header may carry the expected state hash instead of expected_state_hash; a different current state is BLOCKED by the consistency gate (STATE_DRIFT).',
          body: EvaluateBody,
          response: { 200: EvaluateResponse, ...errorResponses },
        },
      },
      async (request) => judgment.evaluate(principalOf(request), request.body, request.headers['if-match']),
    );

    app.get(
      '/v2/actions/evaluations',
      {
        config: { role: 'agent' },
        schema: {
          tags: ['Judgment'],
          summary: "The account's evaluations, newest first, filtered, one page at a time",
          querystring: ListQuery,
          response: { 200: ListResponse, ...errorResponses },
        },
      },
      async (request) => {
        const q = request.query;
        const principal = principalOf(request);
        return judgment.list(principal.accountId, {
          decision: q.decision,
          status: q.status,
          actor: q.actor,
          keyId: askedBy(principal),
          from: iso(q.from),
          to: iso(q.to),
          cursor: q.cursor,
          limit: q.limit,
        });
      },
    );

    app.get(
      '/v2/actions/evaluations/:id',
      {
        config: { role: 'agent' },
        schema: {
          tags: ['Judgment'],
          summary: 'One evaluation and, for an escalation, where its decision stands',
          params: EvaluationParams,
          response: { 200: EvaluationSchema, ...errorResponses },
        },
      },
      async (request) => {
        const principal = principalOf(request);
        return judgment.get(principal.accountId, request.params.id, askedBy(principal));
      },
    );

    for (const [path, verdict] of [
      ['approve', 'approved'],
      ['deny', 'denied'],
    ] as const) {
      app.post(
        `/v2/actions/evaluations/:id/${path}`,
        {
          // People decide escalations: an agent key never does, nor the key that asked (service).
          // A decision without a comment may come with no body at all, or an empty one sent as JSON.
          config: { role: 'operator', emptyJsonBody: true },
          preValidation: (request, _reply, done) => {
            request.body ??= {};
            done();
          },
          schema: {
            tags: ['Judgment'],
            summary:
              verdict === 'approved'
                ? 'Approve a pending escalation (final; not with the key that asked)'
                : 'Deny a pending escalation (final; not with the key that asked)',
            params: EvaluationParams,
            body: DecisionBody,
            response: {
              200: EvaluationSchema,
              403: { $ref: 'ErrorBody' },
              409: { $ref: 'ErrorBody' },
              ...errorResponses,
            },
          },
        },
        async (request) => {
          return judgment.decide(principalOf(request), request.params.id, verdict, request.body?.comment);
        },
      );
    }
  };
}
