import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

export interface ScratchDatabase {
  /** A scratch directory (the SQLite file lives here). */
  dir: string;
  /** The environment that points Arbiter at this database. */
  env: Record<string, string>;
  database: { kind: 'sqlite'; file: string } | { kind: 'postgres'; url: string };
  drop(): Promise<void>;
}

/**
 * A brand-new, empty database for a test, benchmark or evaluation run: a SQLite file in a fresh
 * directory, or a new PostgreSQL database created through `adminUrl` and dropped by `drop()`.
 */
export async function scratchDatabase(
  kind: 'sqlite' | 'postgres',
  options: { adminUrl?: string; prefix?: string } = {},
): Promise<ScratchDatabase> {
  const prefix = options.prefix ?? 'arbiter_scratch';
  const dir = mkdtempSync(join(tmpdir(), `${prefix.replaceAll('_', '-')}-`));
  if (kind === 'sqlite') {
    return {
      dir,
      env: { ARBITER_DATA_DIR: dir },
      database: { kind: 'sqlite', file: join(dir, 'arbiter.db') },
      drop: async () => rmSync(dir, { recursive: true, force: true }),
    };
  }
  const adminUrl = options.adminUrl;
  if (!adminUrl) throw new Error('a PostgreSQL scratch database needs TEST_DATABASE_URL or DATABASE_URL');
  const name = `${prefix}_${randomBytes(6).toString('hex')}`;
  const admin = async (statement: string) => {
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  await admin(`CREATE DATABASE ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    dir,
    env: { ARBITER_DATA_DIR: dir, DATABASE_URL: url.toString() },
    database: { kind: 'postgres', url: url.toString() },
    drop: async () => {
      await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
