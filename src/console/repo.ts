import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { EvaluationRow } from '../domains/judgment/index.ts';

/** How many of an account's latest verdicts the verdict page and the per-code counts read at most. */
export const VERDICT_WINDOW = 1000;
/**
 * How far back the listings that filter on JSON text look: the latest this many evaluations (a
 * gate-code filter), ledger entries (supersessions) and audit entries (claims kept despite a
 * conflict). Each is then a bounded index range, whatever the account's size.
 */
export const SCAN_WINDOW = 2000;

export interface EvaluationQuery {
  decision?: string | undefined;
  status?: string | undefined;
  action?: string | undefined;
  /** A code one of the gates gave (gates are stored as JSON text). */
  code?: string | undefined;
  /** Rows strictly older than this (created_at, id) position. */
  before?: { createdAt: string; id: string } | undefined;
  limit: number;
}

/** A claim as a mark or a conflict names it. */
export interface ClaimRef {
  id: string;
  short_id: string;
  claim: string;
  status: string;
}

/** Key id → key name, for one account. */
export type KeyNames = ReadonlyMap<string, string>;

export interface VerdictEntry {
  seq: number;
  at: string;
  actor: string;
  action: string;
  code: string;
  decision: 'allowed' | 'rejected';
}

/**
 * The listings the console shows that the domains' own repositories do not offer: read-only, each
 * bounded by a limit, each scoped to one account by its first condition.
 */
