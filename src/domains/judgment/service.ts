import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { Static } from 'typebox';
import type { Database } from '../../db/schema.ts';
import type { Refusal } from '../../db/write-apart.ts';
import type { AuditEvent, AuditRepo } from '../audit/index.ts';
import type { PoliciesService } from '../policies/index.ts';
import type { LedgerStatePort, LedgerTextPort, LoopStore } from '../verdict/index.ts';
import { decodeCursor, encodeCursor } from './cursor.ts';
import { createEscalations } from './escalations.ts';
import { createEvaluate } from './evaluate.ts';
import { EvaluationWriter, writeEvaluations } from './evaluation-writer.ts';
import { type JudgmentEvents, NO_EVENTS } from './events.ts';
import type { EvaluationFilter, EvaluationRow, JudgmentRepo } from './repo.ts';
import type { ListResponse } from './schemas.ts';
import type { VerdictSettingsReader } from './verdict-settings.ts';
import { toView } from './views.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * The judgment engine: seven gates over a proposed action (`evaluate.ts`), and the escalation
 * workflow that holds an ESCALATE until a human approves or denies it, or it expires (then it is
 * denied; `escalations.ts`). ALLOWED and BLOCKED evaluations are written in batches
 * (`evaluation-writer.ts`).
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
  /**
   * Where buffered evaluations are written; `writeEvaluations` on `db` unless given. Returns the
   * rows the database refused (see `writeEvaluations`).
   */
  persistEvaluations?: (batch: EvaluationRow[]) => Promise<readonly Refusal[]>;
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

  /** An evaluation of the account: from the writer's buffer until it is written. */
  async function find(accountId: string, id: string): Promise<EvaluationRow | undefined> {
    if (!UUID.test(id)) return undefined;
    const buffered = writer.peek(id);
    if (buffered !== undefined) return buffered.account_id === accountId ? buffered : undefined;
    return deps.repo.find(accountId, id);
  }

  const escalations = createEscalations({
    db: deps.db,
    repo: deps.repo,
    auditRepo: deps.auditRepo,
    events,
    find,
    logger: deps.logger,
    now,
  });

  return {
    /** Starts batched writing and the periodic expiry sweep. */
    start(sweepMs: number): void {
      writer.start();
      escalations.startSweeping(sweepMs);
    },

    /** Writes what is buffered; the periodic work stops. */
    async stop(): Promise<void> {
      escalations.stopSweeping();
      await writer.stop();
    },

    /** Writes buffered evaluations now (tests and benches read the table right after). */
    flush: () => writer.flush(),

    evaluate: createEvaluate({
      policies: deps.policies,
      settings: deps.settings,
      loops: deps.loops,
      audit: deps.audit,
      ledgerState: deps.ledgerState,
      ledgerText: deps.ledgerText,
      escalationTtlMs: deps.escalationTtlMs,
      writer,
      escalations,
      now,
    }),

    get: escalations.get,

    decide: escalations.decide,

    async list(
      accountId: string,
      query: Omit<EvaluationFilter, 'after' | 'limit'> & {
        cursor?: string | undefined;
        limit?: number | undefined;
      },
    ): Promise<Static<typeof ListResponse>> {
      const after = query.cursor === undefined ? undefined : decodeCursor(query.cursor);
      await writer.flush();
      await escalations.expireDue(accountId);
      const limit = query.limit ?? 50;
      const rows = await deps.repo.list(accountId, { ...query, after, limit: limit + 1 });
      const page = rows.slice(0, limit);
      return {
        evaluations: page.map(toView),
        next_cursor: rows.length > limit ? encodeCursor(page.at(-1)!) : null,
      };
    },

    /** Expires every escalation past its time; run periodically. */
    expireDue: escalations.expireDue,
  };
}

export type JudgmentService = ReturnType<typeof createJudgmentService>;
