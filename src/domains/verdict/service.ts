import canonicalize from 'canonicalize';
import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { Static } from 'typebox';
import type { Database } from '../../db/schema.ts';
import type { AuditEvent, AuditRepo } from '../audit/index.ts';
import { loadAccountPolicy } from './account-policy.ts';
import { canonicalContext, isEmptyContext } from './agent-context.ts';
import { isBuiltInAction } from './catalog.ts';
import { createCatalogueSettings } from './catalogue-settings.ts';
import { type Finding, topFinding, type VerdictCode } from './codes.ts';
import type { Effect } from './effects.ts';
import { evaluateAction, verdictHashOfCanonical } from './engine.ts';
import { type LoopStore, loopFingerprint } from './loop-detector.ts';
import type { AccountPolicy } from './policy.ts';
import type { PolicyChangeBus } from './policy-bus.ts';
import { PolicyCache } from './policy-cache.ts';
import type { VerdictRepo } from './repo.ts';
import type { VerdictSchema } from './schemas.ts';
import { type Caller, type Envelope, hasCanonicalForm, readEnvelope } from './verdict-envelope.ts';
import { createVerdictSettings } from './verdict-settings.ts';

export type { ActionView } from './verdict-settings.ts';

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

  const policies = new PolicyCache(
    (accountId: string) => loadAccountPolicy({ repo: deps.repo, log: deps.log, storedRules }, accountId),
    deps.policyMaxAgeMs ?? 1000,
    undefined,
    undefined,
    (err) => deps.log.warn({ err }, 'background reload of an account policy failed'),
  );
  deps.changes?.listen(policies);

  /** In force here at once, and on every other instance by the time it resolves. */
  async function changed(accountId: string): Promise<void> {
    policies.invalidate(accountId);
    await deps.changes?.announce(accountId);
  }

  const { saveSettings, ...settings } = createVerdictSettings({
    db: deps.db,
    repo: deps.repo,
    audit: deps.audit,
    policyFor: (accountId) => policies.get(accountId),
    changed,
    now,
  });

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

    // Egress, context and loop settings and custom actions (verdict-settings.ts).
    ...settings,

    // Catalogue rules, protected resources and execution settings (catalogue-settings.ts).
    ...catalogueSettings,
  };
}

export type VerdictService = ReturnType<typeof createVerdictService>;
