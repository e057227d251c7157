import type { ValidateFunction } from 'ajv';
import type {
  ActorRole,
  CedarContext,
  CompiledPolicy,
  GateVerdict,
  ImpactScope,
  PolicyRequest,
} from '../policies/index.ts';
import {
  type AgentContext,
  type CatalogueContext,
  type EgressSettings,
  type ExecutionSettings,
  evaluateAction,
  type Finding,
  type PathContext,
  type VerdictCode,
} from '../verdict/index.ts';
import { actionFacts } from './action-kinds.ts';

/** The verdict engine's answer on one action, and one effect it understood the action to have. */
type Verdict = ReturnType<typeof evaluateAction>;
type Effect = Verdict['effects'][number];

/** The seven gates of DESIGN "Judgment gates", in the order they are reported. */
export const GATE_NAMES = [
  'authority',
  'schema',
  'policy',
  'destruction',
  'egress',
  'consistency',
  'loop',
] as const;
export type GateName = (typeof GATE_NAMES)[number];

export type GateOutcome = 'pass' | 'block' | 'escalate';
export type Decision = 'ALLOWED' | 'BLOCKED' | 'ESCALATE';

export interface GateResult {
  passed: boolean;
  outcome: GateOutcome;
  code?: string;
  reason: string;
  /** Ids of the Cedar policies that decided the authority or policy gate. */
  policies?: string[];
}

export type Gates = Record<GateName, GateResult>;

export interface JudgmentInput {
  actionType: string;
  actor: string;
  role: ActorRole;
  scope: ImpactScope;
  payload: unknown;
  /** The ledger state the caller acted on; a different current state is STATE_DRIFT. */
  expectedStateHash?: string | undefined;
  /** Where the agent works, as the request says (checked by `readAgentContext`). */
  context?: AgentContext | undefined;
}

export interface JudgmentContext {
  policy: CompiledPolicy;
  egress?: EgressSettings;
  customActions?: (action: string) => ValidateFunction | undefined;
  /** Contradictions between what the agent says or sends and verified ledger facts. */
  textChecker?: (text: string) => Finding[];
  paths?: PathContext;
  /** The account's default agent context (`/v1/settings/context`), under the request's own. */
  contextDefaults?: AgentContext;
  /** The account's catalogue rules and protected resources, as `/v1/evaluate` judges with them. */
  catalogue?: CatalogueContext;
  execution?: ExecutionSettings;
  /** The account's current ledger state hash, compared with `expectedStateHash`. */
  stateHash?: string;
}

export interface Judgment {
  decision: Decision;
  reason: string;
  gates: Gates;
  actionKind: CedarContext['action_kind'];
}

/** Escalations carry this code, so a client can tell "wait for a human" from "refused". */
export const ESCALATION_CODE = 'ESCALATION_REQUIRED';

const pass = (reason: string, policies?: string[]): GateResult =>
  policies === undefined
    ? { passed: true, outcome: 'pass', reason }
    : { passed: true, outcome: 'pass', reason, policies };
const block = (code: string, reason: string, policies?: string[]): GateResult =>
  policies === undefined
    ? { passed: false, outcome: 'block', code, reason }
    : { passed: false, outcome: 'block', code, reason, policies };
const escalate = (reason: string, policies?: string[]): GateResult =>
  policies === undefined
    ? { passed: false, outcome: 'escalate', code: ESCALATION_CODE, reason }
    : { passed: false, outcome: 'escalate', code: ESCALATION_CODE, reason, policies };

function fromFindings(findings: Finding[], codes: readonly VerdictCode[], clean: string): GateResult {
  const hit = findings.find((f) => codes.includes(f.code));
  if (hit === undefined) return pass(clean);
  return block(hit.code, hit.location ? `${hit.message} (${hit.location})` : hit.message);
}

/**
 * A Cedar gate's result. `doubt` says what the verdict engine did not understand: a person asked
 * to decide, or a caller refused, reads it beside the policy's own reason.
 */
