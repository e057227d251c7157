import { describe, expect, it } from 'vitest';
import { evaluateAction } from '../engine.ts';

const codeOf = (action: string, payload: Record<string, unknown>) =>
  evaluateAction({ action, payload }).finding?.code ?? null;

describe('SaaS administration through HTTP', () => {
  it.each([
    [
      { url: 'https://slack.com/api/admin.users.setAdmin', method: 'POST', body: 'user_id=U2' },
      'POLICY_VIOLATION',
    ],
    [{ url: 'https://acme.slack.com/api/admin.roles.addAssignments', method: 'POST' }, 'POLICY_VIOLATION'],
    [{ url: 'https://slack.com/api/conversations.list', method: 'POST' }, null],
    [{ url: 'https://slack.com/api/chat.postMessage', method: 'POST', body: '{"text":"deployed"}' }, null],
    [
      { url: 'https://acme.okta.com/api/v1/policies/00p1/lifecycle/deactivate', method: 'POST' },
      'POLICY_VIOLATION',
    ],
    [
      {
        url: 'https://acme.okta.com/api/v1/users/00u1/roles',
        method: 'POST',
        body: '{"type":"SUPER_ADMIN"}',
      },
      'POLICY_VIOLATION',
    ],
    [{ url: 'https://acme.okta.com/api/v1/users/00u1/roles', method: 'GET' }, null],
    [
      { url: 'https://app.terraform.io/api/v2/organizations/acme/workspaces/prod', method: 'DELETE' },
      'DEST_MUTATION',
    ],
    [{ url: 'https://app.terraform.io/api/v2/workspaces/ws-abc123/vars/var-1', method: 'DELETE' }, null],
  ])('http.request %j → %s', (payload, code) => {
    expect(codeOf('http.request', payload)).toBe(code);
  });

  it.each([
    [
      'curl -s -X DELETE -H "Authorization: Bearer $TFC_TOKEN" https://app.terraform.io/api/v2/organizations/acme/workspaces/prod',
      'DEST_MUTATION',
    ],
    [
      'curl -s -H "Authorization: Bearer $TFC_TOKEN" https://app.terraform.io/api/v2/organizations/acme/workspaces',
      null,
    ],
    ['curl -X POST -d user_id=U2 https://slack.com/api/admin.users.setOwner', 'POLICY_VIOLATION'],
  ])('%s → %s', (command, code) => {
    expect(codeOf('shell.exec', { command })).toBe(code);
  });
});
