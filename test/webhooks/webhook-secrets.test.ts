import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { verifyWebhook } from '@arbiter/sdk';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.ts';
import { KEY_FILE_NAME, keyIdOf } from '../../src/lib/secret-box.ts';
import { bearer, createTestApp, type TestApp } from '../helpers/app.ts';
import { databaseContents } from '../helpers/database-contents.ts';
import { DIALECTS, freshDatabase, type TestDatabase } from '../helpers/databases.ts';
import { type Received, startReceiver } from '../helpers/receiver.ts';

const ENV = { ARBITER_LOG_LEVEL: 'silent', ARBITER_WEBHOOK_ALLOW_LOOPBACK: 'true' };

const newKey = () => randomBytes(32);

function verified(secret: string, req: Received) {
  return verifyWebhook<{ type: string }>(secret, req.body, {
    'webhook-id': String(req.headers['webhook-id']),
    'webhook-timestamp': String(req.headers['webhook-timestamp']),
    'webhook-signature': String(req.headers['webhook-signature']),
  });
}

async function storedSecret(t: TestApp, id: string): Promise<string> {
  const row = await t.container.db.kysely
    .selectFrom('webhook_endpoints')
    .select('secret')
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
  return row.secret;
}

async function subscribe(t: TestApp, key: string, url: string): Promise<{ id: string; secret: string }> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/webhooks',
    headers: bearer(key),
    payload: { url },
  });
  expect(res.statusCode).toBe(201);
  return res.json();
}

/** Queues a test event for the endpoint and runs delivery rounds until its first attempt is recorded. */
async function sendTest(t: TestApp, key: string, id: string): Promise<void> {
  const res = await t.app.inject({ method: 'POST', url: `/webhooks/${id}/test`, headers: bearer(key) });
  expect(res.statusCode).toBe(202);
  const deliveryId = res.json().delivery_id as string;
  const started = Date.now();
  for (;;) {
    await t.container.webhookWorker.tick();
    const row = await t.container.db.kysely
      .selectFrom('webhook_deliveries')
      .select('attempts')
      .where('id', '=', deliveryId)
      .executeTakeFirstOrThrow();
    if (Number(row.attempts) > 0) return;
    if (Date.now() - started > 10_000) throw new Error('the test event was not attempted within 10 s');
  }
}

describe('the secrets key in the configuration', () => {
  it.each([
    ['too short', 'c2hvcnQ='],
    ['not base64 or hex', 'not a key at all, just words!'],
    ['63 hex digits', 'a'.repeat(63)],
  ])('refuses a key that is %s, naming the variable', (_what, value) => {
    expect(() => loadConfig({ ARBITER_SECRETS_KEY: value })).toThrow(ConfigError);
    expect(() => loadConfig({ ARBITER_SECRETS_KEY: value })).toThrow(/ARBITER_SECRETS_KEY must be 32 bytes/);
    expect(() =>
      loadConfig({ ARBITER_SECRETS_KEY: newKey().toString('base64'), ARBITER_SECRETS_KEY_PREVIOUS: value }),
    ).toThrow(/ARBITER_SECRETS_KEY_PREVIOUS must be 32 bytes/);
  });

  it('reads base64 and hex, and wants a previous key only beside a current one', () => {
    const key = newKey();
    expect(loadConfig({ ARBITER_SECRETS_KEY: key.toString('base64') }).secrets.key).toEqual(key);
    expect(loadConfig({ ARBITER_SECRETS_KEY: key.toString('hex') }).secrets.key).toEqual(key);
    expect(() => loadConfig({ ARBITER_SECRETS_KEY_PREVIOUS: key.toString('base64') })).toThrow(
      /ARBITER_SECRETS_KEY_PREVIOUS is only read during a rotation/,
    );
  });
});

