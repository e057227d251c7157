import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createPostgresPolicyBus,
  createRedisPolicyBus,
  type PolicyCacheControl,
  type PolicyChangeBus,
} from '../../src/domains/verdict/policy-bus.ts';
import { freshDatabase, TEST_DATABASE_URL, TEST_REDIS_URL, type TestDatabase } from '../helpers/databases.ts';

const MAX_AGE_MS = 400;
const quiet = { warn: () => undefined };

/** What a bus did to the cache of the instance it runs in. */
function recorder() {
  const events: string[] = [];
  const control: PolicyCacheControl = {
    invalidate: (accountId) => events.push(`invalidate ${accountId}`),
    suspend: () => events.push('suspend'),
    resume: () => events.push('resume'),
  };
  return { events, control };
}

async function until(condition: () => boolean, limitMs = 5000): Promise<void> {
  const start = performance.now();
  while (!condition()) {
    if (performance.now() - start > limitMs) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe.runIf(TEST_REDIS_URL)('Redis policy bus', () => {
  // A channel of its own: other suites on the same Redis neither see nor slow these announcements.
  const channel = `arbiter:policy:test:${randomUUID()}`;
  let one: PolicyChangeBus;
  let two: PolicyChangeBus;
  const a = recorder();
  const b = recorder();
  beforeAll(async () => {
    one = await createRedisPolicyBus(TEST_REDIS_URL!, MAX_AGE_MS, quiet, channel);
    two = await createRedisPolicyBus(TEST_REDIS_URL!, MAX_AGE_MS, quiet, channel);
    one.listen(a.control);
    two.listen(b.control);
  });
  afterAll(async () => {
    await one.close();
    await two.close();
  });

  it('resolves once every instance dropped the account, without waiting out the lifetime', async () => {
    const started = performance.now();
    await one.announce('acct-1');
    expect(performance.now() - started).toBeLessThan(MAX_AGE_MS);
    expect(a.events).toContain('invalidate acct-1');
    expect(b.events).toContain('invalidate acct-1');
  });

  it('waits out the lifetime when a receiver never confirms', async () => {
    const silent = new Redis(TEST_REDIS_URL!);
    await silent.subscribe(channel);
    try {
      const started = performance.now();
      await two.announce('acct-2');
      expect(performance.now() - started).toBeGreaterThanOrEqual(MAX_AGE_MS - 5);
      expect(a.events).toContain('invalidate acct-2');
    } finally {
      silent.disconnect();
    }
  });
});

describe.runIf(TEST_DATABASE_URL)('PostgreSQL policy bus', () => {
  let database: TestDatabase;
  let url: string;
  let one: PolicyChangeBus;
  let two: PolicyChangeBus;
  const a = recorder();
  const b = recorder();
  beforeAll(async () => {
    database = await freshDatabase('postgres');
    url = (database.database as { url: string }).url;
    one = await createPostgresPolicyBus(url, MAX_AGE_MS, quiet);
    two = await createPostgresPolicyBus(url, MAX_AGE_MS, quiet);
    one.listen(a.control);
    two.listen(b.control);
  });
  afterAll(async () => {
    await one.close();
    await two.close();
    await database.drop();
  });

  it('resolves once every listening instance dropped the account', async () => {
    const started = performance.now();
    await one.announce('acct-1');
    expect(performance.now() - started).toBeLessThan(MAX_AGE_MS);
    expect(a.events).toContain('invalidate acct-1');
    expect(b.events).toContain('invalidate acct-1');
  });

  it('caches nothing while its listening connection is gone, and resumes once it listens again', async () => {
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    try {
      await admin.query(
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'arbiter-policy-bus'",
      );
    } finally {
      await admin.end();
    }
    await until(() => a.events.includes('suspend') && b.events.includes('suspend'));
    await until(() => a.events.at(-1) === 'resume' && b.events.at(-1) === 'resume');
    await one.announce('acct-3');
    expect(b.events).toContain('invalidate acct-3');
  });
});
