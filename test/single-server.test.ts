import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { BIN, type Started, serve } from './helpers/process.ts';

const run = promisify(execFile);

/**
 * Two servers on one SQLite folder would each cache policies, keys and quotas of their own and
 * disagree. The second refuses to start; the CLI's commands still work beside the first.
 */
describe('one server per SQLite data folder', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'arbiter-one-server-'));
  const env = { ARBITER_DATA_DIR: dir };
  const started: Started[] = [];
  afterAll(() => {
    for (const s of started) s.child.kill('SIGKILL');
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('refuses a second server with one line naming the first, and starts again once it stopped', async () => {
    const first = await serve(env);
    started.push(first);

    const second = await run(process.execPath, [BIN, 'serve'], {
      env: { ...process.env, ...env, PORT: '0' },
      timeout: 30_000,
    }).catch((e) => e);
    expect(second.code).toBe(1);
    const lines = second.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^arbiter: another Arbiter server /);
    expect(lines[0]).toContain(`(pid ${first.child.pid})`);
    expect(lines[0]).toContain(dir);
    expect(lines[0]).toContain('use PostgreSQL (set DATABASE_URL)');

    // The command line works on the same database while the server runs.
    const listed = await run(process.execPath, [BIN, 'keys', 'list', '--account', 'owner@localhost'], {
      env: { ...process.env, ...env },
    });
    expect(JSON.parse(listed.stdout)).toHaveLength(1);

    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);
    const third = await serve(env);
    started.push(third);
    third.child.kill('SIGTERM');
    expect(await third.exited).toBe(0);
  }, 90_000);

  it('takes over the folder of a server that was killed', async () => {
    const killed = await serve(env);
    started.push(killed);
    killed.child.kill('SIGKILL');
    await killed.exited;
    const next = await serve(env);
    started.push(next);
    next.child.kill('SIGTERM');
    expect(await next.exited).toBe(0);
  }, 90_000);
});
