import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { serve } from '../helpers/process.ts';

const NOTICE = 'billing: local provider — checkout completes without payment';

/** Whoever starts a server on the default billing provider learns at once that checkout there is free. */
describe('the billing provider at start', () => {
  const dirs: string[] = [];
  const dataDir = () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'arbiter-billing-notice-'));
    dirs.push(dir);
    return dir;
  };
  afterAll(() => {
    for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
  });

  async function startLines(env: Record<string, string>): Promise<Array<{ level: number; msg: string }>> {
    const server = await serve({ ARBITER_DATA_DIR: dataDir(), ...env });
    server.child.kill('SIGTERM');
    await server.exited;
    return server
      .stdout()
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as { level: number; msg: string });
  }

  it('says once, as a warning, that the local provider takes no payment', async () => {
    const notices = (await startLines({})).filter((l) => l.msg.startsWith(NOTICE));
    expect(notices).toHaveLength(1);
    expect(notices[0]!.level).toBe(40);
    expect(notices[0]!.msg).toContain('set ARBITER_BILLING=stripe for real payments');
  }, 60_000);

  it('says nothing of the kind with Stripe', async () => {
    const lines = await startLines({
      ARBITER_BILLING: 'stripe',
      STRIPE_SECRET_KEY: 'sk_test_notice',
      STRIPE_WEBHOOK_SECRET: 'whsec_notice',
      STRIPE_API_URL: 'http://127.0.0.1:9',
    });
    expect(lines.some((l) => l.msg.startsWith('billing:'))).toBe(false);
  }, 60_000);
});
