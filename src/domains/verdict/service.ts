import canonicalize from 'canonicalize';
import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { Static } from 'typebox';
import type { Database } from '../../db/schema.ts';
import { Errors } from '../../errors.ts';
import { readPrecondition } from '../../http/preconditions.ts';
import type { AuditEvent, AuditRepo } from '../audit/index.ts';
import {
  type AgentContext,
  type ContextSettings,
  canonicalContext,
  isEmptyContext,
  NO_CONTEXT_SETTINGS,
  readAgentContext,
  readContextSettings,
} from './agent-context.ts';
import { DEFAULT_EGRESS_SETTINGS, type EgressSettings } from './analyzers/egress.ts';
import { BUILT_IN_ACTIONS, BUILT_IN_SCHEMAS, compileActionSchema, isBuiltInAction } from './catalog.ts';
import { EMPTY_PROTECTED_RESOURCES } from './catalogue/index.ts';
import { createCatalogueSettings } from './catalogue-settings.ts';
import { type Finding, topFinding, type VerdictCode } from './codes.ts';
import type { Effect } from './effects.ts';
import { evaluateAction, verdictHashOfCanonical } from './engine.ts';
import { DEFAULT_EXECUTION_SETTINGS, type ExecutionSettings } from './execution.ts';
import { type LoopStore, loopFingerprint } from './loop-detector.ts';
import {
  type AccountPolicy,
  type CustomAction,
  DEFAULT_LOOP_SETTINGS,
  DEFAULT_POLICY_VERSION,
  digestOf,
  guardActionSchema,
  type LoopSettings,
  MAX_CUSTOM_ACTIONS,
  MAX_DOMAINS,
  NO_ACCOUNT_RULES,
  normalizeDomain,
  parseProtected,
  policyVersion,
} from './policy.ts';
import type { PolicyChangeBus } from './policy-bus.ts';
import { PolicyCache } from './policy-cache.ts';
import {
  type CustomActionRow,
  createVerdictRepo,
  type VerdictRepo,
  type VerdictSettingsRow,
} from './repo.ts';
import type { ActionSchema, VerdictSchema } from './schemas.ts';

/** The claim ledger's current state hash per account (DESIGN "State hash"). */
export interface LedgerStatePort {
  /** `fresh`: the caller compares against it, so it must be read now, not remembered. */
  currentStateHash(accountId: string, options?: { fresh?: boolean }): Promise<string>;
}

/** Sentences of what an agent says or mails that contradict the account's verified facts. */
export interface LedgerTextPort {
  checkText(accountId: string, text: string): Finding[] | Promise<Finding[]>;
}

/** The verdict object of spec §2; the body of every `POST /v1/evaluate` answer. */
export type VerdictBody = Static<typeof VerdictSchema>;

/** The engine's reading of one call under the account's policy, before loops and the hash. */
interface Judged {
  findings: Finding[];
  effects: Effect[];
  recognised: boolean;
  unrecognised: string[];
}

export interface VerdictResult {
  status: 200 | 409 | 412;
  verdict: VerdictBody;
}

export type ActionView = Static<typeof ActionSchema>;

interface Caller {
  accountId: string;
  keyId: string;
}

const ENVELOPE_FIELDS = new Set(['action', 'payload', 'expected_state_hash', 'context']);

type Envelope =
  | {
      ok: true;
      action: string;
      payload: Record<string, unknown>;
      expected: string | undefined;
      /** Where the agent works, when the request says; a context that says nothing is none. */
      context: AgentContext | undefined;
    }
  | { ok: false; action: string; payload: unknown; message: string };

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function mismatch(action: string, body: unknown, message: string): Envelope {
  return { ok: false, action, payload: body ?? null, message };
}

/**
 * The request as the verdict engine needs it. A JSON body that is not `{action, payload}` is not
 * an HTTP error but a verdict: SCHEMA_MISMATCH, like any other payload that misses its schema.
 */
