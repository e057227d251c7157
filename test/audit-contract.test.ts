import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Db, migrateToLatest, openDatabase } from '../src/db/database.ts';
import { type AuditRepo, createAuditRepo } from '../src/domains/audit/repo.ts';
import { AuditLog } from '../src/domains/audit/service.ts';
import { DIALECTS, freshDatabase, type TestDatabase } from './helpers/databases.ts';

describe.each(DIALECTS)('audit log contract on %s', (dialect) => {
  let tdb: TestDatabase;
  let db: Db;
  let repo: AuditRepo;

  beforeEach(async () => {
    tdb = await freshDatabase(dialect);
    db = openDatabase(tdb.database);
    await migrateToLatest(db);
    repo = createAuditRepo(db.kysely, db.dialect);
  });
  afterEach(async () => {
    await db.close();
    await tdb.drop();
  });

  it('chains entries per account in order and verifies them', async () => {
    await repo.append([
      { accountId: 'a', actor: 'k1', action: 'api_key.created', target: 'k2' },
      { accountId: 'b', actor: 'k9', action: 'claim.stored' },
      { accountId: 'a', actor: 'k1', action: 'api_key.revoked', target: 'k2', details: { why: 'rotation' } },
    ]);
    const a = await repo.list('a', { limit: 10 });
    expect(a.map((e) => [e.seq, e.action])).toEqual([
      [1, 'api_key.created'],
      [2, 'api_key.revoked'],
    ]);
    expect(a[1]!.prev_hash).toBe(a[0]!.hash);
    expect(a[1]!.details).toEqual({ why: 'rotation' });
    expect(await repo.verify('a')).toEqual({ valid: true, entries: 2 });
    expect(await repo.verify('b')).toEqual({ valid: true, entries: 1 });
    expect(await repo.list('a', { afterSeq: 1, limit: 10 })).toHaveLength(1);
  });

  it('names the first entry edited behind its back', async () => {
    await repo.append([1, 2, 3].map((i) => ({ accountId: 'a', actor: 'k', action: `event.${i}` })));
    const second = (await repo.list('a', { limit: 10 }))[1]!;
    await db.kysely
      .updateTable('audit_log')
      .set({ details: '{"forged":true}' })
      .where('id', '=', second.id)
      .execute();
    expect(await repo.verify('a')).toMatchObject({ valid: false, first_bad_seq: 2, first_bad_id: second.id });
  });

  it('notices entries deleted from the end', async () => {
    await repo.append([1, 2, 3].map((i) => ({ accountId: 'a', actor: 'k', action: `event.${i}` })));
    await db.kysely.deleteFrom('audit_log').where('seq', '=', 3).execute();
    expect(await repo.verify('a')).toMatchObject({ valid: false, first_bad_seq: 3 });
  });

  it('keeps one valid chain under concurrent writers', async () => {
    // PostgreSQL: two pools, as two instances would have. SQLite: one process owns the file,
    // so concurrency means interleaved transactions on its one connection.
    const other = dialect === 'postgres' ? openDatabase(tdb.database) : db;
    const otherRepo = createAuditRepo(other.kysely, other.dialect);
    try {
      await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          (i % 2 ? repo : otherRepo).append([{ accountId: 'a', actor: 'k', action: `e${i}` }]),
        ),
      );
      expect(await repo.verify('a')).toEqual({ valid: true, entries: 20 });
    } finally {
      if (other !== db) await other.close();
    }
  });

  it('buffers hot-path events and writes them all on stop', async () => {
    const log = new AuditLog(repo, 60_000, { error: () => undefined });
    for (let i = 0; i < 50; i++)
      log.record({ accountId: 'a', actor: 'k', action: 'verdict.rejected', details: { i } });
    expect(await repo.list('a', { limit: 100 })).toHaveLength(0);
    await log.stop();
    const entries = await repo.list('a', { limit: 100 });
    expect(entries.map((e) => e.details.i)).toEqual(Array.from({ length: 50 }, (_, i) => i));
    expect(await repo.verify('a')).toEqual({ valid: true, entries: 50 });
  });
});