export function createConsoleRepo(db: Kysely<Database>) {
  /** `claim.stored` entries that recorded a conflict, among the latest audit entries, newest first. */
  async function conflictEntries(accountId: string, limit: number) {
    const head = await db
      .selectFrom('audit_heads')
      .select('seq')
      .where('account_id', '=', accountId)
      .executeTakeFirst();
    const entries = await db
      .selectFrom('audit_log')
      .select(['at', 'target', 'details'])
      .where('account_id', '=', accountId)
      .where('seq', '>', Number(head?.seq ?? 0) - SCAN_WINDOW)
      .where('action', '=', 'claim.stored')
      // Counts are written without leading zeros, so this is "conflicts is not 0".
      .where('details', 'not like', '%"conflicts":0%')
      .orderBy('seq', 'desc')
      .limit(limit)
      .execute();
    return entries.map((e) => {
      const details = JSON.parse(e.details) as {
        conflicts?: unknown;
        version?: unknown;
        contradicts?: unknown;
      };
      return {
        at: e.at,
        claimId: e.target ?? '',
        conflicts: typeof details.conflicts === 'number' ? details.conflicts : 0,
        version: typeof details.version === 'number' ? details.version : null,
        contradicts: Array.isArray(details.contradicts)
          ? details.contradicts.filter((id): id is string => typeof id === 'string')
          : [],
      };
    });
  }

  async function claimsById(accountId: string, ids: readonly string[]): Promise<Map<string, ClaimRef>> {
    const unique = [...new Set(ids)].filter((id) => id !== '');
    if (unique.length === 0) return new Map();
    const rows = await db
      .selectFrom('claims')
      .select(['id', 'short_id', 'claim', 'status'])
      .where('account_id', '=', accountId)
      .where('id', 'in', unique)
      .execute();
    return new Map(rows.map((r) => [r.id, r]));
  }

  return {
    /** The names of the account's keys, revoked ones included, by id: pages show names, not ids. */
    async keyNames(accountId: string): Promise<KeyNames> {
      const rows = await db
        .selectFrom('api_keys')
        .select(['id', 'name'])
        .where('account_id', '=', accountId)
        .execute();
      return new Map(rows.map((r) => [r.id, r.name]));
    },

    /** One of the account's checkouts, as a returning checkout asks how it ended. */
    async checkout(accountId: string, id: string) {
      return db
        .selectFrom('checkout_sessions')
        .select(['id', 'plan', 'status'])
        .where('account_id', '=', accountId)
        .where('id', '=', id)
        .executeTakeFirst();
    },

    async evaluations(accountId: string, q: EvaluationQuery): Promise<EvaluationRow[]> {
      let query = db.selectFrom('judgment_evaluations').selectAll().where('account_id', '=', accountId);
      if (q.decision !== undefined) query = query.where('decision', '=', q.decision);
      if (q.status !== undefined) query = query.where('status', '=', q.status);
      if (q.action !== undefined) query = query.where('action_type', '=', q.action);
      if (q.code !== undefined) {
        // Codes are upper-case words (checked by the caller), so they hold no LIKE wildcard.
        query = query.where('gates', 'like', `%"code":"${q.code}"%`);
        const edge = await db
          .selectFrom('judgment_evaluations')
          .select('created_at')
          .where('account_id', '=', accountId)
          .orderBy('created_at', 'desc')
          .offset(SCAN_WINDOW - 1)
          .limit(1)
          .executeTakeFirst();
        if (edge !== undefined) query = query.where('created_at', '>=', edge.created_at);
      }
      const before = q.before;
      if (before !== undefined) {
        query = query.where((eb) =>
          eb.or([
            eb('created_at', '<', before.createdAt),
            eb.and([eb('created_at', '=', before.createdAt), eb('id', '<', before.id)]),
          ]),
        );
      }
      const rows = await query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(q.limit).execute();
      return rows.map((r) => ({ ...r, policy_version: Number(r.policy_version) }));
    },

    /** Escalations a human (or the clock) has settled, most recently settled first. */
    async settledEscalations(accountId: string, limit: number): Promise<EvaluationRow[]> {
      const rows = await db
        .selectFrom('judgment_evaluations')
        .selectAll()
        .where('account_id', '=', accountId)
        .where('decision', '=', 'ESCALATE')
        .where('status', 'in', ['approved', 'denied', 'expired'])
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(limit)
        .execute();
      return rows.map((r) => ({ ...r, policy_version: Number(r.policy_version) }));
    },

    /**
     * Verdicts of `POST /v1/evaluate` as the audit log records them, in audit order (`seq`, unique
     * per account, so pages never overlap or skip): newest first below `before`, or, for the page
     * before, oldest first above `after`.
     */
    async verdicts(
      accountId: string,
      q: { limit: number; before?: number | undefined; after?: number | undefined },
    ): Promise<VerdictEntry[]> {
      let query = db
        .selectFrom('audit_log')
        .select(['seq', 'at', 'actor', 'action', 'details'])
        .where('account_id', '=', accountId)
        .where('action', 'in', ['verdict.evaluated', 'verdict.rejected']);
      if (q.after !== undefined) query = query.where('seq', '>', q.after).orderBy('seq', 'asc');
      else {
        if (q.before !== undefined) query = query.where('seq', '<', q.before);
        query = query.orderBy('seq', 'desc');
      }
      const rows = await query.limit(q.limit).execute();
      return rows.map((r) => {
        const details = JSON.parse(r.details) as { action?: unknown; code?: unknown };
        return {
          seq: Number(r.seq),
          at: r.at,
          actor: r.actor,
          action: typeof details.action === 'string' ? details.action : '',
          code: typeof details.code === 'string' ? details.code : '',
          decision: r.action === 'verdict.rejected' ? 'rejected' : 'allowed',
        };
      });
    },

    /** The account's audit entries, newest first, below `beforeSeq`. */
    async auditPage(accountId: string, beforeSeq: number | undefined, limit: number) {
      let query = db.selectFrom('audit_log').selectAll().where('account_id', '=', accountId);
      if (beforeSeq !== undefined) query = query.where('seq', '<', beforeSeq);
      const rows = await query.orderBy('seq', 'desc').limit(limit).execute();
      return rows.map((r) => ({ ...r, seq: Number(r.seq) }));
    },

    /** Claims of one status, most recently changed first, below the `beforeRowkey` position. */
    async claims(accountId: string, status: string, beforeRowkey: number | undefined, limit: number) {
      let query = db
        .selectFrom('claims')
        .select([
          'rowkey',
          'id',
          'short_id',
          'claim',
          'source',
          'confidence',
          'version',
          'status',
          'updated_at',
        ])
        .where('account_id', '=', accountId)
        .where('status', '=', status as 'active');
      if (beforeRowkey !== undefined) query = query.where('rowkey', '<', beforeRowkey);
      const rows = await query.orderBy('rowkey', 'desc').limit(limit).execute();
      return rows.map((r) => ({
        ...r,
        rowkey: Number(r.rowkey),
        confidence: Number(r.confidence),
        version: Number(r.version),
      }));
    },

    /**
     * Claims the ledger stored although they contradicted stored ones (`on_conflict: keep`), as
     * the latest audit entries record them, newest first, with the claim as it is now and the
     * claims it contradicted (named by entries written since the ledger records their ids).
     */
    async keptConflicts(accountId: string, limit: number) {
      const entries = await conflictEntries(accountId, limit);
      const claims = await claimsById(
        accountId,
        entries.flatMap((e) => [e.claimId, ...e.contradicts]),
      );
      return entries.map((e) => ({
        ...e,
        claim: claims.get(e.claimId),
        contradicted: e.contradicts.flatMap((id) => {
          const c = claims.get(id);
          return c === undefined ? [] : [c];
        }),
      }));
    },

    /**
     * For each of `claimIds`, the active claims it contradicts or is contradicted by, among the
     * conflicts the latest audit entries record: the mark the claim list shows.
     */
    async contradictions(accountId: string, claimIds: readonly string[]) {
      const wanted = new Set(claimIds);
      const pairs = (await conflictEntries(accountId, SCAN_WINDOW)).flatMap((e) =>
        e.contradicts.map((other) => [e.claimId, other] as const),
      );
      const relevant = pairs.filter(([a, b]) => wanted.has(a) || wanted.has(b));
      const claims = await claimsById(accountId, relevant.flat());
      const marks = new Map<string, ClaimRef[]>();
      const mark = (id: string, otherId: string) => {
        const other = claims.get(otherId);
        if (!wanted.has(id) || other === undefined || other.status !== 'active') return;
        const list = marks.get(id) ?? [];
        if (!list.some((c) => c.id === otherId)) list.push(other);
        marks.set(id, list);
      };
      for (const [a, b] of relevant) {
        mark(a, b);
        mark(b, a);
      }
      return marks;
    },

    /**
     * The ledger's recorded conflicts resolved by supersession (a newer claim replaced an older one
     * it contradicted) among its latest entries, newest first, with both claims' texts.
     */
    async supersessions(accountId: string, headSeq: number, limit: number) {
      const entries = await db
        .selectFrom('ledger_entries')
        .select(['seq', 'entry'])
        .where('account_id', '=', accountId)
        .where('seq', '>', headSeq - SCAN_WINDOW)
        .where('entry', 'like', '%"op":"supersede"%')
        .orderBy('seq', 'desc')
        .limit(limit)
        .execute();
      const parsed = entries.map((e) => {
        const entry = JSON.parse(e.entry) as { at: string; claim_id: string; by: string };
        return { seq: Number(e.seq), at: entry.at, claimId: entry.claim_id, by: entry.by };
      });
      const ids = [...new Set(parsed.flatMap((p) => [p.claimId, p.by]))];
      const texts = new Map<string, { short_id: string; claim: string }>();
      if (ids.length > 0) {
        const claims = await db
          .selectFrom('claims')
          .select(['id', 'short_id', 'claim'])
          .where('account_id', '=', accountId)
          .where('id', 'in', ids)
          .execute();
        for (const c of claims) texts.set(c.id, { short_id: c.short_id, claim: c.claim });
      }
      return parsed.map((p) => ({ ...p, old: texts.get(p.claimId), replacement: texts.get(p.by) }));
    },
  };
}

export type ConsoleRepo = ReturnType<typeof createConsoleRepo>;
