import * as cedar from '@cedar-policy/cedar-wasm/nodejs';
import {
  ACTION_KINDS,
  type ActionKind,
  type ActorRole,
  CEDAR_SCHEMA,
  CELL_ATTRIBUTES,
  type CedarContext,
  type ImpactScope,
  ROLES,
  SCOPES,
} from './cedar-schema.ts';

/** Where a problem is, 1-based, for a 400 that points at the line to fix. */
export interface PolicyProblem {
  line: number;
  column: number;
  policy_id: string | null;
  message: string;
}

export interface CompiledPolicyInfo {
  id: string;
  effect: 'permit' | 'forbid';
  /** `@escalate` was present; its text, or a generic reason when empty. */
  escalate: string | undefined;
  line: number;
}

export type GateVerdict =
  | { outcome: 'pass'; policies: CompiledPolicyInfo[] }
  | { outcome: 'escalate'; policies: CompiledPolicyInfo[]; reason: string }
  | { outcome: 'block'; policies: CompiledPolicyInfo[]; reason: string };

export interface PolicyRequest {
  actor: string;
  role: ActorRole;
  kind: ActionKind;
  scope: ImpactScope;
  actionType: string;
  context: CedarContext;
}

const KNOWN_ANNOTATIONS = new Set(['id', 'escalate', 'description']);
const MEMO_LIMIT = 4096;
let setCounter = 0;

type PolicyJson = Extract<cedar.PolicyToJsonAnswer, { type: 'success' }>['json'];

/** Byte offset (Cedar reports UTF-8 offsets) → 1-based line and column in characters. */
function locate(text: Buffer, offset: number): { line: number; column: number } {
  const before = text.subarray(0, Math.max(0, Math.min(offset, text.length))).toString('utf8');
  const lines = before.split('\n');
  return { line: lines.length, column: [...(lines.at(-1) ?? '')].length + 1 };
}

function walk(node: unknown, visit: (n: Record<string, unknown>) => void): void {
  if (Array.isArray(node)) {
    for (const item of node) walk(item, visit);
  } else if (typeof node === 'object' && node !== null) {
    visit(node as Record<string, unknown>);
    for (const value of Object.values(node)) walk(value, visit);
  }
}

/** Context attributes a policy reads; `all` when it uses `context` other than by attribute. */
function contextReads(json: PolicyJson): { attrs: Set<string>; all: boolean; actor: boolean } {
  const attrs = new Set<string>();
  let contextVars = 0;
  let attributeReads = 0;
  walk(json.conditions, (n) => {
    if (n['Var'] === 'context') contextVars += 1;
    for (const op of ['.', 'has'] as const) {
      const inner = n[op] as { left?: { Var?: string }; attr?: unknown } | undefined;
      if (inner?.left?.Var === 'context' && inner.attr !== undefined) {
        attributeReads += 1;
        for (const a of Array.isArray(inner.attr) ? inner.attr : [inner.attr]) attrs.add(String(a));
      }
    }
  });
  return {
    attrs,
    all: contextVars > attributeReads,
    actor: JSON.stringify(json).includes('"Arbiter::Actor"'),
  };
}

interface CedarCall {
  principal: cedar.EntityUid;
  action: cedar.EntityUid;
  resource: cedar.EntityUid;
  context: cedar.Context;
  entities: cedar.Entities;
}

function cedarCall(req: PolicyRequest, attrs: readonly string[] | 'all'): CedarCall {
  const context: Record<string, cedar.CedarValueJson> = {};
  const ctx = req.context as unknown as Record<string, cedar.CedarValueJson>;
  for (const name of attrs === 'all' ? Object.keys(ctx) : attrs) {
    if (Object.hasOwn(ctx, name)) context[name] = ctx[name]!;
  }
  return {
    principal: { type: 'Arbiter::Actor', id: req.actor },
    action: { type: 'Arbiter::Action', id: req.kind },
    resource: { type: 'Arbiter::Target', id: req.actionType },
    context,
    entities: [
      {
        uid: { type: 'Arbiter::Actor', id: req.actor },
        attrs: {},
        parents: [{ type: 'Arbiter::Role', id: req.role }],
      },
      {
        uid: { type: 'Arbiter::Target', id: req.actionType },
        attrs: {},
        parents: [{ type: 'Arbiter::Scope', id: req.scope }],
      },
    ],
  };
}

