import { describe, expect, it } from 'vitest';
import { NO_CONTEXT_SETTINGS } from '../../src/domains/verdict/agent-context.ts';
import { DEFAULT_EGRESS_SETTINGS } from '../../src/domains/verdict/analyzers/egress.ts';
import { DEFAULT_CATALOGUE_CONTEXT } from '../../src/domains/verdict/catalogue/index.ts';
import { DEFAULT_EXECUTION_SETTINGS } from '../../src/domains/verdict/execution.ts';
import {
  type AccountPolicy,
  DEFAULT_LOOP_SETTINGS,
  NO_ACCOUNT_RULES,
} from '../../src/domains/verdict/policy.ts';
import { PolicyCache } from '../../src/domains/verdict/policy-cache.ts';

/** A policy told apart by its version, and a load the test finishes by hand. */
function harness(maxAgeMs = 1000) {
  let clock = 0;
  let loads = 0;
  const pending: Array<(policy: AccountPolicy) => void> = [];
  const policy = (version: string): AccountPolicy => ({
    egress: DEFAULT_EGRESS_SETTINGS,
    context: NO_CONTEXT_SETTINGS,
    loop: DEFAULT_LOOP_SETTINGS,
    actions: new Map(),
    catalogue: DEFAULT_CATALOGUE_CONTEXT,
    execution: DEFAULT_EXECUTION_SETTINGS,
    rules: NO_ACCOUNT_RULES,
    version,
  });
  const cache = new PolicyCache(
    () => {
      loads++;
      return new Promise<AccountPolicy>((resolve) => pending.push(resolve));
    },
    maxAgeMs,
    undefined,
    () => clock,
  );
  return {
    cache,
    policy,
    loads: () => loads,
    finish: (version: string) => pending.shift()?.(policy(version)),
    advance: (ms: number) => {
      clock += ms;
    },
  };
}

const versionOf = async (value: AccountPolicy | Promise<AccountPolicy>) => (await value).version;

describe('PolicyCache', () => {
  it('serves a loaded policy from memory within its lifetime', async () => {
    const h = harness();
    const first = h.cache.get('a');
    h.finish('v1');
    expect(await versionOf(first)).toBe('v1');
    h.advance(100);
    expect(await versionOf(h.cache.get('a'))).toBe('v1');
    expect(h.loads()).toBe(1);
  });

  it('does not join a load begun longer ago than its lifetime', async () => {
    const h = harness();
    const slow = h.cache.get('a');
    h.advance(500);
    h.cache.get('a');
    expect(h.loads()).toBe(1);
    h.advance(600);
    const fresh = h.cache.get('a');
    expect(h.loads()).toBe(2);
    h.finish('read before the change');
    h.finish('read after the change');
    expect(await versionOf(slow)).toBe('read before the change');
    expect(await versionOf(fresh)).toBe('read after the change');
  });

  it('keeps nothing while suspended, and nothing loaded before it resumed', async () => {
    const h = harness();
    const before = h.cache.get('a');
    h.cache.suspend();
    h.finish('v1');
    await before;
    const during = h.cache.get('a');
    h.finish('v2');
    expect(await versionOf(during)).toBe('v2');
    h.cache.get('a');
    expect(h.loads()).toBe(3);
    h.finish('v3');
    const inFlight = h.cache.get('a');
    h.cache.resume();
    h.finish('v4');
    await inFlight;
    const after = h.cache.get('a');
    expect(h.loads()).toBe(5);
    h.finish('v5');
    expect(await versionOf(after)).toBe('v5');
    expect(await versionOf(h.cache.get('a'))).toBe('v5');
    expect(h.loads()).toBe(5);
  });

  it('drops one account on invalidate and keeps loads begun before it out', async () => {
    const h = harness();
    const a = h.cache.get('a');
    h.cache.invalidate('a');
    h.finish('stale');
    expect(await versionOf(a)).toBe('stale');
    const next = h.cache.get('a');
    expect(h.loads()).toBe(2);
    h.finish('fresh');
    expect(await versionOf(next)).toBe('fresh');
  });
});
