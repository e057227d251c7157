import { describe, expect, it } from 'vitest';
import { CONSEQUENTIAL, EFFECT_KINDS } from '../verdict/effects.ts';
import { ACTION_KINDS, type ActionKind, type ActorRole, type ImpactScope } from './cedar-schema.ts';
import { type CompiledPolicy, compilePolicyDocument, type PolicyRequest } from './compiler.ts';
import { DEFAULT_POLICY } from './default-policy.ts';

function request(
  role: ActorRole,
  kind: ActionKind,
  scope: ImpactScope,
  extra: Partial<PolicyRequest['context']> = {},
) {
  return {
    actor: 'agent-1',
    role,
    kind,
    scope,
    actionType: 'db.query',
    context: {
      actor: 'agent-1',
      actor_role: role,
      action_type: 'db.query',
      action_kind: kind,
      impact_scope: scope,
      destructive: kind === 'delete',
      findings: [],
      target: '',
      hosts: [],
      recognised: true as boolean,
      effects: [] as string[],
      ...extra,
    },
  };
}

function compile(text: string): CompiledPolicy {
  const result = compilePolicyDocument(text);
  if (!result.ok) throw new Error(JSON.stringify(result.problems));
  return result.policy;
}

function problems(text: string) {
  const result = compilePolicyDocument(text);
  if (result.ok) throw new Error('expected the document to be refused');
  return result.problems;
}

// The default-policy table of docs/api.md (Judgment): authority outcome per role, scope and kind (read write delete execute communicate).
const TABLE: Record<ActorRole, Record<ImpactScope, string>> = {
  assistant: { internal: 'P P E P P', external: 'P E E E E', critical: 'E E B B E' },
  user: { internal: 'P P P P P', external: 'P P E P P', critical: 'E E E E E' },
  admin: { internal: 'P P P P P', external: 'P P P P P', critical: 'P P P P P' },
};
const LETTER = { pass: 'P', escalate: 'E', block: 'B' } as const;

describe('the default policy', () => {
  const policy = compile(DEFAULT_POLICY);

  it.each(Object.entries(TABLE))('gives the documented authority for the %s role', (role, scopes) => {
    for (const [scope, row] of Object.entries(scopes)) {
      const got = ACTION_KINDS.map(
        (kind) => LETTER[policy.authority(request(role as ActorRole, kind, scope as ImpactScope)).outcome],
      ).join(' ');
      expect(got, `${role} at ${scope}`).toBe(row);
    }
  });

  it('refuses schema changes to non-admins and escalates them for admins in the policy gate', () => {
    const ddl = { findings: ['POLICY_VIOLATION'] };
    expect(policy.policy(request('assistant', 'write', 'internal', ddl)).outcome).toBe('block');
    expect(policy.policy(request('user', 'write', 'internal', ddl)).outcome).toBe('block');
    expect(policy.policy(request('admin', 'write', 'internal', ddl)).outcome).toBe('escalate');
    expect(policy.policy(request('admin', 'write', 'internal')).outcome).toBe('pass');
  });

  it('escalates, for every role, what the verdict engine did not understand and that may do more than read', () => {
    const frobctl = { recognised: false, effects: ['execute'] };
    for (const role of ['assistant', 'user', 'admin'] as const) {
      expect(policy.policy(request(role, 'execute', 'internal', frobctl))).toMatchObject({
        outcome: 'escalate',
        reason: expect.stringContaining('Arbiter does not know what this does'),
        policies: [expect.objectContaining({ id: 'unrecognised-effects' })],
      });
    }
    // Understood, a read not understood, and an account's own action (effects unknown to Arbiter).
    expect(policy.policy(request('assistant', 'execute', 'internal', { effects: ['execute'] })).outcome).toBe(
      'pass',
    );
    expect(
      policy.policy(request('assistant', 'read', 'internal', { recognised: false, effects: ['read'] }))
        .outcome,
    ).toBe('pass');
    expect(policy.policy(request('assistant', 'execute', 'internal', { recognised: false })).outcome).toBe(
      'pass',
    );
  });

  it('treats exactly the consequential effect kinds of the verdict engine as more than a read', () => {
    const escalated = EFFECT_KINDS.filter(
      (kind) =>
        policy.policy(request('admin', 'execute', 'internal', { recognised: false, effects: ['read', kind] }))
          .outcome === 'escalate',
    );
    expect(escalated).toEqual(EFFECT_KINDS.filter((kind) => CONSEQUENTIAL.has(kind)));
  });

  it('names the deciding policy and its escalation reason', () => {
    const verdict = policy.authority(request('assistant', 'write', 'external'));
    expect(verdict).toMatchObject({
      outcome: 'escalate',
      reason: expect.stringContaining('outside the organisation'),
    });
    expect(verdict.policies.map((p) => p.id)).toEqual(['assistant-external']);
  });
});