function readEnvelope(body: unknown, ifMatch: string | string[] | undefined): Envelope {
  const action = isPlainObject(body) && typeof body['action'] === 'string' ? body['action'] : '';
  if (!isPlainObject(body))
    return mismatch(action, body, 'the request body must be a JSON object {action, payload}');
  for (const key of Object.keys(body)) {
    if (!ENVELOPE_FIELDS.has(key))
      return mismatch(action, body, `unknown top-level field "${key.slice(0, 40)}"`);
  }
  if (typeof body['action'] !== 'string') return mismatch(action, body, 'action must be a string');
  const payload = body['payload'];
  if (!isPlainObject(payload)) return mismatch(action, body, 'payload must be a JSON object');
  const precondition = readPrecondition({
    fields: [['expected_state_hash', body['expected_state_hash']]],
    ifMatch,
  });
  if (!precondition.ok) return mismatch(action, body, precondition.message);
  let context: AgentContext | undefined;
  if (body['context'] !== undefined) {
    const checked = readAgentContext(body['context']);
    if (!checked.ok) return mismatch(action, body, checked.message);
    if (!isEmptyContext(checked.value)) context = checked.value;
  }
  return { ok: true, action: body['action'], payload, expected: precondition.expected, context };
}

/** The stored context settings; a row written by a newer schema that no longer reads is none. */
function parseContextSettings(json: string): ContextSettings | undefined {
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    return undefined;
  }
  const checked = readContextSettings(value);
  return checked.ok ? checked.value : undefined;
}

function hasCanonicalForm(value: unknown): boolean {
  try {
    return canonicalize(value ?? null) !== undefined;
  } catch {
    return false;
  }
}

/** Locations that only repeat what the message says are left out. */
const VAGUE_LOCATIONS = new Set(['action', 'request', 'payload']);

function messageOf({ location, message }: Finding): string {
  if (!location || VAGUE_LOCATIONS.has(location)) return message;
  // An analyzer may already say where ("… (statement 2 of 2)"): the place is not said twice.
  if (message.includes(`(${location})`) || message.includes(`(${location} `)) return message;
  return `${message} (${location})`;
}

function statusOf(code: VerdictCode | undefined): 200 | 409 | 412 {
  if (code === 'CONFLICT_DETECTED') return 409;
  if (code === 'STATE_DRIFT') return 412;
  return 200;
}

