import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BIN } from '../helpers/process.ts';

const SERVER = path.resolve('test/integrations/fixtures/recording-mcp-server.mjs');

interface Started {
  guard: ChildProcess;
  /** Resolves with the guard's exit code and how long after `since()` it came. */
  exited: Promise<{ code: number | null; afterMs: number }>;
  /** The wrapped server's pid, once it listens. */
  serverPid(): Promise<number>;
  pidFile: string;
  /** Marks the moment the test asked the guard to stop. */
  since(): void;
  stderr(): string;
}

const started: Started[] = [];
const dirs: string[] = [];

/** `arbiter mcp guard -- node recording-mcp-server.mjs` as a process of its own; no tool is called. */
function startGuard(options: { stdin: 'pipe' | 'ignore'; env?: Record<string, string> }): Started {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'arbiter-guard-life-'));
  dirs.push(dir);
  const pidFile = path.join(dir, 'server.json');
  const guard = spawn(process.execPath, [BIN, 'mcp', 'guard', '--', process.execPath, SERVER], {
    env: {
      ...process.env,
      ARBITER_URL: 'http://127.0.0.1:9',
      ARBITER_API_KEY: `arbiter_sk_${'0'.repeat(40)}`,
      RECORD_FILE: path.join(dir, 'calls.jsonl'),
      PID_FILE: pidFile,
      ...options.env,
    },
    stdio: [options.stdin, 'pipe', 'pipe'],
  });
  let stderr = '';
  guard.stderr!.on('data', (d) => {
    stderr += d;
  });
  guard.stdout!.resume();
  let from = Date.now();
  const exited = new Promise<{ code: number | null; afterMs: number }>((resolve) =>
    guard.on('exit', (code) => resolve({ code, afterMs: Date.now() - from })),
  );
  const s: Started = {
    guard,
    exited,
    pidFile,
    since: () => {
      from = Date.now();
    },
    stderr: () => stderr,
    async serverPid() {
      for (const deadline = Date.now() + 30_000; Date.now() < deadline; ) {
        if (fs.existsSync(pidFile)) {
          const text = fs.readFileSync(pidFile, 'utf8');
          if (text) return (JSON.parse(text) as { pid: number }).pid;
        }
        await new Promise((r) => setTimeout(r, 50));
      }
      throw new Error(`the wrapped server never listened: ${stderr}`);
    },
  };
  started.push(s);
  return s;
}

/** A process is running unless it is gone or a zombie waiting for its parent to reap it. */
function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    return !/^\d+ \(.*\) Z /.test(fs.readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return true;
  }
}

async function gone(pid: number, withinMs = 2000): Promise<boolean> {
  for (const deadline = Date.now() + withinMs; Date.now() < deadline; ) {
    if (!running(pid)) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return !running(pid);
}

// Each case starts the CLI and a server; a busy machine makes them slow to start, not to stop.
describe('arbiter mcp guard ends with its client', { timeout: 60_000 }, () => {
  afterEach(async () => {
    // Nothing a failed case started is left behind.
    for (const s of started.splice(0)) {
      if (s.guard.exitCode === null) s.guard.kill('SIGKILL');
      if (fs.existsSync(s.pidFile)) {
        const { pid } = JSON.parse(fs.readFileSync(s.pidFile, 'utf8')) as { pid: number };
        if (running(pid)) process.kill(pid, 'SIGKILL');
      }
    }
    for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('exits when its client closes stdin, and the wrapped server is gone', async () => {
    const s = startGuard({ stdin: 'pipe' });
    const pid = await s.serverPid();
    expect(running(pid)).toBe(true);
    s.since();
    s.guard.stdin!.end();
    const { code, afterMs } = await s.exited;
    expect(code).toBe(0);
    expect(afterMs).toBeLessThan(5000);
    expect(await gone(pid)).toBe(true);
  });

  it('exits with stdin from /dev/null, as the shell gives it to `< /dev/null`', async () => {
    const s = startGuard({ stdin: 'ignore' });
    const { code, afterMs } = await s.exited;
    expect(code).toBe(0);
    expect(afterMs).toBeLessThan(30_000);
    if (fs.existsSync(s.pidFile) && fs.readFileSync(s.pidFile, 'utf8'))
      expect(await gone(await s.serverPid())).toBe(true);
  });

  it('closes the wrapped server on SIGTERM and SIGINT', async () => {
    for (const [signal, exitCode] of [
      ['SIGTERM', 143],
      ['SIGINT', 130],
    ] as const) {
      const s = startGuard({ stdin: 'pipe' });
      const pid = await s.serverPid();
      s.since();
      s.guard.kill(signal);
      const { code, afterMs } = await s.exited;
      expect(code).toBe(exitCode);
      expect(afterMs).toBeLessThan(5000);
      expect(await gone(pid)).toBe(true);
    }
  });

  it('kills a wrapped server that ignores the end of its stdin and SIGTERM', async () => {
    const s = startGuard({ stdin: 'pipe', env: { STUBBORN: '1' } });
    const pid = await s.serverPid();
    s.since();
    s.guard.stdin!.end();
    const { code, afterMs } = await s.exited;
    expect(code).toBe(0);
    // Two seconds for it to leave on its own, two after SIGTERM, then SIGKILL.
    expect(afterMs).toBeLessThan(10_000);
    expect(await gone(pid)).toBe(true);
  });

  it('exits, with an error, when the wrapped server dies', async () => {
    const s = startGuard({ stdin: 'pipe' });
    const pid = await s.serverPid();
    s.since();
    process.kill(pid, 'SIGKILL');
    const { code, afterMs } = await s.exited;
    expect(code).toBe(1);
    expect(afterMs).toBeLessThan(5000);
    expect(s.stderr()).toContain('the wrapped MCP server exited');
  });
});
