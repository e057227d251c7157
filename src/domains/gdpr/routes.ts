import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { principalOf } from '../../http/auth.ts';
import { errorResponses } from '../../http/common-schemas.ts';
import type { GdprService } from './service.ts';

const ExportResponse = Type.Object(
  {
    success: Type.Literal(true),
    exported_at: Type.String({ format: 'date-time' }),
    profile: Type.Unknown(),
    ledger_entries: Type.Array(Type.Unknown()),
    evaluations: Type.Array(Type.Unknown()),
    audit_log: Type.Array(Type.Unknown()),
    api_keys: Type.Array(Type.Unknown(), { description: 'Masked; a secret is never exported' }),
  },
  {
    additionalProperties: true,
    description: 'Also: billing, usage, webhooks, and any other section a domain registers',
  },
);

const DeleteResponse = Type.Object({
  success: Type.Literal(true),
  message: Type.String(),
  rows_removed: Type.Record(Type.String(), Type.Integer()),
});

// An account over its allowance keeps its data rights.
const unmetered = { quota: false };

export function gdprRoutes(gdpr: GdprService): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get(
      '/gdpr/export',
      {
        config: { ...unmetered, role: 'admin' },
        schema: {
          tags: ['GDPR'],
          summary: 'Every record of the account (Article 20)',
          response: { 200: ExportResponse, ...errorResponses },
        },
      },
      async (request) => ({ success: true as const, ...(await gdpr.export(principalOf(request))) }) as never,
    );

    app.delete(
      '/gdpr/delete-account',
      {
        config: { ...unmetered, role: 'admin' },
        schema: {
          tags: ['GDPR'],
          summary: 'Delete the account and all its data (Article 17); the audit log is retained',
          description:
            'A paid subscription is cancelled at the billing provider first. When the provider cannot be reached or refuses, the answer is 503 and nothing is deleted: try again.',
          response: {
            200: DeleteResponse,
            403: Type.Ref('ErrorBody'),
            503: Type.Ref('ErrorBody'),
            ...errorResponses,
          },
        },
      },
      async (request) => {
        const removed = await gdpr.deleteAccount(principalOf(request));
        return {
          success: true as const,
          message:
            'The account and all its data were deleted; its keys no longer work. Audit entries are retained.',
          rows_removed: removed,
        };
      },
    );
  };
}
