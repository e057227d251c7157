import { createHash } from 'node:crypto';
import canonicalize from 'canonicalize';
import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { Database } from '../../db/schema.ts';
import { AppError, Errors } from '../../errors.ts';
import { expectedStateHash } from '../../http/preconditions.ts';
import { PeriodicFlush } from '../../lib/periodic-flush.ts';
import { sha256Hex } from '../../lib/sha256.ts';
import { timeOrderedId } from '../../lib/time-ordered-id.ts';
import type { AuditEvent, AuditRepo } from '../audit/repo.ts';
import type { ActorRole, ImpactScope } from '../policies/cedar-schema.ts';
import type { PoliciesService } from '../policies/service.ts';
import { builtInValidator } from '../verdict/catalog.ts';
import type { LoopStore } from '../verdict/loop-detector.ts';
import type { LedgerStatePort, LedgerTextPort } from '../verdict/service.ts';
import type { EventType } from '../webhooks/event-types.ts';
import { type Decision, type Gates, judge, withLoop } from './gates.ts';
import type { EvaluationFilter, EvaluationRow, JudgmentRepo } from './repo.ts';
import type { VerdictSettingsReader } from './verdict-settings.ts';

/** Webhook events (`action.blocked`, `action.escalated`, decisions), written in the change's transaction. */
export interface JudgmentEvents {
  emit(
    trx: Kysely<Database>,
    accountId: string,
    type: EventType,
    data: Record<string, unknown>,
    at: Date,
  ): Promise<void>;
}

export const NO_EVENTS: JudgmentEvents = { emit: async () => undefined };

export type EvaluationStatus = 'allowed' | 'blocked' | 'pending' | 'approved' | 'denied' | 'expired';

export interface EvaluateRequest {
  action_type: string;
  actor: string;
  actor_role: ActorRole;
  impact_scope: ImpactScope;
  payload: Record<string, unknown>;
  expected_state_hash?: string | undefined;
}

export interface EvaluationView {
  evaluation_id: string;
  decision: Decision;
  status: EvaluationStatus;
  /** What the agent should do now: go ahead, stop, or (null) keep waiting for a human. */
  outcome: 'ALLOWED' | 'BLOCKED' | null;
  reason: string;
  gates: Gates;
  actor: string;
  actor_role: string;
  action_type: string;
  action_kind: string;
  impact_scope: string;
  policy_version: number;
  payload: unknown;
  payload_sha256: string;
  created_at: string;
  expires_at: string | null;
  decided_at: string | null;
  decided_by: string | null;
  comment: string | null;
}

const TEXT_ACTIONS = new Set(['email.send', 'agent.respond']);

/** What an agent says or sends, as the ledger checks it (the verdict engine's own choice). */
function textOf(actionType: string, payload: Record<string, unknown>): string {
  return actionType === 'email.send'
    ? `${stringOr(payload['subject'])}\n${stringOr(payload['body'])}`
    : stringOr(payload['text']);
}

function stringOr(v: unknown): string {
  return typeof v === 'string' ? v : '';
}
const SWEEP_BATCH = 500;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

function outcomeOf(status: string): EvaluationView['outcome'] {
  if (status === 'allowed' || status === 'approved') return 'ALLOWED';
  if (status === 'pending') return null;
  return 'BLOCKED';
}

export function toView(row: EvaluationRow): EvaluationView {
  return {
    evaluation_id: row.id,
    decision: row.decision as Decision,
    status: row.status as EvaluationStatus,
    outcome: outcomeOf(row.status),
    reason: row.reason,
    gates: JSON.parse(row.gates) as Gates,
    actor: row.actor,
    actor_role: row.actor_role,
    action_type: row.action_type,
    action_kind: row.action_kind,
    impact_scope: row.impact_scope,
    policy_version: row.policy_version,
    payload: row.payload === null ? null : JSON.parse(row.payload),
    payload_sha256: row.payload_sha256,
    created_at: row.created_at,
    expires_at: row.expires_at,
    decided_at: row.decided_at,
    decided_by: row.decided_by,
    comment: row.comment,
  };
}