function fromCedar(verdict: GateVerdict, clean: string, doubt: string | undefined): GateResult {
  const ids = verdict.policies.map((p) => p.id);
  switch (verdict.outcome) {
    case 'pass':
      return pass(clean, ids);
    case 'escalate':
      return escalate(doubt ? `${verdict.reason} (${doubt})` : verdict.reason, ids);
    case 'block':
      return block('POLICY_VIOLATION', doubt ? `${verdict.reason} (${doubt})` : verdict.reason, ids);
  }
}

/** The distinct kinds of effect, sorted: what `context.effects` holds (and memoised decisions key on). */
function effectKinds(effects: readonly Effect[]): string[] {
  if (effects.length === 0) return [];
  return [...new Set(effects.map((e) => e.kind))].sort();
}

/** At most this many effects are named in a reason; the verdict lists them all. */
const NAMED_EFFECTS = 5;

/** What was not understood and what it may do: `not understood: unknown program "frobctl"; effects: execute frobctl`. */
function doubtOf(verdict: Verdict): string {
  const named = verdict.effects
    .slice(0, NAMED_EFFECTS)
    .map((e) => (e.target ? `${e.kind} ${e.target}` : e.kind));
  if (verdict.effects.length > NAMED_EFFECTS) named.push('…');
  const what = verdict.unrecognised.length > 0 ? verdict.unrecognised.join('; ') : 'what it does';
  return named.length > 0
    ? `not understood: ${what}; effects: ${named.join(', ')}`
    : `not understood: ${what}`;
}

const NOT_CHECKED = 'not checked: the payload does not match its schema';

// Passing gates say the same thing for the same inputs: each is made once and shared (nothing
// changes a GateResult after it is made). Besides the allocation, a reason built from a template
// is a fresh rope string, which JSON.stringify flattens again every time the row is written.
const PASS_NOT_CHECKED = pass(NOT_CHECKED);
const PASS_NOTHING_DESTRUCTIVE = pass('nothing destructive');
const PASS_BOUNDED_DELETE = pass('a bounded delete outside critical scope');
const PASS_EGRESS = 'no untrusted destination or privileged path';
const PASS_CONSISTENT = 'consistent with the ledger';
const PASS_NO_LOOP = pass('no loop of identical refused calls');

const reasons = new Map<string, string>();

/** The one copy of a reason made from parts (a bounded set: roles, kinds, scopes, action types). */
function reasonOf(key: string, make: () => string): string {
  let reason = reasons.get(key);
  if (reason === undefined) {
    reason = make();
    if (reasons.size < 10_000) reasons.set(key, reason);
  }
  return reason;
}

/**
 * Runs one proposed action through the seven gates. Pure: the verdict analyzers judge the
 * payload once, and each gate reads the findings it owns; authority and policy ask the
 * account's compiled Cedar policies. Any block makes the decision BLOCKED, else any escalate
 * ESCALATE, else ALLOWED.
 */
