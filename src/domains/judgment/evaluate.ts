import canonicalize from 'canonicalize';
import type { Static } from 'typebox';
import { Errors } from '../../errors.ts';
import { sha256 } from '../../lib/sha256.ts';
import { expectedStateHash } from '../../lib/state-precondition.ts';
import { timeOrderedId } from '../../lib/time-ordered-id.ts';
import type { AuditEvent } from '../audit/index.ts';
import type { PoliciesService } from '../policies/index.ts';
import {
  builtInValidator,
  isEmptyContext,
  type LedgerStatePort,
  type LedgerTextPort,
  type LoopStore,
  readAgentContext,
} from '../verdict/index.ts';
import type { Escalations } from './escalations.ts';
import type { EvaluationWriter } from './evaluation-writer.ts';
import { judge, withLoop } from './gates.ts';
import type { EvaluationRow } from './repo.ts';
import type { EvaluateBody } from './schemas.ts';
import type { VerdictSettingsReader } from './verdict-settings.ts';
import type { EvaluationStatus } from './views.ts';

export type EvaluateRequest = Static<typeof EvaluateBody>;

const TEXT_ACTIONS = new Set(['email.send', 'agent.respond']);

/** What an agent says or sends, as the ledger checks it (the verdict engine's own choice). */
function textOf(actionType: string, payload: Record<string, unknown>): string {
  return actionType === 'email.send'
    ? `${stringOr(payload['subject'])}\n${stringOr(payload['body'])}`
    : stringOr(payload['text']);
}

/** The request's agent context, checked as `/v1/evaluate` checks it; one that says nothing is none. */
function requestContext(raw: unknown) {
  if (raw === undefined) return undefined;
  const checked = readAgentContext(raw);
  if (!checked.ok) throw Errors.validation(checked.message, { field: checked.field });
  return isEmptyContext(checked.value) ? undefined : checked.value;
}

function stringOr(v: unknown): string {
  return typeof v === 'string' ? v : '';
}

/**
 * Judges a proposed action through the seven gates and records the evaluation: an escalation
 * before the answer, the others through the buffered writer.
 */
