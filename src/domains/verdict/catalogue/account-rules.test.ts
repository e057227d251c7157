import { describe, expect, it } from 'vitest';
import { evaluateAction } from '../engine.ts';
import {
  ACCOUNT_RULE_LIMITS,
  type CatalogueContext,
  EMPTY_PROTECTED_RESOURCES,
  judgeArgv,
  parseAccountRules,
} from './index.ts';

function contextOf(input: unknown): CatalogueContext {
  const parsed = parseAccountRules(input);
  if (!parsed.ok) throw new Error(parsed.errors.join('\n'));
  return { protected: EMPTY_PROTECTED_RESOURCES, accountRules: parsed.rules };
}

const noScaleToZero = {
  id: 'no-scale-to-zero',
  program: 'kubectl',
  path: ['scale'],
  flags: { any: ['--replicas'] },
  values: { flags: ['--replicas'], pattern: '^0$' },
  code: 'DEST_MUTATION',
  message: 'Scales a workload to zero replicas',
};

describe('parseAccountRules', () => {
  it('accepts a good rule, which then fires through judgeArgv and the engine', () => {
    const ctx = contextOf({ version: 1, rules: [noScaleToZero] });
    expect(judgeArgv(['kubectl', 'scale', 'deploy/api', '--replicas=0'], ctx)).toEqual([
      {
        code: 'DEST_MUTATION',
        message: 'Scales a workload to zero replicas',
        location: 'command "kubectl", rule no-scale-to-zero',
      },
    ]);
    // The built-in program's syntax applies: aliases, value options, safe flags.
    expect(judgeArgv(['oc', '-n', 'dev', 'scale', '--replicas', '0', 'deploy/api'], ctx)).toHaveLength(1);
    expect(judgeArgv(['kubectl', 'scale', 'deploy/api', '--replicas=0', '--dry-run=client'], ctx)).toEqual(
      [],
    );
    expect(judgeArgv(['kubectl', 'scale', 'deploy/api', '--replicas=2'], ctx)).toEqual([]);
    const verdict = evaluateAction(
      { action: 'shell.exec', payload: { command: 'sudo kubectl scale deploy/api --replicas=0' } },
      { catalogue: ctx },
    );
    expect(verdict.finding?.code).toBe('DEST_MUTATION');
  });

  it('accepts the bare list, and rules for programs the catalogue does not know', () => {
    const ctx = contextOf([
      {
        id: 'no-vault-delete',
        program: 'vault',
        path: ['kv delete|destroy'],
        code: 'DEST_MUTATION',
        message: 'Deletes secrets',
      },
    ]);
    expect(judgeArgv(['/usr/bin/vault', 'kv', 'destroy', '-versions=1', 'secret/app'], ctx)[0]?.code).toBe(
      'DEST_MUTATION',
    );
    expect(judgeArgv(['vault', 'kv', 'get', 'secret/app'], ctx)).toEqual([]);
  });

  it('only adds refusals: built-in findings stay', () => {
    const ctx = contextOf([noScaleToZero]);
    expect(judgeArgv(['kubectl', 'delete', 'ns', 'prod'], ctx)[0]?.code).toBe('DEST_MUTATION');
  });

  it('refuses a pattern RE2 cannot run, a bad code, a long pattern, with index, id and field', () => {
    const parsed = parseAccountRules([
      noScaleToZero,
      { ...noScaleToZero, id: 'backref', values: { flags: ['--replicas'], pattern: '(a+)\\1' } },
      { ...noScaleToZero, id: 'lookahead', operands: { any: '^(?=prod)' } },
      { ...noScaleToZero, id: 'bad-code', code: 'STATE_DRIFT' },
      { ...noScaleToZero, id: 'long', operands: { any: 'a'.repeat(ACCOUNT_RULE_LIMITS.patternLength + 1) } },
      { ...noScaleToZero, id: 'no-scale-to-zero' },
      { id: 'x', program: 'kubectl' },
    ]);
    expect(parsed.ok).toBe(false);
    const errors = parsed.ok ? [] : parsed.errors;
    expect(errors).toEqual([
      expect.stringMatching(
        /^rule 1 \(backref\), field values\.pattern: is not a linear-time \(RE2\) pattern/,
      ),
      expect.stringMatching(
        /^rule 2 \(lookahead\), field operands\.any: is not a linear-time \(RE2\) pattern/,
      ),
      'rule 3 (bad-code), field code: must be one of DEST_MUTATION, FILESYSTEM_DENIED, POLICY_VIOLATION, EXFILTRATION_BLOCKED',
      `rule 4 (long), field operands.any: is longer than ${ACCOUNT_RULE_LIMITS.patternLength} characters`,
      'rule 5 (no-scale-to-zero), field id: is used by an earlier rule',
      'rule 6 (x), field code: is required (only extract and delegate rules may leave it out)',
      'rule 6 (x), field message: is required (only extract and delegate rules may leave it out)',
    ]);
  });

  it('refuses too many rules, a wrong version and a wrong shape', () => {
    const many = Array.from({ length: ACCOUNT_RULE_LIMITS.rules + 1 }, (_, i) => ({
      ...noScaleToZero,
      id: `r${i}`,
    }));
    expect(parseAccountRules(many)).toEqual({
      ok: false,
      errors: [`rules: at most ${ACCOUNT_RULE_LIMITS.rules} rules, got ${ACCOUNT_RULE_LIMITS.rules + 1}`],
    });
    expect(parseAccountRules({ version: 2, rules: [] })).toEqual({
      ok: false,
      errors: ['version: must be 1'],
    });
    expect(parseAccountRules({ version: 1, rules: [], extra: true })).toEqual({
      ok: false,
      errors: ['top level: has an unknown field "extra"'],
    });
    expect(parseAccountRules('kubectl delete')).toEqual({
      ok: false,
      errors: ['rules: must be a list of rules'],
    });
  });

  it('runs account patterns in linear time', () => {
    const ctx = contextOf([{ ...noScaleToZero, values: { flags: ['--replicas'], pattern: '^(a+)+$' } }]);
    const started = performance.now();
    judgeArgv(['kubectl', 'scale', `--replicas=${'a'.repeat(5000)}!`], ctx);
    expect(performance.now() - started).toBeLessThan(200);
  });
});
