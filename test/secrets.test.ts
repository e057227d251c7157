import { describe, expect, it } from 'vitest';
import { bearer, createTestApp } from './helpers/app.ts';
import { databaseContents } from './helpers/database-contents.ts';
import { DIALECTS } from './helpers/databases.ts';

describe.each(DIALECTS)('key secrets on %s', (dialect) => {
  it('never reach the database or the logs', async () => {
    const t = await createTestApp(dialect, { env: { ARBITER_LOG_LEVEL: 'trace' } });
    try {
      const created = (
        await t.app.inject({
          method: 'POST',
          url: '/api-keys',
          headers: bearer(t.ownerKey),
          payload: { name: 'audited', role: 'admin' },
        })
      ).json();
      const secrets = [t.ownerKey, created.key];
      await t.app.inject({ method: 'GET', url: '/api-keys', headers: bearer(created.key) });
      await t.app.inject({
        method: 'GET',
        url: '/v1/whoami',
        headers: { authorization: `Bearer ${created.key}` },
      });
      await t.app.inject({ method: 'DELETE', url: `/api-keys/${created.id}`, headers: bearer(t.ownerKey) });
      await t.app.inject({ method: 'GET', url: '/v1/whoami', headers: bearer(created.key) });
      // A key put where it does not belong must not be echoed either.
      await t.app.inject({ method: 'GET', url: `/nope?key=${encodeURIComponent(created.key)}` });
      await t.app.inject({
        method: 'POST',
        url: '/api-keys',
        headers: bearer(t.ownerKey),
        payload: { name: 'x', key: created.key },
      });

      const contents = await databaseContents(t);
      const logs = t.logs();
      expect(logs.length).toBeGreaterThan(500);
      expect(contents).toContain(created.id);
      for (const secret of secrets) {
        expect(contents).not.toContain(secret);
        expect(contents).not.toContain(secret.slice(11, 31));
        expect(logs).not.toContain(secret.slice(11, 31));
      }
    } finally {
      await t.close();
    }
  });
});
