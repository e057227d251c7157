import fs from 'node:fs';
import { Value } from 'typebox/value';
import { describe, expect, it } from 'vitest';
import { CoverageSchema, readCoverage } from './coverage.ts';
import { readRuleFiles } from './load.ts';

describe('the committed coverage map', () => {
  const coverage = readCoverage();

  it('fits its schema', () => {
    expect(Value.Check(CoverageSchema, coverage)).toBe(true);
  });

  it('names only rules and guards that exist, each mapping the technique', () => {
    const attackOf = new Map<string, string[]>();
    for (const file of readRuleFiles(new URL('./rules/', import.meta.url))) {
      for (const rule of (file.data as { rules: { id: string; attack?: string[] }[] }).rules)
        attackOf.set(rule.id, rule.attack ?? []);
    }
    const guards = JSON.parse(
      fs.readFileSync(new URL('../registry/guards.json', import.meta.url), 'utf8'),
    ) as {
      guards: { id?: string; attack?: string[] }[];
    };
    for (const g of guards.guards) if (g.id) attackOf.set(g.id, g.attack ?? []);
    const named = coverage.tactics.flatMap((t) =>
      t.techniques.flatMap((x) => Object.values(x.platforms).flatMap((c) => c.rules)),
    );
    expect(named.length).toBeGreaterThan(0);
    for (const id of named) expect(attackOf.get(id)?.length, id).toBeGreaterThan(0);
  });

  it('counts for each tactic and platform no more covered techniques than it lists', () => {
    expect(coverage.tactics.map((t) => t.id)).toEqual([
      'credential-access',
      'persistence',
      'privilege-escalation',
      'defense-evasion',
      'exfiltration',
      'impact',
      'command-and-control',
      'execution',
    ]);
    for (const tactic of coverage.tactics)
      for (const share of Object.values(tactic.share))
        expect(share.covered).toBeLessThanOrEqual(share.techniques);
  });
});
