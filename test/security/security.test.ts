import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateKey } from '../../src/domains/api-keys/key-format.ts';
import { bearer, createTestApp, type TestApp } from '../helpers/app.ts';
import { DIALECTS } from '../helpers/databases.ts';
import { AUTHENTICATED_ROUTES, type SecurityContext } from './authenticated-routes.ts';

function expectErrorBody(res: { statusCode: number; json: () => unknown }, status: number, code: string) {
  expect(res.statusCode).toBe(status);
  expect(res.json()).toMatchObject({
    success: false,
    error: { code, message: expect.any(String) },
    request_id: expect.any(String),
  });
}

describe.each(DIALECTS)('shared security suite on %s', (dialect) => {
  let t: TestApp;
  let ctx: SecurityContext;
  let revokedKey: string;

  beforeAll(async () => {
    t = await createTestApp(dialect);
    const other = await t.newAccount();
    // Escalated (an assistant deleting), so it is pending and approvable by its own account.
    const foreignEvaluation = await t.container.judgment.evaluate(
      { accountId: other.accountId, keyId: other.keyId },
      {
        action_type: 'fs.delete',
        actor: 'security-suite',
        actor_role: 'assistant',
        impact_scope: 'internal',
        payload: { path: 'build/output.txt' },
      },
    );
    const claim = await t.container.services.ledger.store(other.accountId, other.keyId, {
      claim: 'The other account keeps its own facts',
      source: 'security suite',
      confidence: 0.9,
    });
    ctx = { foreignKeyId: other.keyId, foreignClaimId: claim.id, foreignClaimShortId: claim.short_id };
    ctx.foreignEvaluationId = foreignEvaluation.evaluation_id;
    const doomed = await t.container.services.apiKeys.create(t.ownerId, 'revoked');
    await t.container.services.apiKeys.revoke(t.ownerId, doomed.id);
    revokedKey = doomed.key;
  });
  afterAll(() => t.close());

  it('lists every authenticated route of the OpenAPI document', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json() as {
      paths: Record<string, Record<string, { security?: unknown[] }>>;
    };
    const documented: string[] = [];
    for (const [path, ops] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(ops)) {
        if (op.security === undefined)
          documented.push(`${method.toUpperCase()} ${path.replace(/\{(\w+)\}/g, ':$1')}`);
      }
    }
    expect(documented.sort()).toEqual(AUTHENTICATED_ROUTES.map((r) => `${r.method} ${r.route}`).sort());
  });

  describe.each(AUTHENTICATED_ROUTES)('$method $route', (route) => {
    const send = (headers: Record<string, string>, url = route.url(ctx), body = route.body) =>
      t.app.inject({
        method: route.method,
        url,
        headers,
        ...(body === undefined ? {} : { payload: body as object }),
      });

    it('refuses a request without a key', async () => {
      expectErrorBody(await send({}), 401, 'UNAUTHENTICATED');
    });
    it('refuses malformed keys and other schemes', async () => {
      for (const authorization of [
        'Bearer',
        'Bearer not-a-key',
        `Basic ${t.ownerKey}`,
        `Bearer ${t.ownerKey}x!`,
        t.ownerKey,
      ]) {
        expectErrorBody(await send({ authorization }), 401, 'UNAUTHENTICATED');
      }
    });
    it('refuses an unknown key', async () => {
      expectErrorBody(await send(bearer(generateKey())), 401, 'UNAUTHENTICATED');
    });
    it('refuses a revoked key', async () => {
      expectErrorBody(await send(bearer(revokedKey)), 401, 'UNAUTHENTICATED');
    });
    it.runIf(route.foreign !== undefined)("answers 404 for another account's resource", async () => {
      const foreign = route.foreign!(ctx);
      expectErrorBody(await send(bearer(t.ownerKey), foreign.url, foreign.body), 404, 'NOT_FOUND');
    });
  });
});
