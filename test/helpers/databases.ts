import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { Config } from '../../src/config.ts';

export type DialectName = 'sqlite' | 'postgres';

export interface TestDatabase {
  dialect: DialectName;
  database: Config['database'];
  /** A scratch directory for this database (the SQLite file lives here). */
  dir: string;
  drop(): Promise<void>;
}

export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL || undefined;
export const TEST_REDIS_URL = process.env.TEST_REDIS_URL || undefined;

/** SQLite always; PostgreSQL where TEST_DATABASE_URL is set (CI sets it). */
export const DIALECTS: DialectName[] = TEST_DATABASE_URL ? ['sqlite', 'postgres'] : ['sqlite'];

if (!TEST_DATABASE_URL && !process.env.ARBITER_QUIET_SKIPS) {
  process.env.ARBITER_QUIET_SKIPS = '1';
  console.warn('TEST_DATABASE_URL is not set: PostgreSQL suites are skipped (SQLite suites run).');
}

/** A brand-new, empty database of the given dialect, dropped again by `drop()`. */
export async function freshDatabase(dialect: DialectName): Promise<TestDatabase> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'arbiter-test-'));
  if (dialect === 'sqlite') {
    return {
      dialect,
      dir,
      database: { kind: 'sqlite', file: path.join(dir, 'arbiter.db') },
      drop: async () => fs.rmSync(dir, { recursive: true, force: true }),
    };
  }
  if (!TEST_DATABASE_URL) throw new Error('TEST_DATABASE_URL is not set');
  const name = `arbiter_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(TEST_DATABASE_URL);
  url.pathname = `/${name}`;
  return {
    dialect,
    dir,
    database: { kind: 'postgres', url: url.toString() },
    drop: async () => {
      const c = new pg.Client({ connectionString: TEST_DATABASE_URL });
      await c.connect();
      try {
        await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await c.end();
      }
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