/**
 * One side of the document (permits = authority, forbids = policy), preparsed inside the WASM
 * module once. Answers are memoised on exactly the inputs its policies read, so a document
 * that looks only at role, kind and scope is a table lookup after the first request.
 */
class PreparsedSet {
  private readonly id: string;
  private readonly memo = new Map<string, { decision: cedar.Decision; reasons: string[] }>();
  private readonly attrs: string[] | 'all';
  private readonly readsActor: boolean;

  constructor(
    policies: Record<string, string>,
    reads: ReturnType<typeof contextReads>[],
    readonly empty: boolean,
  ) {
    this.id = `arbiter-${++setCounter}`;
    const answer = cedar.preparsePolicySet(this.id, { staticPolicies: policies });
    if (answer.type !== 'success')
      throw new Error(`policy set did not preparse: ${answer.errors[0]?.message}`);
    const attrs = new Set<string>();
    let all = false;
    for (const r of reads) {
      if (r.all) all = true;
      for (const a of r.attrs) attrs.add(a);
    }
    this.attrs = all ? 'all' : [...attrs].sort();
    this.readsActor = reads.some((r) => r.actor);
  }

  decide(req: PolicyRequest): { decision: cedar.Decision; reasons: string[] } {
    const ctx = req.context as unknown as Record<string, unknown>;
    const values = this.attrs === 'all' ? [ctx] : this.attrs.map((a) => ctx[a]);
    const key = JSON.stringify([
      req.role,
      req.kind,
      req.scope,
      req.actionType,
      this.readsActor ? req.actor : '',
      values,
    ]);
    const hit = this.memo.get(key);
    if (hit !== undefined) return hit;
    const answer = cedar.statefulIsAuthorized({
      ...cedarCall(req, this.attrs),
      preparsedPolicySetId: this.id,
    });
    // Inputs are built by us from validated requests; an evaluation error (say, an overflow in a
    // policy's arithmetic) makes that policy not apply, as Cedar itself defines it.
    const result =
      answer.type === 'success'
        ? { decision: answer.response.decision, reasons: answer.response.diagnostics.reason }
        : { decision: 'deny' as const, reasons: [] };
    if (this.memo.size >= MEMO_LIMIT) this.memo.clear();
    this.memo.set(key, result);
    return result;
  }
}

const DEFAULT_ESCALATION = 'a policy asks for a human to decide';

/** A validated, compiled policy document: the authority and policy gates of one account. */
export class CompiledPolicy {
  private readonly byId: Map<string, CompiledPolicyInfo>;
  private readonly permits: PreparsedSet;
  private readonly forbids: PreparsedSet;

  constructor(parts: { info: CompiledPolicyInfo; text: string; reads: ReturnType<typeof contextReads> }[]) {
    this.byId = new Map(parts.map((p) => [p.info.id, p.info]));
    const side = (effect: 'permit' | 'forbid', extra: Record<string, string> = {}) => {
      const chosen = parts.filter((p) => p.info.effect === effect);
      return new PreparsedSet(
        { ...Object.fromEntries(chosen.map((p) => [p.info.id, p.text])), ...extra },
        chosen.map((p) => p.reads),
        chosen.length === 0,
      );
    };
    this.permits = side('permit');
    // Forbids alone would deny everything; the implicit permit leaves a deny to the forbids.
    this.forbids = side('forbid', { 'arbiter-implicit-permit': 'permit (principal, action, resource);' });
  }

  get policies(): CompiledPolicyInfo[] {
    return [...this.byId.values()];
  }

  /** The authority gate: a permit must grant the action; an `@escalate` permit needs a human. */
  authority(req: PolicyRequest): GateVerdict {
    const { decision, reasons } = this.permits.decide(req);
    const policies = reasons.map((id) => this.byId.get(id)).filter((p) => p !== undefined);
    if (decision === 'deny') {
      return {
        outcome: 'block',
        policies,
        reason: `no policy lets the ${req.role} role ${req.kind} at ${req.scope} scope`,
      };
    }
    const escalating = policies.filter((p) => p.escalate !== undefined);
    if (escalating.length > 0) {
      return {
        outcome: 'escalate',
        policies: escalating,
        reason: escalating.map((p) => p.escalate).join('; '),
      };
    }
    return { outcome: 'pass', policies };
  }

