/**
 * Accuracy of the judgment engine under the default policy against hand-checked scenarios
 * (test/fixtures/judgment-scenarios.jsonl: roles × scopes × action kinds, plus analyzer cases),
 * each with its expected decision and deciding gates. Usage:
 *   npm run eval:judgment [-- --file path.jsonl]
 */
import fs from 'node:fs';
import { parseArgs } from 'node:util';
import { GATE_NAMES, judge } from '../src/domains/judgment/gates.ts';
import type { ActorRole, ImpactScope } from '../src/domains/policies/cedar-schema.ts';
import { compilePolicyDocument } from '../src/domains/policies/compiler.ts';
import { DEFAULT_POLICY } from '../src/domains/policies/default-policy.ts';

interface Scenario {
  name: string;
  request: {
    action_type: string;
    actor: string;
    actor_role: ActorRole;
    impact_scope: ImpactScope;
    payload: Record<string, unknown>;
  };
  expected: { decision: string; gates: string[] };
}

const { values } = parseArgs({
  options: { file: { type: 'string', default: 'test/fixtures/judgment-scenarios.jsonl' } },
});
const scenarios = fs
  .readFileSync(values.file, 'utf8')
  .split('\n')
  .filter((line) => line.trim() !== '')
  .map((line) => JSON.parse(line) as Scenario);

const compiled = compilePolicyDocument(DEFAULT_POLICY);
if (!compiled.ok) throw new Error('the default policy does not compile');

let decisionsRight = 0;
let gatesRight = 0;
const mismatches: string[] = [];
for (const s of scenarios) {
  const r = s.request;
  const j = judge(
    {
      actionType: r.action_type,
      actor: r.actor,
      role: r.actor_role,
      scope: r.impact_scope,
      payload: r.payload,
    },
    { policy: compiled.policy },
  );
  const deciding = j.decision === 'ALLOWED' ? 'pass' : j.decision === 'BLOCKED' ? 'block' : 'escalate';
  const gates =
    j.decision === 'ALLOWED' ? [] : GATE_NAMES.filter((g) => j.gates[g].outcome === deciding).sort();
  const decisionOk = j.decision === s.expected.decision;
  const gatesOk = JSON.stringify(gates) === JSON.stringify([...s.expected.gates].sort());
  if (decisionOk) decisionsRight += 1;
  if (decisionOk && gatesOk) gatesRight += 1;
  else {
    mismatches.push(
      `  ${s.name}: expected ${s.expected.decision} [${s.expected.gates.join(', ')}], got ${j.decision} [${gates.join(', ')}] — ${j.reason}`,
    );
  }
}

const pct = (n: number) => `${((n / scenarios.length) * 100).toFixed(1)} %`;
const roles = new Set(scenarios.map((s) => s.request.actor_role)).size;
const scopes = new Set(scenarios.map((s) => s.request.impact_scope)).size;
console.log(
  `eval:judgment — ${scenarios.length} scenarios (${roles} roles × ${scopes} scopes), default policy`,
);
console.log(`decision accuracy:              ${decisionsRight}/${scenarios.length} (${pct(decisionsRight)})`);
console.log(`decision and deciding gates:    ${gatesRight}/${scenarios.length} (${pct(gatesRight)})`);
if (mismatches.length > 0) console.log(`mismatches:\n${mismatches.join('\n')}`);
process.exitCode = mismatches.length === 0 ? 0 : 1;
