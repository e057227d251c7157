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
import type { Logger } from 'pino';
import * as sqliteVec from 'sqlite-vec';
import type { Config } from '../config.ts';
import { logThrottle } from '../lib/log-throttle.ts';
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

/** Socket-level failures: the server or the network between us went away. */
const CONNECTION_ERROR_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'EHOSTDOWN',
  'ENETUNREACH',
  'ENETDOWN',
  'ENOTFOUND',
  'EAI_AGAIN',
]);
/**
 * SQLSTATEs that say the server cannot serve now, not that the query is wrong: class 08
 * (connection exception), 57P01–57P03 (shut down by an administrator, crashed, starting up) and
 * 53300 (too many connections).
 */
const UNAVAILABLE_SQLSTATES = /^(08...|57P0[123]|53300)$/;
/** What node-postgres and its pool say when a connection ends or cannot be had. */
const CONNECTION_ERROR_MESSAGES =
  /^(Connection terminated|Client has encountered a connection error|Client was closed|timeout exceeded when trying to connect)/;

/**
 * True for an error that means PostgreSQL could not be reached or dropped the connection (a
 * restart, a failover, a cut network), as opposed to a query it refused. Such a request is worth
 * retrying a moment later: it answers 503 with Retry-After, not 500. Follows `cause` chains and
 * the errors inside an AggregateError (a refused connection on every address of a host).
 */
export function isDatabaseUnavailable(err: unknown, depth = 0): boolean {
  if (!(err instanceof Error) || depth > 4) return false;
  const code = (err as { code?: unknown }).code;
  if (typeof code === 'string' && (CONNECTION_ERROR_CODES.has(code) || UNAVAILABLE_SQLSTATES.test(code)))
    return true;
  if (CONNECTION_ERROR_MESSAGES.test(err.message)) return true;
  if (err instanceof AggregateError && err.errors.some((e) => isDatabaseUnavailable(e, depth + 1)))
    return true;
  return isDatabaseUnavailable(err.cause, depth + 1);
}

/** How long a request waits for a connection before it answers 503 instead of hanging. */
const CONNECT_TIMEOUT_MS = 5000;
/** At most one log line per this long about lost connections, however many are lost. */
const CONNECTION_LOG_INTERVAL_MS = 5000;

export interface OpenDatabaseOptions {
  maxConnections?: number;
  /** Where lost PostgreSQL connections are reported (throttled); without it they are dropped silently. */
  log?: Pick<Logger, 'warn'>;
  /** SQLite: a connection that can only read (a thread that answers queries beside the writer). */
  readOnly?: boolean;
  /**
   * SQLite: read up to this many bytes of the file through a memory map (`mmap_size`) instead of
   * copying each page into the connection's cache. For a connection that scans: pages it touched
   * count in the process's RSS as file-backed memory, shared with the OS page cache.
   */
  mmapBytes?: number;
}

/** Opens the configured database. Callers run `migrateToLatest` before serving. */
export function openDatabase(database: Config['database'], options: OpenDatabaseOptions = {}): Db {
  if (database.kind === 'sqlite') {
    fs.mkdirSync(path.dirname(database.file), { recursive: true });
    const handle = new SQLite(database.file, { readonly: options.readOnly ?? false });
    // WAL lets readers proceed while a write commits; NORMAL sync is durable across process
    // crashes (the WAL is fsynced at checkpoints) and is what WAL mode is designed for. A reader
    // finds the mode the writer set.
    if (!options.readOnly) {
      handle.pragma('journal_mode = WAL');
      handle.pragma('synchronous = NORMAL');
    }
    handle.pragma('foreign_keys = ON');
    handle.pragma('busy_timeout = 5000');
    if (options.mmapBytes !== undefined) handle.pragma(`mmap_size = ${Math.floor(options.mmapBytes)}`);
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
    // A server that stops answering without closing (a dropped route, a frozen host) is noticed
    // by TCP keepalive, and a connection that cannot be opened fails the request after a bound.
    keepAlive: true,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    // Counters are BIGINT; they stay far below 2^53, so read them as numbers.
    types: {
      getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
        oid === INT8_OID
          ? (v: string) => Number(v)
          : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
    },
  });
  const report = logThrottle(CONNECTION_LOG_INTERVAL_MS);
  const lost = (err: Error) => {
    const r = report();
    if (r && options.log)
      options.log.warn(
        { err, suppressed: r.suppressed },
        'a PostgreSQL connection was lost; the pool opens a new one for the next query',
      );
  };
  // A connection can be cut by the server or the network (restart, failover, admin command) at
  // any moment. node-postgres then emits 'error' on its client, and an 'error' nobody listens to
  // ends the process. The pool listens only while a client is idle; a client lent out to a
  // query or a transaction has no listener of its own, so every client gets one when it is made.
  // The query in flight fails by itself (the request answers 503, see isDatabaseUnavailable), and
  // the pool discards the dead client when it is released.
  pool.on('connect', (client) => client.on('error', lost));
  // The pool re-emits an idle client's error here as well; the client's own listener reported it.
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
