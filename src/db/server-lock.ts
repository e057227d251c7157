import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { ConfigError } from '../config.ts';

/** Refused start: the SQLite data folder is served by another process. A deployment mistake, said in one line. */
export class FolderInUseError extends ConfigError {}

export interface ServerLock {
  release(): void;
}

/**
 * Claims the SQLite data folder of `file` for this server, or throws `FolderInUseError` naming
 * the process that holds it. Two servers on one SQLite file each keep their own caches (policies,
 * keys, quotas) and disagree; several instances need PostgreSQL.
 *
 * The claim is an exclusive SQLite lock on a file of its own, held for the life of the
 * connection (`locking_mode = EXCLUSIVE`): the operating system drops it when the process ends,
 * however it ends, so there is no stale lock to take over and no pid that could have been
 * reused. The database itself is not locked: the CLI's commands keep working beside a server.
 * The holder's pid is written beside the lock, for the message only.
 */
export function lockSqliteFolder(file: string): ServerLock {
  const dir = path.dirname(file);
  fs.mkdirSync(dir, { recursive: true });
  const lockFile = path.join(dir, 'arbiter.server.lock');
  const pidFile = path.join(dir, 'arbiter.server.pid');
  const handle = new SQLite(lockFile, { timeout: 0 });
  try {
    // The journal in memory: the lock file never grows a -journal file beside it.
    handle.pragma('journal_mode = MEMORY');
    handle.pragma('locking_mode = EXCLUSIVE');
    handle.exec('begin exclusive; commit');
  } catch (err) {
    handle.close();
    if ((err as { code?: unknown }).code !== 'SQLITE_BUSY') throw err;
    throw new FolderInUseError(
      `another Arbiter server (${holderOf(pidFile)}) is serving the SQLite database in ${dir}; ` +
        'stop it first, or to run several instances use PostgreSQL (set DATABASE_URL)',
    );
  }
  fs.writeFileSync(pidFile, `${process.pid}\n`);
  return {
    release() {
      fs.rmSync(pidFile, { force: true });
      handle.close();
    },
  };
}

/** The holder, as far as its pid file says: it may not have written it yet. */
function holderOf(pidFile: string): string {
  let text = '';
  try {
    text = fs.readFileSync(pidFile, 'utf8');
  } catch {
    return 'pid unknown';
  }
  const pid = Number(text.trim());
  return Number.isSafeInteger(pid) && pid > 0 ? `pid ${pid}` : 'pid unknown';
}
