import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { principalOf } from '../../http/auth.ts';
import { errorResponses } from '../../http/common-schemas.ts';
import type { AuditRepo } from './repo.ts';
import { AuditListQuery, AuditListResponse, AuditVerifyResponse } from './schemas.ts';

export function auditRoutes(audit: Pick<AuditRepo, 'list' | 'verify'>): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get(
      '/audit-log',
      {
        config: { role: 'operator' },
        schema: {
          tags: ['Audit log'],
          summary: "The account's audit log, oldest first; follow next_cursor for more",
          querystring: AuditListQuery,
          response: { 200: AuditListResponse, ...errorResponses },
        },
      },
      async (request) => {
        const limit = request.query.limit ?? 100;
        const entries = await audit.list(principalOf(request).accountId, {
          afterSeq: request.query.cursor === undefined ? 0 : Number(request.query.cursor),
          limit,
        });
        const last = entries.at(-1);
        return {
          success: true as const,
          entries,
          next_cursor: entries.length === limit && last ? String(last.seq) : null,
        };
      },
    );

    app.get(
      '/audit-log/verify',
      {
        config: { role: 'operator' },
        schema: {
          tags: ['Audit log'],
          summary: "Re-walks the account's hash chain and names the first entry that does not hold",
          response: { 200: AuditVerifyResponse, ...errorResponses },
        },
      },
      async (request) => ({
        success: true as const,
        ...(await audit.verify(principalOf(request).accountId)),
      }),
    );
  };
}
