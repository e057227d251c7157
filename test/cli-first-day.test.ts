import { execFile } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { BIN } from './helpers/process.ts';

const run = promisify(execFile);

/** What a new operator types on a first day, through the built CLI (`npm run build` first). */
describe('the command line on a first day', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'arbiter-first-day-'));
  const env = { ...process.env, ARBITER_DATA_DIR: dir, ARBITER_LOG_LEVEL: 'warn' };
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('prints its version', async () => {
    const { version } = JSON.parse(fs.readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
    const { stdout } = await run(process.execPath, [BIN, '--version'], { env });
    expect(stdout.trim()).toBe(version);
  });

  it('lists the accounts of the instance', async () => {
    await run(process.execPath, [BIN, 'accounts', 'create', '--email', 'ann@example.com', '--name', 'Ann'], {
      env,
    });
    const { stdout } = await run(process.execPath, [BIN, 'accounts', 'list'], { env });
    const listed = JSON.parse(stdout) as Array<{ email: string; plan: string }>;
    expect(listed).toEqual([expect.objectContaining({ email: 'ann@example.com', plan: 'free' })]);
  }, 60_000);

  it('names a busy port in one line and exits non-zero, without a stack', async () => {
    const busy = net.createServer();
    await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
    const port = (busy.address() as net.AddressInfo).port;
    try {
      const failed = await run(process.execPath, [BIN, 'serve'], {
        env: { ...env, PORT: String(port) },
      }).then(
        () => undefined,
        (err: { code: number; stderr: string }) => err,
      );
      expect(failed?.code).toBe(1);
      expect(failed?.stderr).toContain(`port ${port} is in use`);
      expect(failed?.stderr).toContain('set PORT=');
      expect(failed?.stderr).not.toMatch(/^\s+at /m);
    } finally {
      busy.close();
    }
  }, 60_000);
});