function parseList(json: string): string[] {
  const value = JSON.parse(json) as unknown;
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

export interface VerdictServiceDeps {
  db: Kysely<Database>;
  repo: VerdictRepo;
  audit: Pick<AuditRepo, 'appendIn'>;
  /** Buffered audit log for the hot path (`AuditLog.record`). */
  recordAudit: (event: AuditEvent) => void;
  ledgerState: LedgerStatePort;
  ledgerText: LedgerTextPort;
  loops: LoopStore;
  log: Pick<Logger, 'warn' | 'error'>;
  /** How long a cached account policy may be served (≤ 1000 ms). */
  policyMaxAgeMs?: number;
  /** Announces policy changes to the other instances on the database; absent: one instance. */
  changes?: PolicyChangeBus;
  now?: () => Date;
}

export function createVerdictService(deps: VerdictServiceDeps) {
  const now = deps.now ?? (() => new Date());

  async function loadPolicy(accountId: string): Promise<AccountPolicy> {
    const [settings, rows, ruleRow] = await Promise.all([
      deps.repo.findSettings(accountId),
      deps.repo.listActions(accountId),
      deps.repo.findRules(accountId),
    ]);
    const egress: EgressSettings = settings
      ? {
          mode: settings.egress_mode === 'allowlist' ? 'allowlist' : 'denylist',
          trusted_domains: parseList(settings.trusted_domains),
          blocked_domains: parseList(settings.blocked_domains),
        }
      : DEFAULT_EGRESS_SETTINGS;
    const loop: LoopSettings = settings
      ? { threshold: settings.loop_threshold, window_seconds: Math.round(settings.loop_window_ms / 1000) }
      : DEFAULT_LOOP_SETTINGS;
    const actions = new Map<string, CustomAction>();
    for (const row of rows) {
      const action = toCustomAction(row);
      if (action) actions.set(row.name, action);
      else
        deps.log.warn(
          { account: accountId, action: row.name },
          'stored custom action schema no longer compiles',
        );
    }
    const protectedResources = settings
      ? parseProtected(settings.protected_resources)
      : EMPTY_PROTECTED_RESOURCES;
    const execution: ExecutionSettings = settings
      ? {
          allow_opaque: settings.allow_opaque === 1,
          unrecognised: settings.unrecognised === 'refuse' ? 'refuse' : 'allow',
        }
      : DEFAULT_EXECUTION_SETTINGS;
    const rules = ruleRow ? storedRules(accountId, ruleRow) : NO_ACCOUNT_RULES;
    let context = NO_CONTEXT_SETTINGS;
    if (settings && settings.context !== '{}') {
      const stored = parseContextSettings(settings.context);
      if (stored) context = stored;
      else deps.log.warn({ account: accountId }, 'stored context settings no longer read; using none');
    }
    return {
      // The named local origins ride with the egress settings, which http.request is judged by.
      egress: context.local_origins.length > 0 ? { ...egress, local_origins: context.local_origins } : egress,
      context,
      loop,
      actions,
      catalogue: { protected: protectedResources, accountRules: rules.rules },
      execution,
      rules,
      version:
        settings || ruleRow
          ? policyVersion({
              egress,
              protected: protectedResources,
              execution,
              rulesDigest: rules.rules.length > 0 ? rules.digest : '',
              context,
            })
          : DEFAULT_POLICY_VERSION,
    };
  }

  const { storedRules, ...catalogueSettings } = createCatalogueSettings({
    db: deps.db,
    repo: deps.repo,
    audit: deps.audit,
    log: deps.log,
    policyFor: (accountId) => policies.get(accountId),
    saveSettings,
    changed,
    now,
  });

  const policies = new PolicyCache(loadPolicy, deps.policyMaxAgeMs ?? 1000, undefined, undefined, (err) =>
    deps.log.warn({ err }, 'background reload of an account policy failed'),
  );
  deps.changes?.listen(policies);

  /** In force here at once, and on every other instance by the time it resolves. */
  async function changed(accountId: string): Promise<void> {
    policies.invalidate(accountId);
    await deps.changes?.announce(accountId);
  }

  function toCustomAction(row: CustomActionRow): CustomAction | undefined {
    const schema = JSON.parse(row.schema) as Record<string, unknown>;
    const compiled = compileActionSchema(schema);
    if (!compiled.ok) return undefined;
    return {
      name: row.name,
      schema,
      validate: compiled.validate,
      digest: digestOf(schema),
      created_at: row.created_at,
      updated_at: row.updated_at,
    };
  }

  async function judge(
    caller: Caller,
    policy: AccountPolicy,
    envelope: Envelope,
    stateHash: string,
  ): Promise<Judged> {
    if (!envelope.ok) {
      return {
        findings: [{ code: 'SCHEMA_MISMATCH', message: envelope.message, location: 'request' }],
        effects: [],
        recognised: true,
        unrecognised: [],
      };
    }
    const texts: string[] = [];
    const verdict = evaluateAction(
      { action: envelope.action, payload: envelope.payload, context: envelope.context },
      {
        egress: policy.egress,
        ...(isEmptyContext(policy.context) ? {} : { contextDefaults: policy.context }),
        catalogue: policy.catalogue,
        execution: policy.execution,
        // Methods, not arrow properties: a named closure per verdict costs a defineProperty.
        customActions(name) {
          return policy.actions.get(name)?.validate;
        },
        // The engine decides which text to check; the ledger may answer asynchronously.
        textChecker(text) {
          texts.push(text);
          return [];
        },
      },
    );
    const findings = verdict.findings;
    for (const text of texts) {
      const found = deps.ledgerText.checkText(caller.accountId, text);
      findings.push(...(Array.isArray(found) ? found : await found));
    }
    if (envelope.expected !== undefined && envelope.expected !== stateHash) {
      findings.push({
        code: 'STATE_DRIFT',
        message: 'the ledger state changed since expected_state_hash was read; re-read it and evaluate again',
        location: 'expected_state_hash',
      });
    }
    // The account's posture on what Arbiter does not understand: by default the verdict says so
    // (recognised: false) and the integration asks a person; `refuse` makes it a refusal.
    if (!verdict.recognised && policy.execution.unrecognised === 'refuse') {
      findings.push({
        code: 'POLICY_VIOLATION',
        message: `Arbiter does not know what this does: ${verdict.unrecognised.join('; ')} (the account refuses actions it does not understand; PUT /v1/settings/execution {"unrecognised": "allow"} lets them through, marked recognised: false)`,
        location: 'unrecognised',
      });
    }
    return {
      findings,
      effects: verdict.effects,
      recognised: verdict.recognised,
      unrecognised: verdict.unrecognised,
    };
  }

  async function decide(caller: Caller, envelope: Envelope, started: number): Promise<VerdictResult> {
    const cached = policies.get(caller.accountId);
    const policy = cached instanceof Promise ? await cached : cached;
    const stateHash = await deps.ledgerState.currentStateHash(caller.accountId, {
      fresh: envelope.ok && envelope.expected !== undefined,
    });
    const judged = await judge(caller, policy, envelope, stateHash);
    let finding = topFinding(judged.findings);
    const custom = envelope.ok ? policy.actions.get(envelope.action) : undefined;
    const version =
      custom && !isBuiltInAction(envelope.action)
        ? `${policy.version};action=${custom.digest}`
        : policy.version;

    // Serialised once for both the loop fingerprint and the hash: payloads may be a megabyte.
    const canonicalPayload = canonicalize(envelope.payload) ?? 'null';
    // The same call in another workspace is another call: its own hash, its own loop count.
    const context = envelope.ok ? canonicalContext(envelope.context) : undefined;
    if (finding !== undefined) {
      // The engine is deterministic, so only a failing call can be part of a loop of failures.
      const count = await deps.loops.hit(
        loopFingerprint(
          caller.accountId,
          envelope.action,
          context === undefined ? canonicalPayload : `${canonicalPayload}\n${context}`,
        ),
        policy.loop.window_seconds * 1000,
      );
      if (count > policy.loop.threshold) {
        finding = {
          code: 'RATE_LIMIT_EXCEEDED',
          message: `the same failing call was repeated ${count} times within ${policy.loop.window_seconds} s (last refusal: ${finding.code}); change the call or wait ${policy.loop.window_seconds} s`,
        };
      }
    }

    const code = finding?.code ?? null;
    const hash = verdictHashOfCanonical(envelope.action, canonicalPayload, code, version, context);
    const verdict: VerdictBody = {
      is_safe: finding === undefined,
      latency_ms: 0,
      hash,
      state_hash: stateHash,
      recognised: judged.recognised,
      effects: judged.effects,
    };
    if (!judged.recognised) verdict.unrecognised = judged.unrecognised;
    if (finding !== undefined) verdict.error = { code: finding.code, message: messageOf(finding) };
    if (finding?.attack !== undefined) verdict.attack = finding.attack;
    // Never the payload: it may hold the very secrets the verdict refused to let out.
    const details = {
      action: envelope.action.slice(0, 100),
      code,
      ...(finding?.attack && { attack: finding.attack }),
    };
    if (finding === undefined) {
      deps.recordAudit({
        accountId: caller.accountId,
        actor: caller.keyId,
        action: 'verdict.evaluated',
        target: hash,
        details,
      });
    } else {
      const at = new Date().toISOString();
      deps.recordAudit({
        accountId: caller.accountId,
        actor: caller.keyId,
        action: 'verdict.rejected',
        target: hash,
        details,
        at,
        raises: {
          type: 'verdict.rejected',
          data: {
            verdict_hash: hash,
            action: details.action,
            code,
            ...(details.attack && { attack: details.attack }),
            key_id: caller.keyId,
            evaluated_at: at,
          },
        },
      });
    }
    verdict.latency_ms = Math.round((performance.now() - started) * 1000) / 1000;
    return { status: statusOf(finding?.code), verdict };
  }

  return {
    /**
     * The account's policy as verdicts use it: the one settings port of the verdict domain, also
     * read by the judgment engine. A cached value, or a promise when it must be read first.
     */
    policyFor(accountId: string): AccountPolicy | Promise<AccountPolicy> {
      return policies.get(accountId);
    },

    /** Judges one proposed action for the calling account. Never throws for any JSON body. */
    async evaluate(
      caller: Caller,
      body: unknown,
      ifMatch: string | string[] | undefined,
    ): Promise<VerdictResult> {
      const started = performance.now();
      const envelope = readEnvelope(body, ifMatch);
      try {
        return await decide(caller, envelope, started);
      } catch (err) {
        if (hasCanonicalForm(body)) throw err;
      }
      // `1e400` parses as Infinity, which has no canonical JSON form and so no hash: a mismatch,
      // judged on the body as JSON.stringify writes it back.
      return decide(
        caller,
        {
          ok: false,
          action: envelope.action,
          payload: JSON.parse(JSON.stringify(body ?? null)) as unknown,
          message: 'the request holds a number JSON cannot represent (such as 1e400)',
        },
        started,
      );
    },

    // ------------------------------------------------------------------ settings

    async getEgress(accountId: string): Promise<EgressSettings> {
      return (await policies.get(accountId)).egress;
    },

    async putEgress(
      caller: Caller,
      input: { mode: 'denylist' | 'allowlist'; trusted_domains?: string[]; blocked_domains?: string[] },
    ): Promise<EgressSettings> {
      const clean = (list: string[] | undefined, field: 'trusted_domains' | 'blocked_domains') => {
        const out = new Set<string>();
        for (const [index, value] of (list ?? []).entries()) {
          const checked = normalizeDomain(value, field === 'trusted_domains' ? 'trusted' : 'blocked');
          if (!checked.ok) {
            throw Errors.validation(`${field}[${index}] "${value.slice(0, 100)}" ${checked.reason}`, {
              field,
              index,
            });
          }
          out.add(checked.domain);
        }
        if (out.size > MAX_DOMAINS)
          throw Errors.validation(`${field} holds more than ${MAX_DOMAINS} domains`);
        return [...out].sort();
      };
      const egress: EgressSettings = {
        mode: input.mode,
        trusted_domains: clean(input.trusted_domains, 'trusted_domains'),
        blocked_domains: clean(input.blocked_domains, 'blocked_domains'),
      };
      await saveSettings(
        caller,
        'settings.egress.updated',
        {
          egress_mode: egress.mode,
          trusted_domains: JSON.stringify(egress.trusted_domains),
          blocked_domains: JSON.stringify(egress.blocked_domains),
        },
        { mode: egress.mode, trusted: egress.trusted_domains.length, blocked: egress.blocked_domains.length },
      );
      return egress;
    },

    async getContext(accountId: string): Promise<ContextSettings> {
      return (await policies.get(accountId)).context;
    },

    /** Replaces the account's default context and named local origins (omitted fields are unset). */
    async putContext(caller: Caller, input: unknown): Promise<ContextSettings> {
      const checked = readContextSettings(input);
      if (!checked.ok) throw Errors.validation(checked.message, { field: checked.field });
      const context = checked.value;
      await saveSettings(
        caller,
        'settings.context.updated',
        { context: JSON.stringify(context) },
        {
          workspaces: context.workspace?.length ?? 0,
          user: context.user !== undefined,
          home: context.home !== undefined,
          os: context.os ?? null,
          local_origins: context.local_origins.length,
        },
      );
      return context;
    },

    async getLoop(accountId: string): Promise<LoopSettings> {
      return (await policies.get(accountId)).loop;
    },

    async putLoop(caller: Caller, loop: LoopSettings): Promise<LoopSettings> {
      await saveSettings(
        caller,
        'settings.loop.updated',
        { loop_threshold: loop.threshold, loop_window_ms: loop.window_seconds * 1000 },
        { ...loop },
      );
      return { threshold: loop.threshold, window_seconds: loop.window_seconds };
    },

    // ------------------------------------------------------------------ custom actions

    async listActions(accountId: string): Promise<ActionView[]> {
      const builtIns: ActionView[] = BUILT_IN_ACTIONS.map((name) => ({
        name,
        builtin: true,
        schema: BUILT_IN_SCHEMAS[name] as Record<string, unknown>,
      }));
      const custom = (await deps.repo.listActions(accountId)).map(rowView);
      return [...builtIns, ...custom];
    },

    async getAction(accountId: string, name: string): Promise<ActionView> {
      if (isBuiltInAction(name)) {
        return { name, builtin: true, schema: BUILT_IN_SCHEMAS[name] as Record<string, unknown> };
      }
      const row = await deps.repo.findAction(accountId, name);
      if (!row) throw Errors.notFound(`Action ${name}`);
      return rowView(row);
    },

    /** Registers or replaces a custom action; `created` tells which. */
    async putAction(
      caller: Caller,
      name: string,
      schema: Record<string, unknown>,
    ): Promise<{ action: ActionView; created: boolean }> {
      refuseBuiltIn(name);
      const why = guardActionSchema(schema);
      if (why) throw Errors.validation(`The action schema is refused: ${why}`);
      const compiled = compileActionSchema(schema);
      if (!compiled.ok) throw Errors.validation(`The action schema is refused: ${compiled.error}`);
      const at = now().toISOString();
      const created = await deps.db.transaction().execute(async (trx) => {
        const repo = createVerdictRepo(trx);
        const existing = await repo.findAction(caller.accountId, name);
        if (!existing && (await repo.countActions(caller.accountId)) >= MAX_CUSTOM_ACTIONS) {
          throw Errors.conflict(`An account can register at most ${MAX_CUSTOM_ACTIONS} custom actions`);
        }
        await repo.saveAction({
          account_id: caller.accountId,
          name,
          schema: JSON.stringify(schema),
          created_at: existing?.created_at ?? at,
          updated_at: at,
        });
        await deps.audit.appendIn(trx, [
          {
            accountId: caller.accountId,
            actor: caller.keyId,
            action: existing ? 'verdict_action.updated' : 'verdict_action.created',
            target: name,
            details: { schema_digest: digestOf(schema) },
            at,
          },
        ]);
        return existing === undefined;
      });
      await changed(caller.accountId);
      const row = await deps.repo.findAction(caller.accountId, name);
      return { action: rowView(row!), created };
    },

    async deleteAction(caller: Caller, name: string): Promise<void> {
      refuseBuiltIn(name);
      const at = now().toISOString();
      await deps.db.transaction().execute(async (trx) => {
        if (!(await createVerdictRepo(trx).deleteAction(caller.accountId, name))) {
          throw Errors.notFound(`Action ${name}`);
        }
        await deps.audit.appendIn(trx, [
          {
            accountId: caller.accountId,
            actor: caller.keyId,
            action: 'verdict_action.deleted',
            target: name,
            at,
          },
        ]);
      });
      await changed(caller.accountId);
    },

    // Catalogue rules, protected resources and execution settings (catalogue-settings.ts).
    ...catalogueSettings,
  };

  async function saveSettings(
    caller: Caller,
    auditAction: string,
    changes: Partial<Omit<VerdictSettingsRow, 'account_id' | 'updated_at'>>,
    details: Record<string, unknown>,
  ): Promise<void> {
    const at = now().toISOString();
    const defaults: VerdictSettingsRow = {
      account_id: caller.accountId,
      egress_mode: DEFAULT_EGRESS_SETTINGS.mode,
      trusted_domains: '[]',
      blocked_domains: '[]',
      loop_threshold: DEFAULT_LOOP_SETTINGS.threshold,
      loop_window_ms: DEFAULT_LOOP_SETTINGS.window_seconds * 1000,
      protected_resources: JSON.stringify(EMPTY_PROTECTED_RESOURCES),
      allow_opaque: DEFAULT_EXECUTION_SETTINGS.allow_opaque ? 1 : 0,
      unrecognised: DEFAULT_EXECUTION_SETTINGS.unrecognised,
      context: '{}',
      updated_at: at,
    };
    await deps.db.transaction().execute(async (trx) => {
      await createVerdictRepo(trx).upsertSettings(
        { ...defaults, ...changes },
        { ...changes, updated_at: at },
      );
      await deps.audit.appendIn(trx, [
        { accountId: caller.accountId, actor: caller.keyId, action: auditAction, details, at },
      ]);
    });
    await changed(caller.accountId);
  }
}

function refuseBuiltIn(name: string): void {
  if (isBuiltInAction(name)) {
    throw Errors.conflict(`${name} is a built-in action; it cannot be replaced or removed`);
  }
}

function rowView(row: CustomActionRow): ActionView {
  return {
    name: row.name,
    builtin: false,
    schema: JSON.parse(row.schema) as Record<string, unknown>,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

export type VerdictService = ReturnType<typeof createVerdictService>;
