import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, type TestApp } from '../helpers/app.ts';
import { DIALECTS } from '../helpers/databases.ts';

interface VerdictJson {
  is_safe: boolean;
  hash: string;
  error?: { code: string };
  attack?: string[];
}

describe.each(DIALECTS)('MITRE ATT&CK techniques on verdicts on %s', (dialect) => {
  let t: TestApp;
  let key: string;
  let accountId: string;

  const evaluate = async (command: string): Promise<VerdictJson> =>
    (
      await t.app.inject({
        method: 'POST',
        url: '/v1/evaluate',
        headers: bearer(key),
        payload: { action: 'shell.exec', payload: { command } },
      })
    ).json() as VerdictJson;

  beforeAll(async () => {
    t = await createTestApp(dialect, { env: { ARBITER_LOG_LEVEL: 'silent' } });
    const account = await t.newAccount();
    key = account.key;
    accountId = account.accountId;
  });
  afterAll(async () => {
    await t?.close();
  });

  it.each([
    ['sudo ufw disable', 'POLICY_VIOLATION', 'T1562.004'],
    ['wevtutil cl Security', 'POLICY_VIOLATION', 'T1070.001'],
    ['security find-generic-password -s github -w', 'FILESYSTEM_DENIED', 'T1555.001'],
    ['vssadmin delete shadows /all /quiet', 'DEST_MUTATION', 'T1490'],
    ['aws s3 rb s3://prod-assets --force', 'DEST_MUTATION', 'T1485'],
  ])('%s is refused with its technique', async (command, code, technique) => {
    const verdict = await evaluate(command);
    expect(verdict.error?.code).toBe(code);
    expect(verdict.attack).toContain(technique);
  });

  it('a refusal whose rule maps to no technique carries none, and neither does a safe verdict', async () => {
    const refused = await evaluate('crontab -r');
    expect(refused.error?.code).toBe('POLICY_VIOLATION');
    expect(refused).not.toHaveProperty('attack');
    const safe = await evaluate('ufw status');
    expect(safe.is_safe).toBe(true);
    expect(safe).not.toHaveProperty('attack');
  });

  it('the audit entry and the webhook event of a refusal name the techniques', async () => {
    const verdict = await evaluate('setenforce 0');
    expect(verdict.attack).toEqual(['T1562.001']);
    await t.container.audit.flush();
    const entries = await t.container.audit.repo.list(accountId, { limit: 1000 });
    expect(entries.find((e) => e.target === verdict.hash)).toMatchObject({
      action: 'verdict.rejected',
      details: { code: 'POLICY_VIOLATION', attack: ['T1562.001'] },
    });
  });

  it('serves the coverage map to operators', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/v1/catalogue/coverage', headers: bearer(key) });
    expect(res.statusCode).toBe(200);
    const body = res.json() as { tactics: { id: string; techniques: { id: string }[] }[] };
    const impact = body.tactics.find((tactic) => tactic.id === 'impact');
    expect(impact?.techniques.some((technique) => technique.id === 'T1485')).toBe(true);
  });
});
