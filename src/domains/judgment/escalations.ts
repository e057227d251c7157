import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { Database } from '../../db/schema.ts';
import { AppError, Errors } from '../../errors.ts';
import type { AuditRepo } from '../audit/index.ts';
import { eventData, type JudgmentEvents } from './events.ts';
import type { EvaluationRow, JudgmentRepo } from './repo.ts';
import { type EvaluationView, toView } from './views.ts';

const SWEEP_BATCH = 500;

/**
 * The escalation workflow: an ESCALATE is held pending until another key of the account approves
 * or denies it, or its time runs out (then it is expired, which the agent reads as BLOCKED).
 * Expiry is applied by a periodic sweep and on every read, so nobody sees a pending escalation
 * past its time.
 */
export function createEscalations(deps: {
  db: Kysely<Database>;
  repo: Pick<JudgmentRepo, 'insert' | 'find' | 'expireIn' | 'dueForExpiry' | 'resolveIn'>;
  auditRepo: Pick<AuditRepo, 'appendIn'>;
  events: JudgmentEvents;
  /** An evaluation of the account by id, buffered or stored. */
  find(accountId: string, id: string): Promise<EvaluationRow | undefined>;
  logger: Pick<Logger, 'error'>;
  now: () => Date;
}) {
  const { events, now } = deps;

  /** Writes a new escalation with its audit entry and event, before the answer. */
  async function open(row: EvaluationRow, keyId: string, at: Date): Promise<void> {
    await deps.db.transaction().execute(async (trx) => {
      await deps.repo.insert(trx, [row]);
      await deps.auditRepo.appendIn(trx, [
        {
          accountId: row.account_id,
          actor: keyId,
          action: 'action.escalated',
          target: `evaluation:${row.id}`,
          details: {
            action_type: row.action_type,
            actor: row.actor,
            reason: row.reason,
            expires_at: row.expires_at,
          },
          at: row.created_at,
        },
      ]);
      await events.emit(trx, row.account_id, 'action.escalated', eventData(row), at);
    });
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

  /** Expires every escalation past its time (of one account, or of all). */
  async function expireDue(accountId?: string): Promise<number> {
    const at = now();
    let expired = 0;
    for (;;) {
      const due = await deps.repo.dueForExpiry(at.toISOString(), SWEEP_BATCH, accountId);
      for (const row of due) if (await expire(row.id, row.account_id, at)) expired += 1;
      if (due.length < SWEEP_BATCH) return expired;
    }
  }

  /** One evaluation as the account sees it now. */
  /** One evaluation; with `askedBy`, only one that key asked for (an agent key reads its own). */
  async function get(accountId: string, id: string, askedBy?: string): Promise<EvaluationView> {
    let row = await deps.find(accountId, id);
    if (row === undefined || (askedBy !== undefined && row.key_id !== askedBy)) {
      throw Errors.notFound(`Evaluation ${id}`);
    }
    // Expiry applies on read too, so nobody sees a pending escalation past its time.
    if (row.status === 'pending' && row.expires_at !== null && row.expires_at <= now().toISOString()) {
      await expire(row.id, accountId, now());
      row = (await deps.repo.find(accountId, id)) ?? row;
    }
    return toView(row);
  }

  /** Approves or denies a pending escalation, once, with another key than the one that asked. */
  async function decide(
    principal: { accountId: string; keyId: string },
    id: string,
    verdict: 'approved' | 'denied',
    comment: string | undefined,
  ): Promise<EvaluationView> {
    const current = await get(principal.accountId, id);
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
    const after = await get(principal.accountId, id);
    if (!resolved) {
      throw new AppError('CONFLICT', `Evaluation ${id} was already decided: it is ${after.status}`, {
        details: { status: after.status },
      });
    }
    return after;
  }

  let sweeper: NodeJS.Timeout | undefined;

  return {
    open,
    get,
    decide,
    expireDue,

    /** Expires due escalations every `sweepMs`; the timer does not hold the process open. */
    startSweeping(sweepMs: number): void {
      sweeper ??= setInterval(() => {
        expireDue().catch((err: unknown) => deps.logger.error({ err }, 'expiring escalations failed'));
      }, sweepMs);
      sweeper.unref();
    },

    stopSweeping(): void {
      if (sweeper) clearInterval(sweeper);
      sweeper = undefined;
    },
  };
}

export type Escalations = ReturnType<typeof createEscalations>;