export function createEvaluate(deps: {
  policies: Pick<PoliciesService, 'current'>;
  settings: VerdictSettingsReader;
  loops: LoopStore;
  audit: { record(event: AuditEvent): void };
  ledgerState: LedgerStatePort;
  ledgerText: LedgerTextPort;
  escalationTtlMs: number;
  writer: Pick<EvaluationWriter, 'add'>;
  escalations: Pick<Escalations, 'open'>;
  now: () => Date;
}) {
  /** `ifMatch` is the request's `If-Match` header: the same precondition as `expected_state_hash`. */
  return async function evaluate(
    principal: { accountId: string; keyId: string },
    body: EvaluateRequest,
    ifMatch?: string | string[],
  ) {
    const { accountId } = principal;
    let payload: Record<string, unknown> = body.payload;
    // A payload may carry the state it was built on; built-in schemas do not know the field.
    const carried = payload['expected_state_hash'];
    const fields: Array<[string, unknown]> = [['expected_state_hash', body.expected_state_hash]];
    if (typeof carried === 'string' && builtInValidator(body.action_type) !== undefined) {
      const { expected_state_hash: _, ...rest } = payload;
      payload = rest;
      fields.push(['payload.expected_state_hash', carried]);
    }
    const expected = expectedStateHash({ fields, ifMatch });
    const context = requestContext(body.context);

    const cachedSettings = deps.settings.forAccount(accountId);
    const [current, settings] = await Promise.all([
      deps.policies.current(accountId),
      cachedSettings instanceof Promise ? cachedSettings : Promise.resolve(cachedSettings),
    ]);
    const stateHash =
      expected === undefined
        ? undefined
        : await deps.ledgerState.currentStateHash(accountId, { fresh: true });
    const textChecker = TEXT_ACTIONS.has(body.action_type)
      ? async (text: string) => deps.ledgerText.checkText(accountId, text)
      : undefined;
    const conflicts = textChecker ? await textChecker(textOf(body.action_type, payload)) : [];

    let judgment = judge(
      {
        actionType: body.action_type,
        actor: body.actor,
        role: body.actor_role,
        scope: body.impact_scope,
        payload,
        expectedStateHash: expected,
        context,
      },
      {
        policy: current.policy,
        ...(isEmptyContext(settings.context) ? {} : { contextDefaults: settings.context }),
        egress: settings.egress,
        catalogue: settings.catalogue,
        execution: settings.execution,
        // Methods, not arrow properties: a named closure per evaluation costs a defineProperty.
        customActions(name) {
          return settings.actions.get(name)?.validate;
        },
        ...(conflicts.length > 0
          ? {
              textChecker() {
                return conflicts;
              },
            }
          : {}),
        ...(stateHash !== undefined ? { stateHash } : {}),
      },
    );
    // Identical calls that keep being refused or escalated are a loop (as in /v1/evaluate):
    // past the account's threshold within its window, the loop gate blocks them.
    if (judgment.decision !== 'ALLOWED') {
      // Its own namespace: refusals of /v1/evaluate do not count towards a judgment loop.
      const fingerprint = sha256(
        canonicalize({
          t: body.action_type,
          x: body.actor,
          r: body.actor_role,
          s: body.impact_scope,
          p: payload,
          // The same call in another workspace is another call.
          ...(context !== undefined ? { c: context } : {}),
        }) ?? '',
        'base64url',
      );
      const count = await deps.loops.hit(
        `${accountId}:judgment:${fingerprint}`,
        settings.loop.window_seconds * 1000,
      );
      if (count > settings.loop.threshold) {
        judgment = withLoop(
          judgment,
          `the same call was refused or escalated ${count} times within ${settings.loop.window_seconds} s: the agent looks caught in a loop; change the call or wait ${settings.loop.window_seconds} s`,
        );
      }
    }

    const at = deps.now();
    const createdAt = at.toISOString();
    const payloadJson = JSON.stringify(payload);
    const escalated = judgment.decision === 'ESCALATE';
    const row: EvaluationRow = {
      // Time-ordered (UUIDv7): rows written together land together in the primary-key index.
      id: timeOrderedId(at.getTime()),
      account_id: accountId,
      key_id: principal.keyId,
      actor: body.actor,
      actor_role: body.actor_role,
      action_type: body.action_type,
      action_kind: judgment.actionKind,
      impact_scope: body.impact_scope,
      decision: judgment.decision,
      status: escalated ? 'pending' : judgment.decision === 'ALLOWED' ? 'allowed' : 'blocked',
      reason: judgment.reason,
      gates: JSON.stringify(judgment.gates),
      policy_version: current.version,
      payload_sha256: sha256(payloadJson),
      // A human has to read what they approve; other payloads are not kept.
      payload: escalated ? payloadJson : null,
      created_at: createdAt,
      expires_at: escalated ? new Date(at.getTime() + deps.escalationTtlMs).toISOString() : null,
      decided_at: null,
      decided_by: null,
      comment: null,
    };

    if (escalated) {
      await deps.escalations.open(row, principal.keyId, at);
    } else {
      // Answered only once stored: an evaluation id the caller holds is never lost.
      await deps.writer.add(row);
      if (judgment.decision === 'BLOCKED') {
        deps.audit.record({
          accountId,
          actor: principal.keyId,
          action: 'action.blocked',
          target: `evaluation:${row.id}`,
          details: { action_type: row.action_type, actor: row.actor, reason: row.reason },
          at: createdAt,
        });
      }
    }

    return {
      decision: judgment.decision,
      reason: judgment.reason,
      evaluation_id: row.id,
      gates: judgment.gates,
      status: row.status as EvaluationStatus,
      action_kind: judgment.actionKind,
      policy_version: current.version,
      created_at: createdAt,
      expires_at: row.expires_at,
    };
  };
}
