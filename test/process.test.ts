import { execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import SQLite from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { BIN, serve } from './helpers/process.ts';

const run = promisify(execFile);

describe('the arbiter process', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'arbiter-proc-'));
  const env = { ARBITER_DATA_DIR: dir, ARBITER_USAGE_FLUSH_MS: '600000' };
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('serves on SQLite with no configuration, prints the owner key once, and flushes counts on SIGTERM', async () => {
    const first = await serve(env);
    const key = /API key \(shown once, store it now\): (arbiter_sk_\w+)/.exec(first.stderr())?.[1];
    expect(key).toBeDefined();
    const calls = 7;
    for (let i = 0; i < calls; i++) {
      const res = await fetch(`${first.url}/v1/whoami`, { headers: { authorization: `Bearer ${key}` } });
      expect(res.status).toBe(200);
    }
    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);

    const db = new SQLite(path.join(dir, 'arbiter.db'), { readonly: true });
    const row = db.prepare('select sum(calls) as n from usage_monthly').get() as { n: number };
    db.close();
    expect(row.n).toBe(calls);

    const second = await serve(env);
    expect(second.stderr()).not.toContain('arbiter_sk_');
    const res = await fetch(`${second.url}/api-keys`, { headers: { authorization: `Bearer ${key}` } });
    const [listed] = (await res.json()) as Array<{ calls_this_month: number }>;
    expect(listed?.calls_this_month).toBe(calls + 1);
    second.child.kill('SIGINT');
    expect(await second.exited).toBe(0);
  }, 90_000);

  it('answers the requests in flight when SIGTERM comes, writes their audit entries, then exits 0', async () => {
    const drainDir = fs.mkdtempSync(path.join(os.tmpdir(), 'arbiter-drain-'));
    try {
      const server = await serve({ ARBITER_DATA_DIR: drainDir, ARBITER_BODY_LIMIT: String(2 * 1024 * 1024) });
      const key = /API key \(shown once, store it now\): (arbiter_sk_\w+)/.exec(server.stderr())?.[1];
      const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
      // A fact, so that a long text is checked against something (the slow request).
      const stored = await fetch(`${server.url}/v2/vault/store`, {
        method: 'POST',
        headers,
        body: JSON.stringify({
          claim: 'The support line is closed on Sundays.',
          source: 'handbook',
          confidence: 1,
        }),
      });
      expect(stored.status).toBe(201);
      const text = `${'The weekly report is ready. '.repeat(30_000)}The support line is open on Sundays.`;
      const inFlight = [
        fetch(`${server.url}/v1/evaluate`, {
          method: 'POST',
          headers,
          body: JSON.stringify({ action: 'agent.respond', payload: { text } }),
        }),
        fetch(`${server.url}/v1/evaluate`, {
          method: 'POST',
          headers,
          body: JSON.stringify({ action: 'fs.read', payload: { path: '/etc/shadow' } }),
        }),
      ];
      await new Promise((resolve) => setTimeout(resolve, 50));
      server.child.kill('SIGTERM');
      const [long, small] = await Promise.all(inFlight);
      expect(long!.status).toBe(409);
      expect(((await long!.json()) as { error: { code: string } }).error.code).toBe('CONFLICT_DETECTED');
      expect(small!.status).toBe(200);
      expect(await server.exited).toBe(0);

      const db = new SQLite(path.join(drainDir, 'arbiter.db'), { readonly: true });
      const actions = (db.prepare('select action from audit_log').all() as Array<{ action: string }>).map(
        (r) => r.action,
      );
      db.close();
      expect(actions.filter((a) => a === 'verdict.rejected')).toHaveLength(2);
    } finally {
      fs.rmSync(drainDir, { recursive: true, force: true });
    }
  }, 90_000);

  it('stops with `npm start`: SIGTERM to npm reaches the server, which shuts down and exits', async () => {
    const startDir = fs.mkdtempSync(path.join(os.tmpdir(), 'arbiter-npm-start-'));
    const npm = spawn('npm', ['start', '--silent'], {
      cwd: path.join(import.meta.dirname, '..'),
      env: { ...process.env, ARBITER_DATA_DIR: startDir, PORT: '0', ARBITER_EMBEDDER: 'hash' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    npm.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
    });
    npm.stderr.resume();
    const npmExited = new Promise<number | null>((resolve) => npm.once('exit', (code) => resolve(code)));
    try {
      const started = performance.now();
      while (!out.includes('arbiter listening') && performance.now() - started < 60_000)
        await new Promise((resolve) => setTimeout(resolve, 100));
      expect(out).toContain('arbiter listening');
      // Every process under npm (a shell between npm and node would be one more).
      const descendants: number[] = [];
      for (let parents = [npm.pid!]; parents.length > 0; ) {
        const children: number[] = [];
        for (const parent of parents) {
          const listed = await run('pgrep', ['-P', String(parent)]).catch(() => ({ stdout: '' }));
          children.push(...listed.stdout.split('\n').filter(Boolean).map(Number));
        }
        descendants.push(...children);
        parents = children;
      }
      expect(descendants.length).toBeGreaterThan(0);
      npm.kill('SIGTERM');
      await npmExited;
      const isAlive = (pid: number) => {
        try {
          process.kill(pid, 0);
          return true;
        } catch {
          return false;
        }
      };
      const gone = performance.now();
      while (descendants.some(isAlive) && performance.now() - gone < 10_000)
        await new Promise((resolve) => setTimeout(resolve, 100));
      expect(descendants.filter(isAlive)).toEqual([]);
      expect(out).toContain('"signal":"SIGTERM"');
    } finally {
      npm.kill('SIGKILL');
      fs.rmSync(startDir, { recursive: true, force: true });
    }
  }, 90_000);

  it('manages keys from the command line against the same database', async () => {
    const created = JSON.parse(
      (
        await run(
          process.execPath,
          [BIN, 'keys', 'create', '--account', 'owner@localhost', '--name', 'cli'],
          { env: { ...process.env, ...env } },
        )
      ).stdout,
    );
    expect(created.key).toMatch(/^arbiter_sk_/);
    const listed = JSON.parse(
      (
        await run(process.execPath, [BIN, 'keys', 'list', '--account', 'owner@localhost'], {
          env: { ...process.env, ...env },
        })
      ).stdout,
    );
    expect(listed.map((k: { id: string }) => k.id)).toContain(created.id);
    expect(JSON.stringify(listed)).not.toContain(created.key);
    await run(process.execPath, [BIN, 'keys', 'revoke', created.id, '--account', 'owner@localhost'], {
      env: { ...process.env, ...env },
    });
    const after = JSON.parse(
      (
        await run(process.execPath, [BIN, 'keys', 'list', '--account', 'owner@localhost'], {
          env: { ...process.env, ...env },
        })
      ).stdout,
    );
    expect(after.find((k: { id: string }) => k.id === created.id).status).toBe('revoked');
    const account = JSON.parse(
      (
        await run(
          process.execPath,
          [BIN, 'accounts', 'create', '--email', 'cli@example.com', '--name', 'CLI'],
          { env: { ...process.env, ...env } },
        )
      ).stdout,
    );
    expect(account.account.plan).toBe('free');
  }, 90_000);

  it('refuses bad configuration with one clear line', async () => {
    const failed = await run(process.execPath, [BIN, 'serve'], {
      env: { ...process.env, ...env, PORT: 'eighty' },
    }).catch((e) => e);
    expect(failed.code).toBe(1);
    expect(failed.stderr.trim()).toMatch(/^arbiter: Invalid configuration: PORT/);
    expect(failed.stderr.trim().split('\n')).toHaveLength(1);
    const badKey = await run(process.execPath, [BIN, 'serve'], {
      env: { ...process.env, ...env, ARBITER_BOOTSTRAP_KEY: 'short' },
    }).catch((e) => e);
    expect(badKey.stderr).toMatch(/ARBITER_BOOTSTRAP_KEY must look like arbiter_sk_/);
  });
});
