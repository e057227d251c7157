import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { scratchDatabase } from './scratch-database.ts';
import { startTcpProxy } from './tcp-proxy.ts';

/**
 * PostgreSQL and Redis servers of one's own, for runs that stop and start them (the soak): the
 * shared servers on the default ports serve other people's tests and are never touched. Where
 * the server binaries are missing, a TCP proxy in front of the shared server stands in, and an
 * outage is a cut of every connection through it rather than a real restart.
 */
export interface Service {
  url: string;
  /** How an outage is produced: `restart` of a private server, or `proxy cut`. */
  readonly outageKind: 'restart' | 'proxy cut';
  /** The service goes away (connections reset, none accepted). */
  down(): Promise<void>;
  /** The service is back and accepts connections. */
  up(): Promise<void>;
  close(): Promise<void>;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function accepts(port: number, limitMs: number): Promise<void> {
  const start = performance.now();
  for (;;) {
    const ok = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (ok) return;
    if (performance.now() - start > limitMs) throw new Error(`nothing accepts on port ${port}`);
    await sleep(50);
  }
}

function postgresBinaries(): string | undefined {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root)
    .filter((v) => existsSync(path.join(root, v, 'bin/pg_ctl')))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] === undefined ? undefined : path.join(root, versions[0], 'bin');
}

/**
 * A throwaway PostgreSQL cluster in a temporary directory on a free port, run as the `postgres`
 * OS user when this process is root (PostgreSQL refuses to run as root). `down` is a fast
 * shutdown (every session terminated), `up` a start: together, a real restart.
 */
async function privatePostgres(bin: string): Promise<Service> {
  const root = process.getuid?.() === 0;
  const dir = mkdtempSync(path.join(tmpdir(), 'arbiter-soak-pg-'));
  if (root) {
    const uid = Number(execFileSync('id', ['-u', 'postgres']).toString());
    const gid = Number(execFileSync('id', ['-g', 'postgres']).toString());
    chownSync(dir, uid, gid);
  }
  const run = (tool: string, args: string[]) => {
    const command = path.join(bin, tool);
    execFileSync(root ? 'runuser' : command, root ? ['-u', 'postgres', '--', command, ...args] : args, {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
  };
  const data = path.join(dir, 'data');
  const port = await freePort();
  run('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync']);
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`;
  const start = () => run('pg_ctl', ['-D', data, '-l', path.join(dir, 'log'), '-o', options, '-w', 'start']);
  const stop = () => run('pg_ctl', ['-D', data, '-m', 'fast', '-w', 'stop']);
  start();
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    outageKind: 'restart',
    down: async () => stop(),
    up: async () => start(),
    async close() {
      try {
        stop();
      } catch {}
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A scratch database on the shared server behind a TCP proxy, for hosts without the binaries. */
async function proxiedPostgres(adminUrl: string): Promise<Service> {
  const scratch = await scratchDatabase('postgres', { adminUrl, prefix: 'arbiter_soak' });
  const direct = new URL((scratch.database as { url: string }).url);
  const proxy = await startTcpProxy({ host: direct.hostname, port: Number(direct.port || 5432) });
  const proxied = new URL(direct);
  proxied.port = String(proxy.port);
  return {
    url: proxied.toString(),
    outageKind: 'proxy cut',
    down: () => proxy.cut(),
    up: () => proxy.restore(),
    async close() {
      await proxy.close();
      await scratch.drop();
    },
  };
}

/** A private PostgreSQL where the binaries are installed, else a proxied scratch database. */
export async function startPostgres(sharedUrl: string | undefined): Promise<Service> {
  const bin = postgresBinaries();
  if (bin) return privatePostgres(bin);
  if (!sharedUrl) throw new Error('no PostgreSQL binaries and no TEST_DATABASE_URL to stand in');
  return proxiedPostgres(sharedUrl);
}

function hasRedisServer(): boolean {
  try {
    execFileSync('redis-server', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** A private `redis-server` without persistence; `down` kills it, `up` starts a fresh one. */
async function privateRedis(): Promise<Service> {
  const port = await freePort();
  let child: ChildProcess | undefined;
  const start = async () => {
    child = spawn(
      'redis-server',
      ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
      { stdio: 'ignore' },
    );
    await accepts(port, 10_000);
  };
  const stop = async () => {
    const running = child;
    if (!running || running.exitCode !== null) return;
    const exited = new Promise((resolve) => running.once('exit', resolve));
    running.kill('SIGKILL');
    await exited;
  };
  await start();
  return { url: `redis://127.0.0.1:${port}`, outageKind: 'restart', down: stop, up: start, close: stop };
}

async function proxiedRedis(sharedUrl: string): Promise<Service> {
  const direct = new URL(sharedUrl);
  const proxy = await startTcpProxy({ host: direct.hostname, port: Number(direct.port || 6379) });
  const proxied = new URL(direct);
  proxied.port = String(proxy.port);
  return {
    url: proxied.toString(),
    outageKind: 'proxy cut',
    down: () => proxy.cut(),
    up: () => proxy.restore(),
    close: () => proxy.close(),
  };
}

/** A private Redis where `redis-server` is installed, else a proxy to the shared one. */
export async function startRedis(sharedUrl: string | undefined): Promise<Service> {
  if (hasRedisServer()) return privateRedis();
  if (!sharedUrl) throw new Error('no redis-server binary and no TEST_REDIS_URL to stand in');
  return proxiedRedis(sharedUrl);
}
