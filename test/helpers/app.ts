import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app.ts';
import { type Config, loadConfig } from '../../src/config.ts';
import { type Container, createContainer } from '../../src/container.ts';
import { generateKey } from '../../src/domains/api-keys/key-format.ts';
import { createLogger } from '../../src/logger.ts';
import { type DialectName, freshDatabase, type TestDatabase } from './databases.ts';

export interface TestApp {
  app: FastifyInstance;
  container: Container;
  db: TestDatabase;
  /** The owner account's key and id. */
  ownerKey: string;
  ownerId: string;
  /** Every log line written so far. */
  logs: () => string;
  /** Creates another account with its own key. */
  newAccount(email?: string): Promise<{ accountId: string; key: string; keyId: string }>;
  close(): Promise<void>;
}

export interface TestAppOptions {
  env?: Record<string, string>;
  /** Reuse an existing database (several instances on one database). */
  database?: TestDatabase;
}

let accountCounter = 0;

export async function createTestApp(dialect: DialectName, options: TestAppOptions = {}): Promise<TestApp> {
  const db = options.database ?? (await freshDatabase(dialect));
  const owned = options.database === undefined;
  const env: Record<string, string> = {
    ARBITER_DATA_DIR: db.dir,
    ARBITER_LOG_LEVEL: 'info',
    // The lexical embedder keeps suites fast; the local model has tests of its own.
    ARBITER_EMBEDDER: 'hash',
    ...(db.database.kind === 'postgres' ? { DATABASE_URL: db.database.url } : {}),
    ...options.env,
  };
  const config: Config = loadConfig(env);
  let logText = '';
  const sink = new Writable({
    write(chunk, _enc, done) {
      logText += chunk.toString();
      done();
    },
  });
  const container = await createContainer(config, createLogger(config.logLevel, sink));
  const ownerSecret = generateKey();
  const owner = await container.services.accounts.ensureOwner(ownerSecret);
  const app = await buildApp(container);
  const ownerAccount =
    owner?.account ?? (await container.services.accounts.findByIdOrEmail('owner@localhost'));
  return {
    app,
    container,
    db,
    ownerKey: owner ? ownerSecret : '',
    ownerId: ownerAccount!.id,
    logs: () => logText,
    async newAccount(email = `user${++accountCounter}-${Date.now()}@example.com`) {
      const created = await container.services.accounts.create({
        email,
        name: 'Test account',
        plan: 'developer',
      });
      return { accountId: created.account.id, key: created.key.key, keyId: created.key.id };
    },
    async close() {
      await app.close();
      await container.close();
      if (owned) await db.drop();
    },
  };
}

export function bearer(key: string): Record<string, string> {
  return { authorization: `Bearer ${key}` };
}
