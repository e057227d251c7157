import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Db, isReady, migrateToLatest, migrateToNothing, openDatabase } from '../src/db/database.ts';
import { createAccountsRepo } from '../src/domains/accounts/repo.ts';
import { hashKey } from '../src/domains/api-keys/key-format.ts';
import { createApiKeysRepo } from '../src/domains/api-keys/repo.ts';
import { UsageMeter } from '../src/domains/usage/meter.ts';
import { createUsageRepo } from '../src/domains/usage/repo.ts';
import { DIALECTS, freshDatabase, type TestDatabase } from './helpers/databases.ts';

async function tableNames(db: Db): Promise<string[]> {
  const tables = await db.kysely.introspection.getTables();
  return tables
    .map((t) => t.name)
    .filter((n) => !n.startsWith('arbiter_migrations'))
    .sort();
}

describe.each(DIALECTS)('storage contract on %s', (dialect) => {
  let tdb: TestDatabase;
  let db: Db;

  beforeEach(async () => {
    tdb = await freshDatabase(dialect);
    db = openDatabase(tdb.database);
    await migrateToLatest(db);
  });
  afterEach(async () => {
    await db.close();
    await tdb.drop();
  });

  it('migrates up, all the way down, and up again', async () => {
    expect(await isReady(db)).toBe(true);
    const tables = await tableNames(db);
    expect(tables).toEqual(expect.arrayContaining(['accounts', 'api_keys', 'usage_daily', 'usage_monthly']));
    await migrateToNothing(db);
    expect(await tableNames(db)).toEqual([]);
    expect(await isReady(db)).toBe(false);
    await migrateToLatest(db);
    expect(await tableNames(db)).toEqual(tables);
    expect(await isReady(db)).toBe(true);
  });

  it('stores accounts with unique emails', async () => {
    const accounts = createAccountsRepo(db.kysely);
    const a = {
      id: randomUUID(),
      email: 'a@example.com',
      name: 'A',
      plan: 'free',
      created_at: new Date().toISOString(),
    };
    await accounts.insert(a);
    expect(await accounts.findById(a.id)).toEqual(a);
    expect(await accounts.findByEmail('a@example.com')).toEqual(a);
    expect(await accounts.count()).toBe(1);
    await expect(accounts.insert({ ...a, id: randomUUID() })).rejects.toThrow();
    expect(await accounts.count()).toBe(1);
  });

  it('finds active keys by hash only, and never after revocation', async () => {
    const accounts = createAccountsRepo(db.kysely);
    const keys = createApiKeysRepo(db.kysely);
    const accountId = randomUUID();
    await accounts.insert({
      id: accountId,
      email: 'k@example.com',
      name: 'K',
      plan: 'developer',
      created_at: '2026-01-01T00:00:00.000Z',
    });
    const keyId = randomUUID();
    await db.kysely.transaction().execute((trx) =>
      keys.insert(trx, {
        id: keyId,
        account_id: accountId,
        name: 'ci',
        key_hash: hashKey('secret-one'),
        key_last4: '-one',
        role: 'agent',
        created_at: '2026-01-01T00:00:00.000Z',
        revoked_at: null,
      }),
    );
    expect(await keys.findActiveByHash(hashKey('secret-one'))).toEqual({
      keyId,
      accountId,
      plan: 'developer',
      role: 'agent',
    });
    expect(await keys.findActiveByHash(hashKey('secret-two'))).toBeUndefined();
    expect(await keys.findForAccount(randomUUID(), keyId)).toBeUndefined();
    await db.kysely
      .transaction()
      .execute((trx) => keys.revoke(trx, accountId, keyId, '2026-01-02T00:00:00.000Z'));
    expect(await keys.findActiveByHash(hashKey('secret-one'))).toBeUndefined();
    expect((await keys.findForAccount(accountId, keyId))?.revoked_at).toBe('2026-01-02T00:00:00.000Z');
  });

  it('adds usage counts batch by batch and reports them per key and month', async () => {
    const accounts = createAccountsRepo(db.kysely);
    const keys = createApiKeysRepo(db.kysely);
    const usage = createUsageRepo(db.kysely, db.dialect);
    const accountId = randomUUID();
    const keyId = randomUUID();
    await accounts.insert({
      id: accountId,
      email: 'u@example.com',
      name: 'U',
      plan: 'free',
      created_at: '2026-01-01T00:00:00.000Z',
    });
    await db.kysely.transaction().execute((trx) =>
      keys.insert(trx, {
        id: keyId,
        account_id: accountId,
        name: 'a',
        key_hash: 'h',
        key_last4: 'abcd',
        role: 'agent',
        created_at: '2026-01-01T00:00:00.000Z',
        revoked_at: null,
      }),
    );

    const meter = new UsageMeter(usage, 60_000, { error: () => undefined });
    const march = new Date('2026-03-15T10:00:00Z');
    for (let i = 0; i < 5; i++) meter.record(keyId, accountId, 'GET /api-keys', march);
    meter.record(keyId, accountId, 'POST /v1/evaluate', new Date('2026-03-16T10:00:00Z'));
    meter.record(keyId, accountId, 'POST /v1/evaluate', new Date('2026-04-01T00:00:00Z'));
    expect(meter.pendingForKey(keyId, '2026-03')).toBe(6);
    await meter.flush();
    expect(meter.pendingForKey(keyId, '2026-03')).toBe(0);
    meter.record(keyId, accountId, 'GET /api-keys', march);
    await meter.stop();

    const [listed] = await keys.listWithUsage(accountId, '2026-03');
    expect(listed?.calls_this_month).toBe(7);
    expect((await keys.listWithUsage(accountId, '2026-04'))[0]?.calls_this_month).toBe(1);
    expect((await keys.listWithUsage(accountId, '2026-05'))[0]?.calls_this_month).toBe(0);
    const daily = await usage.dailyForAccount(accountId, '2026-03-01', '2026-03-31');
    expect(daily.map((d) => [d.day, d.endpoint, Number(d.calls)])).toEqual([
      ['2026-03-15', 'GET /api-keys', 6],
      ['2026-03-16', 'POST /v1/evaluate', 1],
    ]);
  });

  it('keeps counts for the next flush when a write fails', async () => {
    let fail = true;
    const real = createUsageRepo(db.kysely, db.dialect);
    const written: number[] = [];
    const flaky = {
      addCounts: async (...args: Parameters<typeof real.addCounts>) => {
        if (fail) throw new Error('database unavailable');
        written.push(args[0].reduce((n, c) => n + c.calls, 0));
        return real.addCounts(...args);
      },
    };
    const meter = new UsageMeter(flaky, 60_000, { error: () => undefined });
    meter.record('k', 'a', 'GET /x');
    meter.record('k', 'a', 'GET /x');
    await meter.flush();
    meter.record('k', 'a', 'GET /x');
    fail = false;
    await meter.flush();
    expect(written).toEqual([3]);
  });

  it('runs a transaction all-or-nothing', async () => {
    const accounts = createAccountsRepo(db.kysely);
    await expect(
      db.kysely.transaction().execute(async (trx) => {
        await trx
          .insertInto('accounts')
          .values({ id: randomUUID(), email: 't@example.com', name: 'T', plan: 'free', created_at: 'x' })
          .execute();
        await sql`select * from no_such_table`.execute(trx);
      }),
    ).rejects.toThrow();
    expect(await accounts.findByEmail('t@example.com')).toBeUndefined();
  });
});