describe('account policies', () => {
  it('reads the payload facts a policy names, and caches per distinct value', () => {
    const policy = compile(`
      permit (principal, action, resource);
      @id("stripe") @escalate("payments need a human")
      forbid (principal, action, resource) when { context.hosts.contains("api.stripe.com") };
      @id("prod-paths")
      forbid (principal, action, resource) when { context.target like "/srv/prod/*" };`);
    const plain = request('assistant', 'write', 'internal');
    expect(policy.policy(plain).outcome).toBe('pass');
    expect(
      policy.policy(request('assistant', 'write', 'internal', { hosts: ['api.stripe.com'] })),
    ).toMatchObject({
      outcome: 'escalate',
      reason: 'payments need a human',
    });
    expect(policy.policy(request('user', 'delete', 'internal', { target: '/srv/prod/db' }))).toMatchObject({
      outcome: 'block',
      reason: 'forbidden by policy "prod-paths"',
    });
    // The memo must not hand the first answer to a later request with other facts.
    expect(policy.policy(plain).outcome).toBe('pass');
  });

  it('reads recognised and the kinds of effect', () => {
    const policy = compile(`
      permit (principal, action, resource) when { context.recognised };
      @id("no-installs")
      forbid (principal, action, resource) when { context.effects.contains("install") };`);
    expect(policy.authority(request('assistant', 'execute', 'internal')).outcome).toBe('pass');
    expect(
      policy.authority(
        request('assistant', 'execute', 'internal', { recognised: false, effects: ['execute'] }),
      ).outcome,
    ).toBe('block');
    expect(
      policy.policy(request('assistant', 'execute', 'internal', { effects: ['install', 'write'] })),
    ).toMatchObject({ outcome: 'block', reason: 'forbidden by policy "no-installs"' });
    expect(
      problems('forbid (principal, action, resource) when { context.recognised == "yes" };'),
    ).toHaveLength(1);
  });

  it('blocks what no permit grants (authority is default-deny)', () => {
    const policy = compile('permit (principal in Arbiter::Role::"admin", action, resource);');
    expect(policy.authority(request('user', 'read', 'internal'))).toMatchObject({
      outcome: 'block',
      reason: 'no policy lets the user role read at internal scope',
    });
  });

  it('lets a plain forbid win over an escalating one', () => {
    const policy = compile(`
      permit (principal, action, resource);
      @escalate("ask") forbid (principal, action, resource);
      @id("no") forbid (principal, action == Arbiter::Action::"delete", resource);`);
    expect(policy.policy(request('admin', 'delete', 'internal')).outcome).toBe('block');
    expect(policy.policy(request('admin', 'read', 'internal')).outcome).toBe('escalate');
  });
});

describe('refused documents name the line and column', () => {
  it.each([
    [
      'a syntax error',
      'permit (principal, action, resource)\n  when { context.impact_scope == };',
      2,
      34,
      /unexpected token/,
    ],
    [
      'an unknown role',
      '// roles\npermit (principal in Arbiter::Role::"admn", action, resource);',
      2,
      22,
      /admn/,
    ],
    [
      'an unknown context attribute',
      'permit (principal, action, resource)\n  when { context.nope };',
      2,
      10,
      /nope/,
    ],
    [
      'an unknown action kind',
      'permit (principal, action == Arbiter::Action::"raed", resource);',
      1,
      30,
      /raed/,
    ],
    [
      'a type error',
      'permit (principal, action, resource)\nwhen { context.target > 3 };',
      2,
      8,
      /Long|String|type/,
    ],
    ['an unknown annotation', '\n@escalat("x")\npermit (principal, action, resource);', 2, 1, /@escalat/],
    [
      'a duplicate id',
      '@id("x") permit (principal, action, resource);\n@id("x") permit (principal, action, resource);',
      2,
      1,
      /duplicate/,
    ],
    ['a template', 'permit (principal == ?principal, action, resource);', 1, 1, /template/],
  ])('%s', (_name, text, line, column, message) => {
    const [first] = problems(text);
    expect(first).toMatchObject({ line, column });
    expect(first!.message).toMatch(message);
  });

  it('refuses a policy whose conditions exclude each other', () => {
    const [first] = problems(
      '@id("ok") permit (principal, action, resource);\n@id("never")\npermit (principal, action, resource in Arbiter::Scope::"critical")\n  when { context.impact_scope == "internal" };',
    );
    expect(first).toMatchObject({
      line: 2,
      policy_id: 'never',
      message: expect.stringContaining('contradictory'),
    });
  });

  it('refuses a permit that a forbid always overrides, naming both', () => {
    const [first] = problems(
      '@id("assistants") permit (principal in Arbiter::Role::"assistant", action, resource);\n\n@id("nobody") forbid (principal, action, resource);',
    );
    expect(first).toMatchObject({ line: 1, policy_id: 'assistants' });
    expect(first!.message).toMatch(/forbid "nobody" at line 3/);
  });

  it('accepts a forbid that carves an exception out of a permit', () => {
    expect(
      compilePolicyDocument(
        'permit (principal, action, resource);\nforbid (principal in Arbiter::Role::"assistant", action == Arbiter::Action::"delete", resource);',
      ).ok,
    ).toBe(true);
  });

  it('counts columns in characters, not bytes, after non-ASCII text', () => {
    const line2 =
      'permit (principal, action, resource) when { context.target == "Überprüfung" && context.nope };';
    const [first] = problems(`// Rechte prüfen\n${line2}`);
    expect(first).toMatchObject({ line: 2, column: line2.indexOf('context.nope') + 1 });
  });
});
