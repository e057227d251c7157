import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { BIN } from './helpers/process.ts';

const run = promisify(execFile);

/**
 * A command's output is what it prints on stdout, and nothing else: `arbiter keys create … | jq`
 * must parse it whatever the command logs on the way. An unreachable Redis makes every command
 * log warnings while it starts.
 */
describe('the command line', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'arbiter-cli-output-'));
  const env = { ...process.env, ARBITER_DATA_DIR: dir, REDIS_URL: 'redis://127.0.0.1:1' };
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('prints only its JSON on stdout and its logs on stderr', async () => {
    const account = await run(
      process.execPath,
      [BIN, 'accounts', 'create', '--email', 'pipe@example.com', '--name', 'Pipe'],
      { env },
    );
    expect(JSON.parse(account.stdout).key.key).toMatch(/^arbiter_sk_/);

    const created = await run(process.execPath, [BIN, 'keys', 'create', '--account', 'pipe@example.com'], {
      env,
    });
    expect(JSON.parse(created.stdout).key).toMatch(/^arbiter_sk_/);
    // The warnings were written, where a pipe does not read them.
    expect(created.stderr).toContain('Redis cannot be reached at start');

    const listed = await run(process.execPath, [BIN, 'keys', 'list', '--account', 'pipe@example.com'], {
      env,
    });
    expect(JSON.parse(listed.stdout)).toHaveLength(2);
  }, 90_000);
});