export function judge(input: JudgmentInput, ctx: JudgmentContext): Judgment {
  const facts = actionFacts(input.actionType, input.payload);
  const verdict = evaluateAction(
    { action: input.actionType, payload: input.payload, context: input.context },
    {
      ...(ctx.contextDefaults ? { contextDefaults: ctx.contextDefaults } : {}),
      ...(ctx.egress ? { egress: ctx.egress } : {}),
      ...(ctx.customActions ? { customActions: ctx.customActions } : {}),
      ...(ctx.textChecker ? { textChecker: ctx.textChecker } : {}),
      ...(ctx.paths ? { paths: ctx.paths } : {}),
      ...(ctx.catalogue ? { catalogue: ctx.catalogue } : {}),
      ...(ctx.execution ? { execution: ctx.execution } : {}),
    },
  );
  const findings = verdict.findings;
  const schemaFailed = findings.some((f) => f.code === 'SCHEMA_MISMATCH');
  const destructiveFinding = findings.some((f) => f.code === 'DEST_MUTATION');
  const destructive = facts.kind === 'delete' || destructiveFinding;

  const request: PolicyRequest = {
    actor: input.actor,
    role: input.role,
    kind: facts.kind,
    scope: input.scope,
    actionType: input.actionType,
    context: {
      actor: input.actor,
      actor_role: input.role,
      action_type: input.actionType,
      action_kind: facts.kind,
      impact_scope: input.scope,
      destructive,
      findings: [...new Set(findings.map((f) => f.code))].sort(),
      target: facts.target,
      hosts: facts.hosts,
      recognised: verdict.recognised,
      effects: effectKinds(verdict.effects),
    },
  };
  const doubt = verdict.recognised ? undefined : doubtOf(verdict);

  const authority = fromCedar(
    ctx.policy.authority(request),
    reasonOf(
      `a:${input.role}:${facts.kind}:${input.scope}`,
      () => `the ${input.role} role may ${facts.kind} at ${input.scope} scope`,
    ),
    doubt,
  );
  const schema = fromFindings(
    findings,
    ['SCHEMA_MISMATCH'],
    reasonOf(`s:${input.actionType}`, () => `payload matches the ${input.actionType} schema`),
  );
  const policy = fromCedar(ctx.policy.policy(request), 'no policy forbids it', doubt);

  let destruction: GateResult;
  if (schemaFailed) destruction = PASS_NOT_CHECKED;
  else if (destructiveFinding) destruction = fromFindings(findings, ['DEST_MUTATION'], '');
  else if (destructive && input.scope === 'critical')
    destruction = escalate('a destructive action on critical scope needs a human, whatever the role');
  else destruction = destructive ? PASS_BOUNDED_DELETE : PASS_NOTHING_DESTRUCTIVE;

  const egress = schemaFailed
    ? PASS_NOT_CHECKED
    : fromFindings(findings, ['FILESYSTEM_DENIED', 'EXFILTRATION_BLOCKED'], PASS_EGRESS);

  let consistency: GateResult;
  if (
    input.expectedStateHash !== undefined &&
    input.expectedStateHash !== (ctx.stateHash ?? input.expectedStateHash)
  ) {
    consistency = block(
      'STATE_DRIFT',
      `the ledger state changed: expected ${input.expectedStateHash.slice(0, 12)}…, now ${ctx.stateHash!.slice(0, 12)}…`,
    );
  } else if (schemaFailed) {
    consistency = PASS_NOT_CHECKED;
  } else {
    consistency = fromFindings(findings, ['CONFLICT_DETECTED'], PASS_CONSISTENT);
  }

  const loop = PASS_NO_LOOP;

  const gates: Gates = { authority, schema, policy, destruction, egress, consistency, loop };
  const { decision, reason } = decide(gates);
  return { decision, reason, gates, actionKind: facts.kind };
}

/**
 * The loop gate's verdict comes after the others: whether a call counts as one more repeat of a
 * refused call depends on how the other six gates judged it.
 */
export function withLoop(judgment: Judgment, reason: string): Judgment {
  const gates: Gates = { ...judgment.gates, loop: block('RATE_LIMIT_EXCEEDED', reason) };
  return { ...judgment, gates, ...decide(gates) };
}

function list(names: string[]): string {
  return names.length <= 1 ? (names[0] ?? '') : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
}

/** BLOCKED > ESCALATE > ALLOWED, with the deciding gates named in the reason. */
export function decide(gates: Gates): { decision: Decision; reason: string } {
  const blocked = gatesWith(gates, 'block');
  if (blocked.length > 0) return { decision: 'BLOCKED', reason: `Blocked by the ${explain(gates, blocked)}` };
  const escalated = gatesWith(gates, 'escalate');
  if (escalated.length > 0) {
    return { decision: 'ESCALATE', reason: `A human must decide, asked by the ${explain(gates, escalated)}` };
  }
  return { decision: 'ALLOWED', reason: 'All seven gates passed' };
}

// Module-level rather than closures in `decide`: it runs on every evaluation.
function gatesWith(gates: Gates, outcome: GateOutcome): GateName[] {
  return GATE_NAMES.filter((g) => gates[g].outcome === outcome);
}

function explain(gates: Gates, names: GateName[]): string {
  return `${list(names)} gate${names.length > 1 ? 's' : ''}: ${names.map((g) => gates[g].reason).join('; ')}`;
}
