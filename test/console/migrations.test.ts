import { describe, expect, it } from 'vitest';
import { migrateDown, migrateToLatest } from '../../src/db/database.ts';
import { DIALECTS, openFreshDatabase } from '../helpers/databases.ts';

describe.each(DIALECTS)('console migrations on %s', (dialect) => {
  it('go up, down past the console sessions, and up again', async () => {
    const { db, drop } = await openFreshDatabase(dialect);
    try {
      await migrateToLatest(db);
      const downs: string[] = [];
      for (let i = 0; i < 20 && !downs.includes('Down 202611231500_console_sessions'); i++) {
        downs.push(...(await migrateDown(db)));
      }
      expect(downs).toContain('Down 202611231800_evaluations_by_status');
      await expect(db.kysely.selectFrom('console_sessions').selectAll().execute()).rejects.toThrow();
      const ups = await migrateToLatest(db);
      expect(ups).toEqual(
        expect.arrayContaining(['Up 202611231500_console_sessions', 'Up 202611231800_evaluations_by_status']),
      );
      await db.kysely
        .insertInto('console_sessions')
        .values({ token_hash: 'h', account_id: 'a', key_id: 'k', created_at: 'x', expires_at: 'y' })
        .execute();
      expect(await db.kysely.selectFrom('console_sessions').select('token_hash').execute()).toEqual([
        { token_hash: 'h' },
      ]);
    } finally {
      await drop();
    }
  });
});
