import type { Kysely, Transaction } from 'kysely';
import type { DialectName } from '../../db/database.ts';
import { insertRows } from '../../db/insert-rows.ts';
import type { Database, JudgmentEvaluationsTable } from '../../db/schema.ts';
import { storedIds } from '../../db/stored-ids.ts';

export type EvaluationRow = JudgmentEvaluationsTable;

export interface EvaluationFilter {
  decision?: string | undefined;
  status?: string | undefined;
  actor?: string | undefined;
  /** Only evaluations this key asked for. */
  keyId?: string | undefined;
  from?: string | undefined;
  to?: string | undefined;
  /** Rows strictly after this position in the (created_at desc, id desc) order. */
  after?: { createdAt: string; id: string } | undefined;
  limit: number;
}

const numeric = (row: EvaluationRow): EvaluationRow => ({
  ...row,
  policy_version: Number(row.policy_version),
});

const COLUMNS = [
  'id',
  'account_id',
  'key_id',
  'actor',
  'actor_role',
  'action_type',
  'action_kind',
  'impact_scope',
  'decision',
  'status',
  'reason',
  'gates',
  'policy_version',
  'payload_sha256',
  'payload',
  'created_at',
  'expires_at',
  'decided_at',
  'decided_by',
  'comment',
] as const satisfies readonly (keyof EvaluationRow)[];

/** The only place that reads and writes judgment evaluations. */
export function createJudgmentRepo(db: Kysely<Database>, dialect: DialectName) {
  return {
    /** Any number of rows (buffered evaluations arrive in batches of thousands under load). */
    insert(executor: Kysely<Database>, rows: readonly EvaluationRow[]): Promise<void> {
      return insertRows(executor, dialect, 'judgment_evaluations', COLUMNS, rows);
    },

    /** Which of `ids` are stored (a retried batch skips them). */
    storedIds(ids: readonly string[]): Promise<Set<string>> {
      return storedIds(db, 'judgment_evaluations', ids);
    },

    async find(accountId: string, id: string): Promise<EvaluationRow | undefined> {
      const row = await db
        .selectFrom('judgment_evaluations')
        .selectAll()
        .where('id', '=', id)
        .where('account_id', '=', accountId)
        .executeTakeFirst();
      return row && numeric(row);
    },

    async list(accountId: string, f: EvaluationFilter): Promise<EvaluationRow[]> {
      let q = db.selectFrom('judgment_evaluations').selectAll().where('account_id', '=', accountId);
      if (f.decision !== undefined) q = q.where('decision', '=', f.decision);
      if (f.status !== undefined) q = q.where('status', '=', f.status);
      if (f.actor !== undefined) q = q.where('actor', '=', f.actor);
      if (f.keyId !== undefined) q = q.where('key_id', '=', f.keyId);
      if (f.from !== undefined) q = q.where('created_at', '>=', f.from);
      if (f.to !== undefined) q = q.where('created_at', '<', f.to);
      const after = f.after;
      if (after !== undefined) {
        q = q.where((eb) =>
          eb.or([
            eb('created_at', '<', after.createdAt),
            eb.and([eb('created_at', '=', after.createdAt), eb('id', '<', after.id)]),
          ]),
        );
      }
      const rows = await q.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(f.limit).execute();
      return rows.map(numeric);
    },

    /**
     * Moves a pending evaluation to its final status, only if it is still pending and not past
     * its expiry: of two deciders racing, exactly one gets `true`.
     */
    async resolveIn(
      trx: Transaction<Database>,
      accountId: string,
      id: string,
      change: { status: 'approved' | 'denied'; at: string; by: string; comment: string | null },
    ): Promise<boolean> {
      const result = await trx
        .updateTable('judgment_evaluations')
        .set({ status: change.status, decided_at: change.at, decided_by: change.by, comment: change.comment })
        .where('id', '=', id)
        .where('account_id', '=', accountId)
        .where('status', '=', 'pending')
        .where('expires_at', '>', change.at)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },

    /** Pending evaluations whose time ran out, oldest first (optionally of one account). */
    async dueForExpiry(
      at: string,
      limit: number,
      accountId?: string,
    ): Promise<{ id: string; account_id: string }[]> {
      let q = db
        .selectFrom('judgment_evaluations')
        .select(['id', 'account_id'])
        .where('status', '=', 'pending')
        .where('expires_at', '<=', at);
      if (accountId !== undefined) q = q.where('account_id', '=', accountId);
      return q.orderBy('expires_at').limit(limit).execute();
    },

    async expireIn(trx: Transaction<Database>, id: string, at: string): Promise<boolean> {
      const result = await trx
        .updateTable('judgment_evaluations')
        .set({ status: 'expired', decided_at: at, decided_by: 'system' })
        .where('id', '=', id)
        .where('status', '=', 'pending')
        .where('expires_at', '<=', at)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },
  };
}

export type JudgmentRepo = ReturnType<typeof createJudgmentRepo>;
