import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { DIALECTS } from '../helpers/databases.ts';

describe.each(DIALECTS)('verdict audit volume on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect, { env: { ARBITER_LOG_LEVEL: 'silent' } });
  });
  afterAll(() => t.close());

  // A busy second of verdicts is one buffered batch: more rows than SQLite binds in one statement.
  it('writes a batch of 4000 buffered verdict entries as one valid chain', async () => {
    const account = await t.newAccount();
    for (let i = 0; i < 4000; i++) {
      t.container.audit.record({
        accountId: account.accountId,
        actor: account.keyId,
        action: 'verdict.evaluated',
        target: i.toString(16).padStart(64, '0'),
        details: { action: 'fs.read', code: null },
      });
    }
    await t.container.audit.flush();
    const entries = await t.container.audit.repo.list(account.accountId, { limit: 5000 });
    expect(entries.filter((e) => e.action === 'verdict.evaluated')).toHaveLength(4000);
    expect(await t.container.audit.repo.verify(account.accountId)).toMatchObject({ valid: true });
  });
});
