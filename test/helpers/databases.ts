import { scratchDatabase } from '../../scripts/lib/scratch-database.ts';
import type { Config } from '../../src/config.ts';
import { type Db, openDatabase } from '../../src/db/database.ts';

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
  const scratch = await scratchDatabase(dialect, { adminUrl: TEST_DATABASE_URL, prefix: 'arbiter_test' });
  return { dialect, dir: scratch.dir, database: scratch.database, drop: scratch.drop };
}

/** A fresh database, opened; `drop()` closes it and drops it. */
export async function openFreshDatabase(
  dialect: DialectName,
): Promise<{ db: Db; drop: () => Promise<void> }> {
  const tdb = await freshDatabase(dialect);
  const db = openDatabase(tdb.database);
  return {
    db,
    drop: async () => {
      await db.close();
      await tdb.drop();
    },
  };
}