describe.each(DIALECTS)('webhook signing secrets at rest on %s', (dialect) => {
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let db: TestDatabase;
  beforeAll(async () => {
    receiver = await startReceiver(() => ({ status: 204 }));
  });
  afterAll(() => receiver.close());
  // Each test its own database: what one leaves sealed under its keys is no concern of the next.
  beforeEach(async () => {
    db = await freshDatabase(dialect);
  });
  afterEach(() => db.drop());

  /** An instance on the shared database with the given keys (base64), closed by the caller. */
  const instance = (keys: { key?: Buffer; previous?: Buffer } = {}) =>
    createTestApp(dialect, {
      database: db,
      env: {
        ...ENV,
        ...(keys.key ? { ARBITER_SECRETS_KEY: keys.key.toString('base64') } : {}),
        ...(keys.previous ? { ARBITER_SECRETS_KEY_PREVIOUS: keys.previous.toString('base64') } : {}),
      },
    });

  it('never stores the secret in plain text, and deliveries verify with the SDK', async () => {
    const key = newKey();
    const t = await instance({ key });
    try {
      const account = await t.newAccount();
      const hook = await subscribe(t, account.key, `${receiver.url}/at-rest`);
      const rotated = (
        await t.app.inject({
          method: 'POST',
          url: `/webhooks/${hook.id}/rotate-secret`,
          headers: bearer(account.key),
        })
      ).json() as { secret: string };
      expect(rotated.secret).toMatch(/^whsec_/);
      await sendTest(t, account.key, hook.id);

      const contents = await databaseContents(t);
      expect(contents).toContain(hook.id);
      for (const secret of [hook.secret, rotated.secret]) {
        expect(contents).not.toContain(secret);
        expect(contents).not.toContain(secret.slice(6, 30));
      }
      expect(await storedSecret(t, hook.id)).toMatch(new RegExp(`^v1:${keyIdOf(key)}:`));

      const delivered = receiver.received.filter((r) => r.path === '/at-rest');
      expect(delivered).toHaveLength(1);
      expect(verified(rotated.secret, delivered[0]!)).toMatchObject({ type: 'webhook.test' });
      expect(() => verified(hook.secret, delivered[0]!)).toThrow(/No webhook signature matches/);
    } finally {
      await t.close();
    }
  });

  it('after a rotation, endpoints sealed under the previous key are re-encrypted and deliver', async () => {
    const oldKey = newKey();
    const newer = newKey();
    const before = await instance({ key: oldKey });
    const account = await before.newAccount();
    const hook = await subscribe(before, account.key, `${receiver.url}/rotation`);
    const sealedBefore = await storedSecret(before, hook.id);
    expect(sealedBefore).toMatch(new RegExp(`^v1:${keyIdOf(oldKey)}:`));
    await before.close();

    const after = await instance({ key: newer, previous: oldKey });
    try {
      expect(after.container.secretsResealed.reencrypted).toBe(1);
      expect(after.container.secretsResealed.unreadable).toEqual([]);
      expect(await storedSecret(after, hook.id)).toMatch(new RegExp(`^v1:${keyIdOf(newer)}:`));
      await sendTest(after, account.key, hook.id);
      const delivered = receiver.received.filter((r) => r.path === '/rotation');
      expect(delivered).toHaveLength(1);
      expect(verified(hook.secret, delivered[0]!)).toMatchObject({ type: 'webhook.test' });
      // Nothing is left under the old key: it can be removed.
      expect(await after.container.services.webhooks.reencryptSecrets()).toMatchObject({
        reencrypted: 0,
        unreadable: [],
      });
    } finally {
      await after.close();
    }

    // Without the old key, a value sealed under it is not sent unsigned: the attempt fails, saying why.
    const lost = await instance({ key: oldKey });
    try {
      expect(lost.container.secretsResealed.unreadable).toEqual([hook.id]);
      await sendTest(lost, account.key, hook.id);
      expect(receiver.received.filter((r) => r.path === '/rotation')).toHaveLength(1);
      const log = (
        await lost.app.inject({
          method: 'GET',
          url: `/webhooks/${hook.id}/deliveries`,
          headers: bearer(account.key),
        })
      ).json();
      expect(log.deliveries[0].last_error).toContain(`encrypted with key ${keyIdOf(newer)}`);
    } finally {
      await lost.close();
    }
  });

  it('seals plaintext secrets stored before encryption at start, and they keep delivering', async () => {
    const key = newKey();
    const first = await instance({ key });
    const account = await first.newAccount();
    const hook = await subscribe(first, account.key, `${receiver.url}/legacy`);
    const legacy = `whsec_${randomBytes(32).toString('base64')}`;
    await first.container.db.kysely
      .updateTable('webhook_endpoints')
      .set({ secret: legacy })
      .where('id', '=', hook.id)
      .execute();
    await first.close();

    const t = await instance({ key });
    try {
      expect(await storedSecret(t, hook.id)).toMatch(new RegExp(`^v1:${keyIdOf(key)}:`));
      const rows = await t.container.db.kysely
        .selectFrom('webhook_endpoints')
        .select('id')
        .where('secret', 'like', 'whsec_%')
        .execute();
      expect(rows).toEqual([]);
      await sendTest(t, account.key, hook.id);
      const delivered = receiver.received.filter((r) => r.path === '/legacy');
      expect(delivered).toHaveLength(1);
      expect(verified(legacy, delivered[0]!)).toMatchObject({ type: 'webhook.test' });
    } finally {
      await t.close();
    }
  });
});

describe('without a configured key', () => {
  it('keeps a generated key in the data directory, readable by its owner only, and reuses it', async () => {
    const db = await freshDatabase('sqlite');
    const receiver = await startReceiver(() => ({ status: 204 }));
    try {
      const first = await createTestApp('sqlite', { database: db, env: ENV });
      const account = await first.newAccount();
      const hook = await subscribe(first, account.key, `${receiver.url}/keyfile`);
      await first.close();
      const file = path.join(db.dir, KEY_FILE_NAME);
      expect(fs.statSync(file).mode & 0o777).toBe(0o600);
      const keyText = fs.readFileSync(file, 'utf8');

      const second = await createTestApp('sqlite', { database: db, env: ENV });
      try {
        expect(fs.readFileSync(file, 'utf8')).toBe(keyText);
        expect(second.container.secretsResealed).toMatchObject({ reencrypted: 0, unreadable: [] });
        await sendTest(second, account.key, hook.id);
        expect(verified(hook.secret, receiver.received[0]!)).toMatchObject({ type: 'webhook.test' });
      } finally {
        await second.close();
      }
    } finally {
      await receiver.close();
      await db.drop();
    }
  });
});
