import canonicalize from 'canonicalize';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Db, migrateToLatest, openDatabase } from '../src/db/database.ts';
import { type AuditRepo, canonicalEntry, createAuditRepo } from '../src/domains/audit/repo.ts';
import { AuditLog } from '../src/domains/audit/service.ts';
import { startWriterThread } from '../src/writer-thread/index.ts';
import { createJobRunner } from '../src/writer-thread/jobs.ts';
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

  it('writes an identified event once however often its batch is appended', async () => {
    const batch = [1, 2, 3].map((i) => ({
      id: `00000000-0000-7000-8000-00000000000${i}`,
      accountId: 'a',
      actor: 'k',
      action: `event.${i}`,
    }));
    await repo.append(batch.slice(0, 2));
    await repo.append([{ accountId: 'a', actor: 'k', action: 'api_key.created' }]);
    const written = await repo.append(batch);
    expect(written.map((e) => e.id)).toEqual([batch[2]!.id]);
    expect((await repo.list('a', { limit: 10 })).map((e) => e.action)).toEqual([
      'event.1',
      'event.2',
      'api_key.created',
      'event.3',
    ]);
    expect(await repo.verify('a')).toEqual({ valid: true, entries: 4 });
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

  it('appends on the writer thread into the same chain as appends on this thread', async () => {
    const errors: unknown[] = [];
    const thread = startWriterThread(tdb.database, createJobRunner(db), {
      error: (obj: object) => errors.push(obj),
    });
    const log = new AuditLog(repo, 60_000, { error: (obj: object) => errors.push(obj) }, (events) =>
      thread.run({ kind: 'audit.append', events }),
    );
    for (let i = 0; i < 30; i++)
      log.record({ accountId: 'a', actor: 'k', action: 'verdict.evaluated', details: { i } });
    await log.flush();
    // A transactional append on this connection between two thread batches.
    await repo.append([{ accountId: 'a', actor: 'k', action: 'api_key.created' }]);
    for (let i = 30; i < 60; i++)
      log.record({ accountId: 'a', actor: 'k', action: 'verdict.evaluated', details: { i } });
    await log.stop();
    await thread.close();
    const entries = await repo.list('a', { limit: 100 });
    expect(entries).toHaveLength(61);
    expect(entries[30]!.action).toBe('api_key.created');
    expect(entries.filter((e) => e.action === 'verdict.evaluated').map((e) => e.details.i)).toEqual(
      Array.from({ length: 60 }, (_, i) => i),
    );
    expect(await repo.verify('a')).toEqual({ valid: true, entries: 61 });
    expect(errors).toEqual([]);
  });

  it('appends on this thread when the writer thread cannot run, losing nothing', async () => {
    const errors: unknown[] = [];
    // A database the thread cannot open: it fails at start and every batch falls back.
    const broken =
      dialect === 'sqlite'
        ? { kind: 'sqlite' as const, file: tdb.dir }
        : { kind: 'postgres' as const, url: 'postgres://nobody@127.0.0.1:1/none' };
    const thread = startWriterThread(broken, createJobRunner(db), {
      error: (obj: object) => errors.push(obj),
    });
    const log = new AuditLog(repo, 60_000, { error: () => undefined }, (events) =>
      thread.run({ kind: 'audit.append', events }),
    );
    for (let i = 0; i < 20; i++)
      log.record({ accountId: 'a', actor: 'k', action: 'verdict.rejected', details: { i } });
    await log.stop();
    await thread.close();
    expect((await repo.list('a', { limit: 100 })).map((e) => e.details.i)).toEqual(
      Array.from({ length: 20 }, (_, i) => i),
    );
    expect(await repo.verify('a')).toEqual({ valid: true, entries: 20 });
    expect(errors.length).toBeGreaterThan(0);
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

describe('canonicalEntry', () => {
  it('is the RFC 8785 form the generic canonicaliser writes', () => {
    fc.assert(
      fc.property(
        fc.record({
          account_id: fc.string(),
          seq: fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }),
          at: fc.string(),
          actor: fc.string({ unit: 'binary' }),
          action: fc.string(),
          target: fc.option(fc.string({ unit: 'binary' }), { nil: null }),
          details: fc.dictionary(fc.string(), fc.jsonValue()) as fc.Arbitrary<Record<string, unknown>>,
        }),
        (entry) => {
          expect(canonicalEntry(entry)).toBe(canonicalize(entry));
        },
      ),
      { numRuns: 300 },
    );
  });
});
