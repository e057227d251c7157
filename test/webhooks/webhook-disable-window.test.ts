import { randomBytes } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Db, migrateDown, migrateToLatest, openDatabase } from '../../src/db/database.ts';
import { emitEvent } from '../../src/domains/webhooks/outbox.ts';
import { createWebhooksRepo } from '../../src/domains/webhooks/repo.ts';
import { WebhookWorker, type WorkerSettings } from '../../src/domains/webhooks/worker.ts';
import { createSecretBox } from '../../src/lib/secret-box.ts';
import { DIALECTS, freshDatabase, type TestDatabase } from '../helpers/databases.ts';
import { startReceiver } from '../helpers/receiver.ts';

const HOUR = 3_600_000;
const MIGRATION = '202611281100_webhook_failing_since';

const SETTINGS: WorkerSettings = {
  allowLoopback: true,
  pollMs: 60_000,
  retryBaseMs: 1000,
  timeoutMs: 5000,
  // Each event is tried once: every delivery below is one failure of the endpoint.
  maxAttempts: 1,
  disableAfter: 5,
  disableAfterMs: 24 * HOUR,
};

/**
 * A receiver that is down for a few minutes (a deploy, a restart) fails a burst of deliveries; it
 * keeps its subscription. One failing for a day, `disableAfter` times in a row at least, loses it.
 * The worker runs on a clock the test moves.
 */
describe.each(DIALECTS)('disabling a failing webhook endpoint on %s', (dialect) => {
  let tdb: TestDatabase;
  let db: Db;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let status: number;
  let clock: number;
  let worker: WebhookWorker;
  const warnings: object[] = [];

  beforeEach(async () => {
    tdb = await freshDatabase(dialect);
    db = openDatabase(tdb.database);
    await migrateToLatest(db);
    status = 500;
    receiver = await startReceiver(() => ({ status }));
    clock = Date.parse('2026-11-02T08:00:00.000Z');
    warnings.length = 0;
    const at = new Date(clock).toISOString();
    await db.kysely
      .insertInto('webhook_endpoints')
      .values({
        id: 'we_flaky',
        account_id: 'a',
        url: `${receiver.url}/hook`,
        description: '',
        event_types: '[]',
        secret: `whsec_${randomBytes(24).toString('base64')}`,
        status: 'enabled',
        disabled_reason: null,
        consecutive_failures: 0,
        created_at: at,
        updated_at: at,
      })
      .execute();
    worker = new WebhookWorker(
      createWebhooksRepo(db.kysely, db.dialect),
      SETTINGS,
      { warn: (obj: object) => void warnings.push(obj), error: () => undefined },
      createSecretBox(randomBytes(32)),
      () => new Date(clock),
    );
  });
  afterEach(async () => {
    await receiver.close();
    await db.close();
    await tdb.drop();
  });

  /** `count` events delivered (and answered with `status`) at the clock's time, in one round. */
  async function deliver(count: number): Promise<void> {
    for (let i = 0; i < count; i++)
      await emitEvent(db.kysely, 'a', 'verdict.rejected', { i }, new Date(clock));
    await worker.tick();
  }

  const endpoint = () =>
    db.kysely
      .selectFrom('webhook_endpoints')
      .select(['status', 'consecutive_failures', 'failing_since', 'disabled_reason'])
      .where('id', '=', 'we_flaky')
      .executeTakeFirstOrThrow();

  it('keeps an endpoint enabled through a burst of failures, however many', async () => {
    await deliver(12);
    clock += 10 * 60_000;
    await deliver(8);
    expect(receiver.received).toHaveLength(20);
    expect(await endpoint()).toMatchObject({
      status: 'enabled',
      consecutive_failures: 20,
      failing_since: '2026-11-02T08:00:00.000Z',
    });
  });

  it('disables an endpoint that has failed in a row for a day', async () => {
    for (let hour = 0; hour < 24; hour += 6) {
      await deliver(1);
      clock += 6 * HOUR;
    }
    // Four failures in 18 hours, then the fifth a day after the first.
    expect((await endpoint()).status).toBe('enabled');
    await deliver(1);
    const disabled = await endpoint();
    expect(disabled).toMatchObject({ status: 'disabled', consecutive_failures: 5 });
    expect(disabled.disabled_reason).toBe(
      '5 consecutive failed deliveries over at least 24 h; last: HTTP 500',
    );
    expect(warnings).toContainEqual(expect.objectContaining({ endpoint: 'we_flaky' }));
  });

  it('needs the failures in a row too: a day of failing twice is not enough', async () => {
    await deliver(2);
    clock += 25 * HOUR;
    await deliver(2);
    expect(await endpoint()).toMatchObject({ status: 'enabled', consecutive_failures: 4 });
  });

  it('starts the day again after a delivery succeeds', async () => {
    await deliver(5);
    clock += 20 * HOUR;
    status = 200;
    await deliver(1);
    expect(await endpoint()).toMatchObject({ consecutive_failures: 0, failing_since: null });
    status = 500;
    clock += 5 * HOUR;
    await deliver(5);
    expect(await endpoint()).toMatchObject({
      status: 'enabled',
      failing_since: new Date(clock).toISOString(),
    });
  });

  it(`migrates ${MIGRATION} down and up again`, async () => {
    const downs: string[] = [];
    for (let i = 0; i < 20 && !downs.includes(`Down ${MIGRATION}`); i++)
      downs.push(...(await migrateDown(db)));
    expect(downs).toContain(`Down ${MIGRATION}`);
    await expect(
      db.kysely.selectFrom('webhook_endpoints').select('failing_since').execute(),
    ).rejects.toThrow();
    expect(await migrateToLatest(db)).toContain(`Up ${MIGRATION}`);
    expect(await endpoint()).toMatchObject({ status: 'enabled', failing_since: null });
  });
});
