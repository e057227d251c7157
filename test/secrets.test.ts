import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { bearer, createTestApp, type TestApp } from './helpers/app.ts';
import { DIALECTS } from './helpers/databases.ts';

/** Every byte the database holds: the SQLite files on disk, or every row of every table in PostgreSQL. */
async function databaseContents(t: TestApp): Promise<string> {
  await t.container.meter.flush();
  if (t.db.database.kind === 'sqlite') {
    return fs
      .readdirSync(t.db.dir)
      .map((f) => fs.readFileSync(path.join(t.db.dir, f)).toString('latin1'))
      .join('\n');
  }
  const client = new pg.Client({ connectionString: t.db.database.url });
  await client.connect();
  try {
    const tables = await client.query<{ tablename: string }>(
      "select tablename from pg_tables where schemaname = 'public'",
    );
    let dump = '';
    for (const { tablename } of tables.rows) {
      const rows = await client.query(`select * from "${tablename}"`);
      dump += JSON.stringify(rows.rows);
    }
    return dump;
  } finally {
    await client.end();
  }
}

describe.each(DIALECTS)('key secrets on %s', (dialect) => {
  it('never reach the database or the logs', async () => {
    const t = await createTestApp(dialect, { env: { ARBITER_LOG_LEVEL: 'trace' } });
    try {
      const created = (
        await t.app.inject({
          method: 'POST',
          url: '/api-keys',
          headers: bearer(t.ownerKey),
          payload: { name: 'audited' },
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
