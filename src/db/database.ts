import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import {
  CompiledQuery,
  type DatabaseConnection,
  type Driver,
  Kysely,
  type MigrationResultSet,
  Migrator,
  NO_MIGRATIONS,
  PostgresDialect,
  SqliteDialect,
  type SqliteDialectConfig,
  SqliteDriver,
  sql,
} from 'kysely';
import pg from 'pg';
import * as sqliteVec from 'sqlite-vec';
import type { Config } from '../config.ts';
import { migrations } from './migrations/index.ts';
import type { Database } from './schema.ts';

export type DialectName = 'sqlite' | 'postgres';

export interface Db {
  readonly kysely: Kysely<Database>;
  readonly dialect: DialectName;
  close(): Promise<void>;
}

const INT8_OID = 20;

/**
 * Transactions that take the write lock when they begin. A deferred transaction that reads and
 * then writes fails at once with SQLITE_BUSY, without waiting, when another connection (the
 * audit writer thread's) wrote in between; an immediate one waits its turn (busy_timeout).
 */
class ImmediateSqliteDriver extends SqliteDriver {
  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
  }
}

class ImmediateSqliteDialect extends SqliteDialect {
  constructor(private readonly driverConfig: SqliteDialectConfig) {
    super(driverConfig);
  }
  override createDriver(): Driver {
    return new ImmediateSqliteDriver(this.driverConfig);
  }
}

const STATEMENT_CACHE_SIZE = 500;

/**
 * The connection as Kysely sees it, with prepared statements kept by their SQL text: Kysely
 * prepares every query it runs, and preparing costs more than running most of ours. SQLite
 * re-prepares a kept statement by itself when the schema changes under it.
 */
function withStatementCache(handle: SQLite.Database): SqliteDialectConfig['database'] {
  const statements = new Map<string, SQLite.Statement>();
  return {
    close: () => handle.close(),
    prepare(text: string) {
      let statement = statements.get(text);
      if (statement === undefined) {
        statement = handle.prepare(text);
        if (statements.size >= STATEMENT_CACHE_SIZE) {
          statements.delete(statements.keys().next().value as string);
        }
        statements.set(text, statement);
      }
      return statement;
    },
  };
}

/** Opens the configured database. Callers run `migrateToLatest` before serving. */
export function openDatabase(database: Config['database'], options: { maxConnections?: number } = {}): Db {
  if (database.kind === 'sqlite') {
    fs.mkdirSync(path.dirname(database.file), { recursive: true });
    const handle = new SQLite(database.file);
    // WAL lets readers proceed while a write commits; NORMAL sync is durable across process
    // crashes (the WAL is fsynced at checkpoints) and is what WAL mode is designed for.
    handle.pragma('journal_mode = WAL');
    handle.pragma('synchronous = NORMAL');
    handle.pragma('foreign_keys = ON');
    handle.pragma('busy_timeout = 5000');
    // k-NN over claim embeddings (vec0 virtual tables); shipped as a prebuilt extension in the package.
    sqliteVec.load(handle);
    const kysely = new Kysely<Database>({
      dialect: new ImmediateSqliteDialect({ database: withStatementCache(handle) }),
    });
    return { kysely, dialect: 'sqlite', close: () => kysely.destroy() };
  }
  const pool = new pg.Pool({
    connectionString: database.url,
    max: options.maxConnections ?? 10,
    // Counters are BIGINT; they stay far below 2^53, so read them as numbers.
    types: {
      getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
        oid === INT8_OID
          ? (v: string) => Number(v)
          : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
    },
  });
  // An idle pooled connection can be cut by the server (restart, failover, admin command); the
  // pool drops it and the next query opens a new one. Unhandled, the event would end the process.
  pool.on('error', () => undefined);
  const kysely = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  return { kysely, dialect: 'postgres', close: () => kysely.destroy() };
}

function migrator(db: Db): Migrator {
  return new Migrator({
    db: db.kysely,
    provider: { getMigrations: async () => migrations },
    migrationTableName: 'arbiter_migrations',
    migrationLockTableName: 'arbiter_migrations_lock',
  });
}

function unwrap(result: MigrationResultSet): string[] {
  if (result.error) throw result.error;
  return (result.results ?? []).map((r) => `${r.direction} ${r.migrationName}`);
}

export async function migrateToLatest(db: Db): Promise<string[]> {
  return unwrap(await migrator(db).migrateToLatest());
}

export async function migrateDown(db: Db): Promise<string[]> {
  return unwrap(await migrator(db).migrateDown());
}

export async function migrateToNothing(db: Db): Promise<string[]> {
  return unwrap(await migrator(db).migrateTo(NO_MIGRATIONS));
}

/** True when the database answers and every known migration has been applied. */
export async function isReady(db: Db): Promise<boolean> {
  try {
    await sql`select 1`.execute(db.kysely);
    const known = await migrator(db).getMigrations();
    return known.every((m) => m.executedAt !== undefined);
  } catch {
    return false;
  }
}