  /** The policy gate: a forbid blocks; a forbid marked `@escalate` needs a human instead. */
  policy(req: PolicyRequest): GateVerdict {
    const { decision, reasons } = this.forbids.decide(req);
    if (decision === 'allow') return { outcome: 'pass', policies: [] };
    const policies = reasons.map((id) => this.byId.get(id)).filter((p) => p !== undefined);
    const blocking = policies.filter((p) => p.escalate === undefined);
    if (blocking.length > 0) {
      return {
        outcome: 'block',
        policies: blocking,
        reason: `forbidden by ${blocking.map(label).join(', ')}`,
      };
    }
    return { outcome: 'escalate', policies, reason: policies.map((p) => p.escalate).join('; ') };
  }
}

function label(p: CompiledPolicyInfo): string {
  return p.id.startsWith('policy') ? `the policy at line ${p.line}` : `policy "${p.id}"`;
}

export type CompileResult = { ok: true; policy: CompiledPolicy } | { ok: false; problems: PolicyProblem[] };

interface Part {
  info: CompiledPolicyInfo;
  text: string;
  json: PolicyJson;
  reads: ReturnType<typeof contextReads>;
  offset: number;
}

/** Every (role, kind, scope) the probe tries when looking for contradictions. */
const CELLS = ROLES.flatMap((role) =>
  ACTION_KINDS.flatMap((kind) => SCOPES.map((scope) => ({ role, kind, scope }))),
);

function probeRequest(cell: (typeof CELLS)[number]): PolicyRequest {
  return {
    actor: 'arbiter-probe',
    role: cell.role,
    kind: cell.kind,
    scope: cell.scope,
    actionType: 'arbiter.probe',
    context: {
      actor: 'arbiter-probe',
      actor_role: cell.role,
      action_type: 'arbiter.probe',
      action_kind: cell.kind,
      impact_scope: cell.scope,
      destructive: cell.kind === 'delete',
      findings: [],
      target: '',
      hosts: [],
      recognised: true,
      effects: [],
    },
  };
}

/** The (role, kind, scope) cells a policy applies to, when those alone decide it. */
function cellsOf(part: Part): Set<number> | undefined {
  const json = JSON.stringify(part.json);
  if (part.reads.all || part.reads.actor || json.includes('"Arbiter::Target"')) return undefined;
  if ([...part.reads.attrs].some((a) => !CELL_ATTRIBUTES.has(a))) return undefined;
  // The same policy as a permit: allow then means "this policy applies".
  const asPermit: cedar.Policy = { ...part.json, effect: 'permit' };
  const cells = new Set<number>();
  CELLS.forEach((cell, index) => {
    const answer = cedar.isAuthorized({
      ...cedarCall(probeRequest(cell), 'all'),
      policies: { staticPolicies: { p: asPermit } },
    });
    if (answer.type === 'success' && answer.response.decision === 'allow') cells.add(index);
  });
  return cells;
}

function describeCells(cells: Set<number>): string {
  const first = CELLS[[...cells][0]!]!;
  return `the ${first.role} role doing ${first.kind} at ${first.scope} scope`;
}

/**
 * Parses, validates (Cedar strict mode, against CEDAR_SCHEMA) and compiles a policy document.
 * Refused, with line and column: syntax and type errors, unknown annotations, templates,
 * duplicate ids, policies that can never apply, and permits that a forbid always overrides.
 */