/** Opaque to clients: the position of the last row of a page in the listing order. */
export function encodeCursor(row: { created_at: string; id: string }): string {
  return Buffer.from(JSON.stringify([row.created_at, row.id])).toString('base64url');
}

export function decodeCursor(cursor: string): { createdAt: string; id: string } {
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (Array.isArray(value) && value.length === 2 && value.every((v) => typeof v === 'string')) {
      return { createdAt: value[0] as string, id: value[1] as string };
    }
  } catch {
    // falls through to the 400 below
  }
  throw Errors.validation('querystring/cursor is not a cursor this service handed out');
}

/**
 * Writes a batch of ALLOWED and BLOCKED evaluations, with the `action.blocked` events of the
 * blocked ones, in one transaction. Runs on the writer thread in the server.
 */
export async function writeEvaluations(
  db: Kysely<Database>,
  repo: Pick<JudgmentRepo, 'insert'>,
  events: JudgmentEvents,
  batch: readonly EvaluationRow[],
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await repo.insert(trx, batch);
    for (const row of batch) {
      if (row.decision === 'BLOCKED') {
        await events.emit(trx, row.account_id, 'action.blocked', eventData(row), new Date(row.created_at));
      }
    }
  });
}

/**
 * Buffers ALLOWED and BLOCKED evaluations and writes them in batches, off the request path, like
 * the audit log: the answer never waits on a write. Until a batch is written its rows are served
 * from memory, so the instance that answered can always show the evaluation; other instances
 * see it after the next flush. Escalations do not come through here: they are written before
 * the answer.
 */
class EvaluationWriter {
  private pending = new Map<string, EvaluationRow>();
  private readonly flusher: PeriodicFlush;

  constructor(
    private readonly persist: (batch: EvaluationRow[]) => Promise<void>,
    flushMs: number,
    private readonly log: Pick<Logger, 'error'>,
  ) {
    this.flusher = new PeriodicFlush(flushMs, () => this.write());
  }

  add(row: EvaluationRow): void {
    this.pending.set(row.id, row);
    // Once, on reaching the batch size (as AuditLog.record): asking for every row while a write
    // is under way would queue a flush per row.
    if (this.pending.size === 1000) void this.flush();
  }

  peek(id: string): EvaluationRow | undefined {
    return this.pending.get(id);
  }

  start(): void {
    this.flusher.start();
  }

  flush(): Promise<void> {
    return this.flusher.flush();
  }

  stop(): Promise<void> {
    return this.flusher.stop();
  }

  /** Everything pending, in transactions of at most 1,000 rows, so none holds the lock for long. */
  private async write(): Promise<void> {
    while (this.pending.size > 0) {
      const batch: EvaluationRow[] = [];
      for (const row of this.pending.values()) {
        batch.push(row);
        if (batch.length === 1000) break;
      }
      try {
        await this.persist(batch);
        for (const row of batch) if (this.pending.get(row.id) === row) this.pending.delete(row.id);
      } catch (err) {
        this.log.error(
          { err, evaluations: batch.length },
          'writing evaluations failed; kept for the next attempt',
        );
        return;
      }
    }
  }
}

function eventData(row: EvaluationRow): Record<string, unknown> {
  return {
    evaluation_id: row.id,
    decision: row.decision,
    status: row.status,
    reason: row.reason,
    actor: row.actor,
    actor_role: row.actor_role,
    action_type: row.action_type,
    impact_scope: row.impact_scope,
    policy_version: row.policy_version,
    ...(row.expires_at ? { expires_at: row.expires_at } : {}),
    ...(row.decided_by
      ? { decided_by: row.decided_by, decided_at: row.decided_at, comment: row.comment }
      : {}),
  };
}

/**
 * The judgment engine: seven gates over a proposed action, and the escalation workflow that
 * holds an ESCALATE until a human approves or denies it, or it expires (then it is denied).
 */
