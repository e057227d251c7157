import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, type TestApp } from '../helpers/app.ts';
import { DIALECTS, TEST_REDIS_URL } from '../helpers/databases.ts';

describe.runIf(TEST_REDIS_URL).each(DIALECTS)('loop detection shared through Redis on %s', (dialect) => {
  let a: TestApp;
  let b: TestApp;
  beforeAll(async () => {
    const env = { REDIS_URL: TEST_REDIS_URL!, ARBITER_LOG_LEVEL: 'silent' };
    a = await createTestApp(dialect, { env });
    b = await createTestApp(dialect, { database: a.db, env });
  });
  afterAll(async () => {
    await b.close();
    await a.close();
  });

  it('counts identical failing calls across instances', async () => {
    const evaluate = async (t: TestApp, path: string) =>
      (
        await t.app.inject({
          method: 'POST',
          url: '/v1/evaluate',
          headers: bearer(a.ownerKey),
          payload: { action: 'fs.read', payload: { path } },
        })
      ).json().error?.code as string | undefined;
    // A path no other run uses, so counters left in Redis by earlier runs cannot interfere.
    const path = `/etc/arbiter-${Date.now()}-${Math.random()}`;
    const codes = [
      await evaluate(a, path),
      await evaluate(b, path),
      await evaluate(a, path),
      await evaluate(b, path),
    ];
    expect(codes).toEqual([
      'FILESYSTEM_DENIED',
      'FILESYSTEM_DENIED',
      'FILESYSTEM_DENIED',
      'RATE_LIMIT_EXCEEDED',
    ]);
    expect(await evaluate(a, path)).toBe('RATE_LIMIT_EXCEEDED');
  });
});