export function compilePolicyDocument(text: string): CompileResult {
  const bytes = Buffer.from(text, 'utf8');
  const problems: PolicyProblem[] = [];
  const seen = new Set<string>();
  const add = (offset: number, policyId: string | null, message: string) => {
    const key = `${offset}|${message}`;
    if (seen.has(key)) return;
    seen.add(key);
    problems.push({ ...locate(bytes, offset), policy_id: policyId, message });
  };
  // Cedar names policies by its own numbering and repeats a problem once per action; the
  // line and column already say which policy, so both are dropped from the message.
  const detail = (e: cedar.DetailedError) =>
    `${e.message.replace(/^for policy `[^`]*`[,:] /, '').replace(/ for Arbiter::Action::"[a-z]+"/, '')}${e.sourceLocations?.[0]?.label ? ` (${e.sourceLocations[0].label})` : ''}${e.help ? `; ${e.help}` : ''}`;

  const validation = cedar.validate({
    schema: CEDAR_SCHEMA,
    policies: { staticPolicies: text },
    validationSettings: { mode: 'strict' },
  });
  if (validation.type === 'failure') {
    for (const e of validation.errors) add(e.sourceLocations?.[0]?.start ?? 0, null, detail(e));
    return { ok: false, problems };
  }
  const split = cedar.policySetTextToParts(text);
  if (split.type === 'failure') {
    for (const e of split.errors) add(e.sourceLocations?.[0]?.start ?? 0, null, detail(e));
    return { ok: false, problems };
  }
  for (const t of split.policy_templates) {
    add(
      Math.max(0, bytes.indexOf(t)),
      null,
      'templates (policies with ?principal or ?resource slots) are not supported',
    );
  }

  const parts: Part[] = [];
  let cursor = 0;
  split.policies.forEach((policyText, index) => {
    const found = bytes.indexOf(policyText, cursor);
    const offset = found >= 0 ? found : cursor;
    cursor = found >= 0 ? found + Buffer.byteLength(policyText) : cursor;
    const converted = cedar.policyToJson(policyText);
    if (converted.type !== 'success') {
      add(offset, null, converted.errors[0]?.message ?? 'policy could not be read');
      return;
    }
    const json = converted.json;
    const annotations = json.annotations ?? {};
    for (const name of Object.keys(annotations)) {
      if (!KNOWN_ANNOTATIONS.has(name)) {
        add(offset, null, `unknown annotation @${name}: use @id, @escalate or @description`);
      }
    }
    const id = annotations['id'] ?? `policy${index}`;
    if (parts.some((p) => p.info.id === id) || id === 'arbiter-implicit-permit') {
      add(offset, id, `duplicate policy id "${id}"`);
    }
    const escalate = Object.hasOwn(annotations, 'escalate')
      ? annotations['escalate'] || DEFAULT_ESCALATION
      : undefined;
    parts.push({
      info: { id, effect: json.effect, escalate, line: locate(bytes, offset).line },
      text: policyText,
      json,
      reads: contextReads(json),
      offset,
    });
  });

  // Cedar's validator numbers policies policy0, policy1… in document order.
  const offsetOf = (policyId: string) => parts[Number(policyId.replace(/^policy/, ''))]?.offset ?? 0;
  const idOf = (policyId: string) => parts[Number(policyId.replace(/^policy/, ''))]?.info.id ?? policyId;
  for (const e of validation.validationErrors) {
    add(e.error.sourceLocations?.[0]?.start ?? offsetOf(e.policyId), idOf(e.policyId), detail(e.error));
  }
  for (const w of validation.validationWarnings) {
    if (
      w.error.message.includes('policy is impossible') ||
      w.error.message.includes('unable to find an applicable action')
    ) {
      add(
        offsetOf(w.policyId),
        idOf(w.policyId),
        `contradictory: policy "${idOf(w.policyId)}" can never apply to any request`,
      );
    }
  }
  if (problems.length > 0) return { ok: false, problems };

  // Contradictions Cedar's type checker does not see: conditions on role, kind and scope that no
  // request satisfies, and permits whose every request an unconditional forbid blocks anyway.
  const cells = parts.map((p) => cellsOf(p));
  const forbidden = new Map<number, Part>();
  parts.forEach((p, i) => {
    const c = cells[i];
    if (c !== undefined && c.size === 0) {
      add(
        p.offset,
        p.info.id,
        `contradictory: policy "${p.info.id}" can never apply (its conditions on role, kind and scope exclude each other)`,
      );
    }
    if (p.info.effect === 'forbid' && p.info.escalate === undefined && c !== undefined) {
      for (const cell of c) if (!forbidden.has(cell)) forbidden.set(cell, p);
    }
  });
  parts.forEach((p, i) => {
    const c = cells[i];
    if (p.info.effect !== 'permit' || c === undefined || c.size === 0) return;
    if ([...c].every((cell) => forbidden.has(cell))) {
      const by = forbidden.get([...c][0]!)!;
      add(
        p.offset,
        p.info.id,
        `contradictory: permit "${p.info.id}" can never take effect, forbid "${by.info.id}" at line ${by.info.line} blocks every request it grants (e.g. ${describeCells(c)})`,
      );
    }
  });
  if (problems.length > 0)
    return { ok: false, problems: problems.sort((a, b) => a.line - b.line || a.column - b.column) };

  return { ok: true, policy: new CompiledPolicy(parts) };
}
