import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { serve } from '../helpers/process.ts';

export interface RunningService {
  url: string;
  key: string;
  /** The environment a client process needs to reach this service. */
  env: Record<string, string>;
  stop(): Promise<void>;
}

/** A real `arbiter serve` on a fresh SQLite database, with a known owner key. */
export async function startService(): Promise<RunningService> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'arbiter-integrations-'));
  const key = `arbiter_sk_${randomBytes(24).toString('hex')}`;
  const started = await serve({
    ARBITER_DATA_DIR: dir,
    ARBITER_BOOTSTRAP_KEY: key,
    ARBITER_EMBEDDER: 'hash',
  });
  return {
    url: started.url,
    key,
    env: { ARBITER_URL: started.url, ARBITER_API_KEY: key },
    async stop() {
      started.child.kill('SIGTERM');
      await started.exited;
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A second key of the owner account: an escalation is decided with a key other than the one that asked. */
export async function secondKey(service: RunningService): Promise<string> {
  const res = await fetch(`${service.url}/api-keys`, {
    method: 'POST',
    headers: { authorization: `Bearer ${service.key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'approver' }),
  });
  if (res.status !== 201 && res.status !== 200) throw new Error(`cannot create a key: ${res.status}`);
  return ((await res.json()) as { key: string }).key;
}
