import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, type TestApp } from '../helpers/app.ts';
import { DIALECTS } from '../helpers/databases.ts';

describe.each(DIALECTS)('what a verdict understood, and the posture on the rest, on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect, { env: { ARBITER_LOG_LEVEL: 'silent' } });
  });
  afterAll(() => t.close());

  const evaluate = async (key: string, command: string) =>
    (
      await t.app.inject({
        method: 'POST',
        url: '/v1/evaluate',
        headers: bearer(key),
        payload: { action: 'shell.exec', payload: { command } },
      })
    ).json();
  const posture = async (key: string, unrecognised?: 'allow' | 'refuse') =>
    t.app.inject({
      method: 'PUT',
      url: '/v1/settings/execution',
      headers: bearer(key),
      payload: { allow_opaque: false, ...(unrecognised === undefined ? {} : { unrecognised }) },
    });

  it('answers safe but not recognised for a program it does not know, naming it, by default', async () => {
    const v = await evaluate(t.ownerKey, 'git status && frobctl sync --fast');
    expect(v).toMatchObject({
      is_safe: true,
      recognised: false,
      unrecognised: ['unknown program "frobctl"'],
    });
    expect(v.effects).toEqual(
      expect.arrayContaining([
        { kind: 'read', target: 'git status' },
        { kind: 'execute', target: 'frobctl' },
      ]),
    );
    expect(v.error).toBeUndefined();
  });

  it('says recognised and lists the effects of a call it understands', async () => {
    const v = await evaluate(t.ownerKey, 'kubectl get pods -n web');
    expect(v).toMatchObject({
      is_safe: true,
      recognised: true,
      effects: [{ kind: 'read', target: 'kubectl get' }],
    });
    expect(v.unrecognised).toBeUndefined();
  });

  it('refuses what it does not understand when the account says so, and only that', async () => {
    const account = await t.newAccount();
    const before = await evaluate(
      account.key,
      'aws iam attach-user-policy --user-name ci --policy-arn admin',
    );
    expect(before.is_safe).toBe(true);
    expect((await posture(account.key, 'refuse')).json()).toEqual({
      allow_opaque: false,
      unrecognised: 'refuse',
    });
    const after = await evaluate(account.key, 'aws iam attach-user-policy --user-name ci --policy-arn admin');
    expect(after).toMatchObject({ is_safe: false, recognised: false, error: { code: 'POLICY_VIOLATION' } });
    expect(after.error.message).toContain('Arbiter does not know what this does');
    expect(after.error.message).toContain('aws iam attach-user-policy');
    // Another policy, another hash; the same call under the same policy hashes the same.
    expect(after.hash).not.toBe(before.hash);
    expect(
      (await evaluate(account.key, 'aws iam attach-user-policy --user-name ci --policy-arn admin')).hash,
    ).toBe(after.hash);
    expect(await evaluate(account.key, 'aws s3 ls')).toMatchObject({ is_safe: true, recognised: true });
    // A PUT that leaves the posture out puts it back to the default.
    await posture(account.key);
    expect((await evaluate(account.key, 'frobctl sync')).is_safe).toBe(true);
  });

  it('refuses an unknown posture, and lets only operators set it', async () => {
    const res = await t.app.inject({
      method: 'PUT',
      url: '/v1/settings/execution',
      headers: bearer(t.ownerKey),
      payload: { allow_opaque: false, unrecognised: 'ask' },
    });
    expect(res.statusCode).toBe(400);
    const agent = (await t.container.services.apiKeys.create(t.ownerId, 'agent')).key;
    expect((await posture(agent, 'allow')).statusCode).toBe(403);
  });
});
