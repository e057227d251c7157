import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, type TestApp } from '../helpers/app.ts';
import { freshDatabase, TEST_DATABASE_URL, TEST_REDIS_URL, type TestDatabase } from '../helpers/databases.ts';

/** How long an instance may serve a policy it read (the container's PolicyCache lifetime). */
const POLICY_MAX_AGE_MS = 1000;

const FORCE_PUSH = { action: 'shell.exec', payload: { command: 'git push --force origin staging-eu' } };
const DELETE_NS = { action: 'shell.exec', payload: { command: 'kubectl delete ns payments-eu' } };
/** One named resource: safe, unless its namespace is protected. */
const DELETE_IN_NS = {
  action: 'shell.exec',
  payload: { command: 'kubectl delete deployment web -n payments-eu' },
};
const ACME_RULE = {
  id: 'acme.vault-purge',
  program: 'acme-vault',
  path: ['purge'],
  code: 'DEST_MUTATION',
  message: 'acme-vault purge empties the vault',
};
const ACME_PURGE = { action: 'shell.exec', payload: { command: 'acme-vault purge --tenant 7' } };

interface VerdictJson {
  is_safe: boolean;
  hash: string;
  error?: { code: string };
}

/**
 * Two instances on one database. B reads (and caches) the account's policy, A changes it, and B's
 * very next evaluation must be judged under the new policy.
 *
 * `ownReceivers`: every receiver of the announcement is one of these two instances (PostgreSQL
 * counts listeners of this database only), so all of it happens well inside the cache lifetime and
 * only the announcement can have made B drop its copy. On Redis other suites' instances share the
 * channel and one of them may be too busy to confirm in time; the write then waits out the
 * lifetime, which is still correct (the bus's own tests cover confirmations on a channel of their
 * own).
 */
function propagationSuite(env: Record<string, string>, ownReceivers: boolean) {
  let database: TestDatabase;
  let a: TestApp;
  let b: TestApp;
  let key: string;

  const evaluate = async (instance: TestApp, body: unknown) =>
    (
      await instance.app.inject({
        method: 'POST',
        url: '/v1/evaluate',
        headers: bearer(key),
        payload: body as object,
      })
    ).json() as VerdictJson;
  const put = (instance: TestApp, url: string, payload: object) =>
    instance.app.inject({ method: 'PUT', url, headers: bearer(key), payload });

  /** Primes B's cache, writes on A, evaluates on B. */
  async function changeOnAThenEvaluateOnB(url: string, body: object, probe: unknown) {
    await evaluate(b, probe);
    const primed = performance.now();
    const before = await evaluate(b, probe);
    const res = await put(a, url, body);
    expect(res.statusCode).toBe(200);
    const after = await evaluate(b, probe);
    if (ownReceivers) expect(performance.now() - primed).toBeLessThan(POLICY_MAX_AGE_MS);
    return { before, after };
  }

  beforeAll(async () => {
    database = await freshDatabase('postgres');
    a = await createTestApp('postgres', { database, env: { ARBITER_LOG_LEVEL: 'silent', ...env } });
    b = await createTestApp('postgres', { database, env: { ARBITER_LOG_LEVEL: 'silent', ...env } });
    key = (await a.newAccount()).key;
  });
  afterAll(async () => {
    await a.close();
    await b.close();
    await database.drop();
  });

  it('judges under the new policy on the other instance: the verdict hash names it at once', async () => {
    const probe = { action: 'fs.read', payload: { path: 'README.md' } };
    const { before, after } = await changeOnAThenEvaluateOnB(
      '/v1/settings/protected',
      { namespaces: ['payments-eu'] },
      probe,
    );
    expect(after.hash).not.toBe(before.hash);
    expect(after.hash).toBe((await evaluate(a, probe)).hash);
    await put(a, '/v1/settings/protected', {});
  });

  it('applies a protected branch on the next evaluation on the other instance, in both engines', async () => {
    const { before, after } = await changeOnAThenEvaluateOnB(
      '/v1/settings/protected',
      { branches: ['staging-*'] },
      FORCE_PUSH,
    );
    expect(before.is_safe).toBe(true);
    expect(after.error?.code).toBe('DEST_MUTATION');
    const judged = await b.app.inject({
      method: 'POST',
      url: '/v2/actions/evaluate',
      headers: bearer(key),
      payload: {
        action_type: 'shell.exec',
        actor: 'deploy-bot',
        actor_role: 'user',
        impact_scope: 'internal',
        payload: FORCE_PUSH.payload,
      },
    });
    expect(judged.json().gates.destruction).toMatchObject({ outcome: 'block', code: 'DEST_MUTATION' });
    await put(a, '/v1/settings/protected', {});
    expect((await evaluate(b, FORCE_PUSH)).is_safe).toBe(true);
  });

  it('applies a protected namespace on the next evaluation on the other instance', async () => {
    const { before, after } = await changeOnAThenEvaluateOnB(
      '/v1/settings/protected',
      { namespaces: ['payments-eu'] },
      DELETE_IN_NS,
    );
    expect(before.is_safe).toBe(true);
    expect(after.error?.code).toBe('DEST_MUTATION');
    expect((await evaluate(b, DELETE_NS)).error?.code).toBe('DEST_MUTATION');
    await put(a, '/v1/settings/protected', {});
    expect((await evaluate(b, DELETE_IN_NS)).is_safe).toBe(true);
  });

  it("applies the account's own rule on the next evaluation on the other instance", async () => {
    const { before, after } = await changeOnAThenEvaluateOnB(
      '/v1/catalogue/rules',
      { rules: [ACME_RULE] },
      ACME_PURGE,
    );
    expect(before.is_safe).toBe(true);
    expect(after.error?.code).toBe('DEST_MUTATION');
    const removed = await a.app.inject({
      method: 'DELETE',
      url: '/v1/catalogue/rules',
      headers: bearer(key),
    });
    expect(removed.statusCode).toBe(200);
    expect((await evaluate(b, ACME_PURGE)).is_safe).toBe(true);
  });
}

describe.runIf(TEST_DATABASE_URL && TEST_REDIS_URL)(
  'policy changes across two instances on PostgreSQL and Redis',
  () => {
    propagationSuite({ REDIS_URL: TEST_REDIS_URL! }, false);
  },
);

describe.runIf(TEST_DATABASE_URL)('policy changes across two instances on PostgreSQL alone', () => {
  propagationSuite({}, true);
});
