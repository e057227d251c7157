import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { generateKey } from '../../src/domains/api-keys/key-format.ts';
import { BIN, serve } from '../helpers/process.ts';

const run = promisify(execFile);

describe('the claim ledger across process deaths', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'arbiter-ledger-proc-'));
  const key = generateKey();
  const env = { ARBITER_DATA_DIR: dir, ARBITER_BOOTSTRAP_KEY: key, ARBITER_EMBEDDER: 'hash' };
  const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('keeps every acknowledged claim and a valid chain when killed with SIGKILL mid-write', {
    timeout: 120_000,
  }, async () => {
    const acknowledged: string[] = [];
    for (let round = 0; round < 3; round++) {
      const server = await serve(env);
      let stop = false;
      // Four writers store claims as fast as they can; the process is killed under them.
      const writer = async (w: number) => {
        for (let i = 0; !stop; i++) {
          try {
            const res = await fetch(`${server.url}/v2/vault/store`, {
              method: 'POST',
              headers,
              body: JSON.stringify({
                claim: `Round ${round} writer ${w} fact number ${i} holds.`,
                source: 'crash test',
                confidence: 0.5,
              }),
            });
            if (res.status === 201) acknowledged.push(((await res.json()) as { id: string }).id);
          } catch {
            return; // the connection died with the process
          }
        }
      };
      const writers = [0, 1, 2, 3].map(writer);
      // Killed once the round has some acknowledged claims (a different number each round), so
      // that a slow host still kills it mid-write rather than before the first answer.
      const before = acknowledged.length;
      const started = Date.now();
      while (acknowledged.length < before + 8 + round * 5 && Date.now() - started < 30_000)
        await new Promise((r) => setTimeout(r, 10));
      server.child.kill('SIGKILL');
      stop = true;
      await Promise.all(writers);
      await server.exited;
    }
    expect(acknowledged.length).toBeGreaterThan(20);

    const server = await serve(env);
    try {
      const verify = (await (await fetch(`${server.url}/v2/vault/verify`, { headers })).json()) as {
        valid: boolean;
        entries: number;
      };
      expect(verify.valid).toBe(true);
      expect(verify.entries).toBeGreaterThanOrEqual(acknowledged.length);
      for (const id of acknowledged) {
        const res = await fetch(`${server.url}/v2/vault/claims/${id}`, { headers });
        expect(res.status, id).toBe(200);
      }
    } finally {
      server.child.kill('SIGTERM');
      await server.exited;
    }
  });

  it('refuses to start on vectors of another model until `arbiter reindex` re-embeds them', async () => {
    const started = await serve(env);
    const stored = (await (
      await fetch(`${started.url}/v2/vault/store`, {
        method: 'POST',
        headers,
        body: JSON.stringify({
          claim: 'The payroll run happens on the 25th of each month.',
          source: 'hr',
          confidence: 0.9,
        }),
      })
    ).json()) as { id: string };
    started.child.kill('SIGTERM');
    await started.exited;

    const local = { ...env, ARBITER_EMBEDDER: 'local' };
    const refused = await run(process.execPath, [BIN, 'serve'], {
      env: { ...process.env, ...local, PORT: '0' },
    }).catch((e) => e);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(
      /built with hash-v1-\d+.*configured embedder is universal-sentence-encoder-lite-1.*arbiter reindex/,
    );

    const reindexed = JSON.parse(
      (await run(process.execPath, [BIN, 'reindex'], { env: { ...process.env, ...local } })).stdout,
    );
    expect(reindexed).toMatchObject({ embedder: 'universal-sentence-encoder-lite-1+names-1' });
    expect(reindexed.reindexed).toBeGreaterThan(0);

    const after = await serve(local);
    try {
      const found = (await (
        await fetch(`${after.url}/v2/vault/search`, {
          method: 'POST',
          headers,
          body: JSON.stringify({ query: 'When is payroll paid?', top_k: 3 }),
        })
      ).json()) as { results: Array<{ id: string }> };
      expect(found.results.map((r) => r.id)).toContain(stored.id);
    } finally {
      after.child.kill('SIGTERM');
      await after.exited;
    }
  }, 120_000);
});
