import type { ValidateFunction } from 'ajv';
import canonicalize from 'canonicalize';
import { sha256 } from '../../lib/sha256.ts';
import { type Reading, reduceBuiltIn } from './actions.ts';
import { type AgentContext, canonicalContext, pathContextOf } from './agent-context.ts';
import { DEFAULT_EGRESS_SETTINGS, type EgressSettings } from './analyzers/egress.ts';
import type { PathContext } from './analyzers/paths.ts';
import { type BuiltInAction, builtInValidator, schemaFindings } from './catalog.ts';
import { type CatalogueContext, DEFAULT_CATALOGUE_CONTEXT } from './catalogue/index.ts';
import { type Finding, topFinding, type VerdictCode } from './codes.ts';
import { type Effect, effectOfFinding, mergeEffects, type Step } from './effects.ts';
import { DEFAULT_EXECUTION_SETTINGS, type ExecutionSettings } from './execution.ts';

export interface EvaluateInput {
  action: string;
  payload: unknown;
  /** Where the agent works (the request's `context`, checked by `readAgentContext`). */
  context?: AgentContext | undefined;
}

export interface EvaluateContext {
  /** The account's egress settings; DEFAULT_EGRESS_SETTINGS when absent. */
  egress?: EgressSettings;
  /** Validator of an account's custom action (see compileActionSchema), or undefined. */
  customActions?: (action: string) => ValidateFunction | undefined;
  /** Claim-ledger contradiction check for what the agent says or writes. */
  textChecker?: (text: string) => Finding[];
  /**
   * Home and workspace the agent's relative paths are resolved against, when the caller has them
   * as such (the judgment gates); a request `context` or `contextDefaults` takes precedence.
   */
  paths?: PathContext;
  /** The account's default context (`/v1/settings/context`), under the request's own. */
  contextDefaults?: AgentContext;
  /** The destructive-operation catalogue's account part: own rules and protected resources. */
  catalogue?: CatalogueContext;
  /** What the account allows that is refused by default. */
  execution?: ExecutionSettings;
}

export interface Verdict {
  is_safe: boolean;
  /** The finding that decides the verdict, by VERDICT_PRECEDENCE. */
  finding?: Finding;
  findings: Finding[];
  /** What Arbiter understood the action would do. */
  effects: Effect[];
  /** False when any step could not be reduced to known effects. */
  recognised: boolean;
  /** What was not understood, in words (at most a few), when `recognised` is false. */
  unrecognised: string[];
}

/** At most this many things not understood are named on a verdict. */
const MAX_UNRECOGNISED = 5;

function verdictOf(findings: Finding[], reading?: Reading): Verdict {
  const finding = topFinding(findings);
  const steps = reading?.steps ?? [];
  const recognised = steps.every((s) => s.recognised);
  const unrecognised = recognised
    ? []
    : [
        ...new Set(
          steps.flatMap((s) => (s.recognised || s.unrecognised === undefined ? [] : [s.unrecognised])),
        ),
      ].slice(0, MAX_UNRECOGNISED);
  const verdict: Verdict = {
    is_safe: finding === undefined,
    findings,
    effects: effectsOf(steps, findings),
    recognised,
    unrecognised,
  };
  if (finding !== undefined) verdict.finding = finding;
  return verdict;
}

/** The steps' effects, and those a refusal names that no step had. */
function effectsOf(steps: readonly Step[], findings: readonly Finding[]): Effect[] {
  if (findings.length === 0 && steps.length === 1) return steps[0]!.effects;
  const effects = steps.flatMap((s) => s.effects);
  const kinds = new Set(effects.map((e) => e.kind));
  for (const finding of findings) {
    const effect = effectOfFinding(finding);
    if (effect !== undefined && !kinds.has(effect.kind)) {
      effects.push(effect);
      kinds.add(effect.kind);
    }
  }
  return mergeEffects(effects);
}

/** A custom action is checked against its schema; what it does is the account's to know. */
const CUSTOM_ACTION: Reading = {
  findings: [],
  steps: [
    {
      effects: [],
      recognised: false,
      unrecognised: 'a custom action: its payload fits its schema, its effects are not known to Arbiter',
    },
  ],
};

/**
 * Where paths are judged from: the request's context over the account's, with a shell `cwd` as
 * evidence of the workspace when none is declared; a caller's own `paths` when it has neither.
 */
function pathsOf(input: EvaluateInput, ctx: EvaluateContext): PathContext {
  const cwd =
    input.action === 'shell.exec' && typeof (input.payload as { cwd?: unknown }).cwd === 'string'
      ? (input.payload as { cwd: string }).cwd
      : undefined;
  if (input.context === undefined && ctx.contextDefaults === undefined && ctx.paths !== undefined)
    return ctx.paths;
  return pathContextOf(input.context, ctx.contextDefaults, cwd);
}

/**
 * Judges one proposed action. Pure: the same input and context always give the same
 * verdict. Schema validation runs first, so analyzers only ever see well-typed payloads.
 */
export function evaluateAction(input: EvaluateInput, ctx: EvaluateContext = {}): Verdict {
  const { action, payload } = input;
  const builtIn = builtInValidator(action);
  const validate = builtIn ?? ctx.customActions?.(action);
  if (validate === undefined) {
    return verdictOf([
      {
        code: 'SCHEMA_MISMATCH',
        message: `unknown action "${String(action).slice(0, 64)}": not built in and not registered for this account`,
        location: 'action',
      },
    ]);
  }
  const schema = schemaFindings(validate, action, payload);
  if (schema.length > 0) return verdictOf(schema);
  if (builtIn === undefined) return verdictOf([], CUSTOM_ACTION);
  const reading = reduceBuiltIn(action as BuiltInAction, payload, {
    egress: ctx.egress ?? DEFAULT_EGRESS_SETTINGS,
    paths: pathsOf(input, ctx),
    catalogue: ctx.catalogue ?? DEFAULT_CATALOGUE_CONTEXT,
    execution: ctx.execution ?? DEFAULT_EXECUTION_SETTINGS,
    textChecker: ctx.textChecker,
  });
  return verdictOf(reading.findings, reading);
}

/**
 * SHA-256 (hex) of the RFC 8785 canonical JSON of action, payload, outcome code and
 * policy version: the same input under the same policy always hashes the same. A request that
 * carries a context hashes it too (`canonicalContext`), so the same call in another workspace has
 * another hash; a request without one hashes exactly as before contexts existed.
 */
export function verdictHash(
  action: string,
  payload: unknown,
  code: VerdictCode | null,
  policyVersion: string,
  context?: AgentContext,
): string {
  const fields: Record<string, unknown> = { action, payload, code, policy_version: policyVersion };
  if (context !== undefined && canonicalContext(context) !== undefined) fields['context'] = context;
  const canonical = canonicalize(fields) ?? 'null';
  return sha256(canonical);
}

/**
 * `verdictHash` for a payload (and context) already in canonical JSON, so a caller that also
 * needs the canonical form (loop fingerprints) serialises a large payload once. RFC 8785 orders
 * the keys `action`, `code`, `context`, `payload`, `policy_version` and writes strings as
 * JSON.stringify does.
 */
export function verdictHashOfCanonical(
  action: string,
  canonicalPayload: string,
  code: VerdictCode | null,
  policyVersion: string,
  canonicalContextJson?: string,
): string {
  const context = canonicalContextJson === undefined ? '' : `"context":${canonicalContextJson},`;
  return sha256(
    `{"action":${JSON.stringify(action)},"code":${JSON.stringify(code)},${context}"payload":${canonicalPayload},"policy_version":${JSON.stringify(policyVersion)}}`,
  );
}