export function createJudgmentService(deps: {
  db: Kysely<Database>;
  repo: JudgmentRepo;
  policies: Pick<PoliciesService, 'current'>;
  settings: VerdictSettingsReader;
  /** The verdict domain's loop store (in memory, or Redis shared by every instance). */
  loops: LoopStore;
  /** Buffered audit for the hot path; `auditRepo` for steps written with their change. */
  audit: { record(event: AuditEvent): void };
  auditRepo: Pick<AuditRepo, 'appendIn'>;
  events?: JudgmentEvents;
  ledgerState: LedgerStatePort;
  ledgerText: LedgerTextPort;
  escalationTtlMs: number;
  flushMs: number;
  /** Where buffered evaluations are written; `writeEvaluations` on `db` unless given. */
  persistEvaluations?: (batch: EvaluationRow[]) => Promise<void>;
  logger: Pick<Logger, 'error' | 'info'>;
  now?: () => Date;
}) {
  const now = deps.now ?? (() => new Date());
  const events = deps.events ?? NO_EVENTS;
  const writer = new EvaluationWriter(
    deps.persistEvaluations ?? ((batch) => writeEvaluations(deps.db, deps.repo, events, batch)),
    deps.flushMs,
    deps.logger,
  );

  async function find(accountId: string, id: string): Promise<EvaluationRow | undefined> {
    if (!UUID.test(id)) return undefined;
    const buffered = writer.peek(id);
    if (buffered !== undefined) return buffered.account_id === accountId ? buffered : undefined;
    return deps.repo.find(accountId, id);
  }

  /** Expires one evaluation whose time ran out, with its audit entry and event, exactly once. */
  async function expire(id: string, accountId: string, at: Date): Promise<boolean> {
    const iso = at.toISOString();
    return deps.db.transaction().execute(async (trx) => {
      if (!(await deps.repo.expireIn(trx, id, iso))) return false;
      await deps.auditRepo.appendIn(trx, [
        {
          accountId,
          actor: 'system',
          action: 'action.expired',
          target: `evaluation:${id}`,
          details: {},
          at: iso,
        },
      ]);
      await events.emit(
        trx,
        accountId,
        'action.expired',
        { evaluation_id: id, status: 'expired', decided_at: iso },
        at,
      );
      return true;
    });
  }

  async function expireDue(accountId?: string): Promise<number> {
    const at = now();
    let expired = 0;
    for (;;) {
      const due = await deps.repo.dueForExpiry(at.toISOString(), SWEEP_BATCH, accountId);
      for (const row of due) if (await expire(row.id, row.account_id, at)) expired += 1;
      if (due.length < SWEEP_BATCH) return expired;
    }
  }

  let sweeper: NodeJS.Timeout | undefined;

  return {
    /** Starts batched writing and the periodic expiry sweep. */
    start(sweepMs: number): void {
      writer.start();
      sweeper ??= setInterval(() => {
        expireDue().catch((err: unknown) => deps.logger.error({ err }, 'expiring escalations failed'));
      }, sweepMs);
      sweeper.unref();
    },

    /** Writes what is buffered; the periodic work stops. */
    async stop(): Promise<void> {
      if (sweeper) clearInterval(sweeper);
      sweeper = undefined;
      await writer.stop();
    },

    /** Writes buffered evaluations now (tests and benches read the table right after). */
    flush: () => writer.flush(),

    /** `ifMatch` is the request's `If-Match` header: the same precondition as `expected_state_hash`. */
    async evaluate(
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
        },
        {
          policy: current.policy,
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
        const fingerprint = createHash('sha256')
          .update(
            canonicalize({
              t: body.action_type,
              x: body.actor,
              r: body.actor_role,
              s: body.impact_scope,
              p: payload,
            }) ?? '',
          )
          .digest('base64url');
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

      const at = now();
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
        payload_sha256: sha256Hex(payloadJson),
        // A human has to read what they approve; other payloads are not kept.
        payload: escalated ? payloadJson : null,
        created_at: createdAt,
        expires_at: escalated ? new Date(at.getTime() + deps.escalationTtlMs).toISOString() : null,
        decided_at: null,
        decided_by: null,
        comment: null,
      };

      if (escalated) {
        await deps.db.transaction().execute(async (trx) => {
          await deps.repo.insert(trx, [row]);
          await deps.auditRepo.appendIn(trx, [
            {
              accountId,
              actor: principal.keyId,
              action: 'action.escalated',
              target: `evaluation:${row.id}`,
              details: {
                action_type: row.action_type,
                actor: row.actor,
                reason: row.reason,
                expires_at: row.expires_at,
              },
              at: createdAt,
            },
          ]);
          await events.emit(trx, accountId, 'action.escalated', eventData(row), at);
        });
      } else {
        writer.add(row);
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
    },

    async get(accountId: string, id: string): Promise<EvaluationView> {
      let row = await find(accountId, id);
      if (row === undefined) throw Errors.notFound(`Evaluation ${id}`);
      // Expiry applies on read too, so nobody sees a pending escalation past its time.
      if (row.status === 'pending' && row.expires_at !== null && row.expires_at <= now().toISOString()) {
        await expire(row.id, accountId, now());
        row = (await deps.repo.find(accountId, id)) ?? row;
      }
      return toView(row);
    },

    async decide(
      principal: { accountId: string; keyId: string },
      id: string,
      verdict: 'approved' | 'denied',
      comment: string | undefined,
    ): Promise<EvaluationView> {
      const current = await this.get(principal.accountId, id);
      if (current.status !== 'pending') {
        throw new AppError(
          'CONFLICT',
          current.decision === 'ESCALATE'
            ? `Evaluation ${id} was already decided: it is ${current.status}`
            : `Evaluation ${id} is not awaiting a decision: it was ${current.decision}`,
          { details: { status: current.status } },
        );
      }
      const row = await deps.repo.find(principal.accountId, id);
      if (row?.key_id === principal.keyId) {
        throw Errors.forbidden(
          'The key that asked for this action cannot decide its escalation; use another key of the account',
        );
      }
      const at = now();
      const iso = at.toISOString();
      const resolved = await deps.db.transaction().execute(async (trx) => {
        const won = await deps.repo.resolveIn(trx, principal.accountId, id, {
          status: verdict,
          at: iso,
          by: principal.keyId,
          comment: comment ?? null,
        });
        if (!won) return false;
        await deps.auditRepo.appendIn(trx, [
          {
            accountId: principal.accountId,
            actor: principal.keyId,
            action: verdict === 'approved' ? 'action.approved' : 'action.denied',
            target: `evaluation:${id}`,
            details: comment === undefined ? {} : { comment },
            at: iso,
          },
        ]);
        await events.emit(
          trx,
          principal.accountId,
          verdict === 'approved' ? 'action.approved' : 'action.denied',
          {
            evaluation_id: id,
            status: verdict,
            decided_by: principal.keyId,
            decided_at: iso,
            comment: comment ?? null,
          },
          at,
        );
        return true;
      });
      const after = await this.get(principal.accountId, id);
      if (!resolved) {
        throw new AppError('CONFLICT', `Evaluation ${id} was already decided: it is ${after.status}`, {
          details: { status: after.status },
        });
      }
      return after;
    },

    async list(
      accountId: string,
      query: Omit<EvaluationFilter, 'after' | 'limit'> & {
        cursor?: string | undefined;
        limit?: number | undefined;
      },
    ): Promise<{ evaluations: EvaluationView[]; next_cursor: string | null }> {
      const after = query.cursor === undefined ? undefined : decodeCursor(query.cursor);
      await writer.flush();
      await expireDue(accountId);
      const limit = query.limit ?? 50;
      const rows = await deps.repo.list(accountId, { ...query, after, limit: limit + 1 });
      const page = rows.slice(0, limit);
      return {
        evaluations: page.map(toView),
        next_cursor: rows.length > limit ? encodeCursor(page.at(-1)!) : null,
      };
    },

    /** Expires every escalation past its time; run periodically. */
    expireDue,
  };
}

export type JudgmentService = ReturnType<typeof createJudgmentService>;
