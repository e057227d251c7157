import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KEY_ROLES, type KeyRole } from '../../src/domains/api-keys/index.ts';
import { bearer, createTestApp, type TestApp } from '../helpers/app.ts';
import { DIALECTS } from '../helpers/databases.ts';
import { AUTHENTICATED_ROUTES, type SecurityContext } from './authenticated-routes.ts';

/**
 * The decision, route by route: the least key role that may call it. An agent key evaluates,
 * judges, reads its own evaluations and uses memory; an operator also decides escalations and
 * changes settings, rules, policies and webhooks, and reads audit and usage; an admin also
 * manages keys, billing and the account's data rights. A route added to the service without a
 * line here (and a role of its own) fails this suite.
 */
const EXPECTED_ROLE: Record<string, KeyRole> = {
  'POST /v1/evaluate': 'agent',
  'POST /v2/actions/evaluate': 'agent',
  'GET /v2/actions/evaluations': 'agent',
  'GET /v2/actions/evaluations/:id': 'agent',
  'POST /v2/vault/store': 'agent',
  'POST /v2/vault/store_batch': 'agent',
  'GET /v2/vault/claims': 'agent',
  'GET /v2/vault/claims/:id': 'agent',
  'POST /v2/vault/search': 'agent',
  'GET /v2/vault/state': 'agent',
  'GET /v2/vault/verify': 'agent',
  'POST /ledger/propose_state': 'agent',
  'POST /ledger/semantic_search': 'agent',
  'GET /v1/whoami': 'agent',
  'POST /mcp': 'agent',

  'POST /v2/actions/evaluations/:id/approve': 'operator',
  'POST /v2/actions/evaluations/:id/deny': 'operator',
  'DELETE /v2/vault/claims/:id': 'operator',
  'GET /v2/vault/settings/pii': 'operator',
  'PUT /v2/vault/settings/pii': 'operator',
  'POST /v2/vault/subjects/forget': 'operator',
  'GET /v1/actions': 'operator',
  'GET /v1/actions/:action': 'operator',
  'PUT /v1/actions/:action': 'operator',
  'DELETE /v1/actions/:action': 'operator',
  'GET /v1/settings/egress': 'operator',
  'PUT /v1/settings/egress': 'operator',
  'GET /v1/settings/context': 'operator',
  'PUT /v1/settings/context': 'operator',
  'GET /v1/settings/loop': 'operator',
  'PUT /v1/settings/loop': 'operator',
  'GET /v1/settings/protected': 'operator',
  'PUT /v1/settings/protected': 'operator',
  'GET /v1/settings/execution': 'operator',
  'PUT /v1/settings/execution': 'operator',
  'GET /v1/catalogue': 'operator',
  'GET /v1/catalogue/coverage': 'operator',
  'GET /v1/catalogue/rules': 'operator',
  'PUT /v1/catalogue/rules': 'operator',
  'DELETE /v1/catalogue/rules': 'operator',
  'GET /v2/policies': 'operator',
  'PUT /v2/policies': 'operator',
  'GET /audit-log': 'operator',
  'GET /audit-log/verify': 'operator',
  'GET /billing/usage/current': 'operator',
  'GET /webhooks/event-types': 'operator',
  'POST /webhooks': 'operator',
  'GET /webhooks': 'operator',
  'GET /webhooks/:webhook_id': 'operator',
  'DELETE /webhooks/:webhook_id': 'operator',
  'GET /webhooks/:webhook_id/deliveries': 'operator',
  'POST /webhooks/:webhook_id/enable': 'operator',
  'POST /webhooks/:webhook_id/rotate-secret': 'operator',
  'POST /webhooks/:webhook_id/test': 'operator',
  'POST /webhooks/:webhook_id/deliveries/:delivery_id/redeliver': 'operator',

  'POST /api-keys': 'admin',
  'GET /api-keys': 'admin',
  'DELETE /api-keys/:key_id': 'admin',
  'POST /subscription/checkout': 'admin',
  'GET /subscription/status': 'admin',
  'GET /subscription/plans': 'admin',
  'GET /gdpr/export': 'admin',
  'DELETE /gdpr/delete-account': 'admin',
};

const RANK: Record<KeyRole, number> = { agent: 0, operator: 1, admin: 2 };

/** One account with a key of every role. */
async function keysOfEveryRole(t: TestApp): Promise<{ accountId: string } & Record<KeyRole, string>> {
  const account = await t.newAccount();
  const make = async (role: KeyRole) =>
    (await t.container.services.apiKeys.create(account.accountId, role, { role })).key;
  return {
    accountId: account.accountId,
    admin: account.key,
    operator: await make('operator'),
    agent: await make('agent'),
  };
}

describe.each(DIALECTS)('key roles on %s', (dialect) => {
  let t: TestApp;
  let ctx: SecurityContext;

  beforeAll(async () => {
    t = await createTestApp(dialect);
    const other = await t.newAccount();
    ctx = { foreignKeyId: other.keyId };
  });
  afterAll(() => t.close());

  it('documents a role on every authenticated route, the one decided above', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json() as {
      paths: Record<string, Record<string, { security?: unknown[]; 'x-arbiter-role'?: string }>>;
    };
    const documented: Record<string, string | undefined> = {};
    for (const [path, ops] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(ops)) {
        if (op.security !== undefined) continue;
        documented[`${method.toUpperCase()} ${path.replace(/\{(\w+)\}/g, ':$1')}`] = op['x-arbiter-role'];
      }
    }
    expect(documented).toEqual(EXPECTED_ROLE);
  });

  it('refuses to build an app with an authenticated route that names no role', async () => {
    const { default: Fastify } = await import('fastify');
    const { registerAuth } = await import('../../src/http/auth.ts');
    const app = Fastify();
    registerAuth(app, { apiKeys: t.container.services.apiKeys, meter: t.container.meter });
    expect(() => app.get('/v9/new', async () => ({}))).toThrow(/declares no role/);
    await app.close();
  });

  describe.each(AUTHENTICATED_ROUTES)('$method $route', (route) => {
    const needed = EXPECTED_ROLE[`${route.method} ${route.route}`]!;

    it.each(KEY_ROLES)('with a key of role %s: allowed, or 403 naming the role it needs', async (role) => {
      // A fresh account each time: an allowed call may change or delete what it reaches.
      const keys = await keysOfEveryRole(t);
      const res = await t.app.inject({
        method: route.method,
        url: route.url(ctx),
        headers: {
          ...bearer(keys[role]),
          ...(route.body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(route.body === undefined ? {} : { payload: JSON.stringify(route.body) }),
      });
      if (RANK[role] >= RANK[needed]) {
        expect(res.statusCode).toBeLessThan(500);
        expect(res.json()?.error?.details?.required_role, res.body).toBeUndefined();
      } else {
        expect(res.statusCode, res.body).toBe(403);
        expect(res.json()).toMatchObject({
          success: false,
          error: { code: 'FORBIDDEN', details: { required_role: needed, role } },
        });
        expect(res.json().error.message).toContain(`role ${needed}`);
      }
    });

    it.runIf(needed !== 'agent')('checks the role before the body is read or validated', async () => {
      const keys = await keysOfEveryRole(t);
      const res = await t.app.inject({
        method: route.method,
        url: route.url(ctx),
        headers: { ...bearer(keys.agent), 'content-type': 'application/json' },
        payload: '{"not valid json',
      });
      expect(res.statusCode).toBe(403);
      expect(res.json().error.code).toBe('FORBIDDEN');
    });
  });
});
