import canonicalize from 'canonicalize';
import { type Kysely, sql, type Transaction } from 'kysely';
import { chainHash, chainHashOfCanonical, GENESIS_HASH } from '../../db/chain.ts';
import type { DialectName } from '../../db/database.ts';
import { insertRows } from '../../db/insert-rows.ts';
import type { AuditLogTable, Database } from '../../db/schema.ts';
import { storedIds } from '../../db/stored-ids.ts';
import { timeOrderedId } from '../../lib/time-ordered-id.ts';
import type { EventType } from '../../shared/event-types.ts';

export interface AuditEvent {
  /**
   * The entry's id, when given before the first attempt to write it (`AuditLog.record` does): a
   * batch written again after an attempt whose outcome is unknown (the writer thread died after
   * its commit, say) skips the entries already in the log instead of appending them twice.
   */
  id?: string;
  accountId: string;
  actor: string;
  action: string;
  target?: string | null;
  details?: Record<string, unknown>;
  at?: string;
  /**
   * The webhook event the code that recorded this entry raises with it, queued in the same
   * transaction as the entry (not part of the entry or its hash).
   */
  raises?: { type: EventType; data: Record<string, unknown> };
}

/** An event whose entry id is fixed, so writing it is safe to repeat. */
export type IdentifiedAuditEvent = AuditEvent & { id: string };

export type AuditEntry = Omit<AuditLogTable, 'details'> & { details: Record<string, unknown> };

/** What the hash of an entry covers: everything but the hash itself and the row id. */
function hashedFields(e: Omit<AuditEntry, 'id' | 'hash' | 'prev_hash'>) {
  return {
    account_id: e.account_id,
    seq: e.seq,
    at: e.at,
    actor: e.actor,
    action: e.action,
    target: e.target,
    details: e.details,
  };
}

/**
 * `canonicalize(hashedFields(e))`, written out: the keys in RFC 8785 order, strings as
 * JSON.stringify writes them (which is what RFC 8785 prescribes), only `details` of a free shape.
 * Appending a verdict's entry is on every verdict's account, and the generic form cost half of it.
 * `verify` checks with the generic form, so the two cannot drift apart unnoticed.
 */
export function canonicalEntry(e: Omit<AuditEntry, 'id' | 'hash' | 'prev_hash'>): string {
  const details = canonicalize(e.details);
  if (details === undefined || !Number.isSafeInteger(e.seq))
    throw new TypeError('entry cannot be canonicalised');
  return `{"account_id":${JSON.stringify(e.account_id)},"action":${JSON.stringify(e.action)},"actor":${JSON.stringify(e.actor)},"at":${JSON.stringify(e.at)},"details":${details},"seq":${e.seq},"target":${e.target === null ? 'null' : JSON.stringify(e.target)}}`;
}

const AUDIT_COLUMNS = [
  'id',
  'account_id',
  'seq',
  'at',
  'actor',
  'action',
  'target',
  'details',
  'prev_hash',
  'hash',
] as const;

export function createAuditRepo(db: Kysely<Database>, dialect: DialectName) {
  /** PostgreSQL: one statement per batch, its rows in one JSON parameter (`json_to_recordset`). */
  async function insertBatch(trx: Transaction<Database>, rows: readonly AuditLogTable[]): Promise<void> {
    if (dialect === 'sqlite' || rows.length === 0) {
      await insertRows(trx, dialect, 'audit_log', AUDIT_COLUMNS, rows);
      return;
    }
    const columns = sql.join(AUDIT_COLUMNS.map((c) => sql.ref(c)));
    await sql`insert into audit_log (${columns})
      select ${columns} from json_to_recordset(${JSON.stringify(rows)}::json) as x(id text, account_id text, seq bigint, at text, actor text, action text, target text, details text, prev_hash text, hash text)`.execute(
      trx,
    );
  }

  /** Locks the account's chain head for the rest of the transaction (SQLite writers are already serial). */
  async function lockHead(trx: Transaction<Database>, accountId: string) {
    await trx
      .insertInto('audit_heads')
      .values({ account_id: accountId, seq: 0, hash: GENESIS_HASH })
      .onConflict((oc) => oc.column('account_id').doNothing())
      .execute();
    let q = trx.selectFrom('audit_heads').select(['seq', 'hash']).where('account_id', '=', accountId);
    if (dialect === 'postgres') q = q.forUpdate();
    const head = await q.executeTakeFirstOrThrow();
    return { seq: Number(head.seq), hash: head.hash };
  }

  return {
    /**
     * Appends events inside `trx` (the caller's transaction, so an entry lands exactly when the
     * change it records does), chaining each account's entries in order. Events whose `id` the
     * log already holds are skipped; the entries returned are the ones written.
     */
    async appendIn(trx: Transaction<Database>, events: readonly AuditEvent[]): Promise<AuditEntry[]> {
      const byAccount = new Map<string, AuditEvent[]>();
      for (const e of events) {
        const list = byAccount.get(e.accountId);
        if (list) list.push(e);
        else byAccount.set(e.accountId, [e]);
      }
      const written: AuditEntry[] = [];
      // A fixed lock order keeps two writers touching the same accounts from deadlocking.
      for (const accountId of [...byAccount.keys()].sort()) {
        const head = await lockHead(trx, accountId);
        let { seq, hash } = head;
        const accountEvents = byAccount.get(accountId)!;
        // Read under the head's lock: a write of the same events still committing elsewhere
        // (a dying writer thread's) has finished by now, so its entries are seen.
        const ids = accountEvents.flatMap((e) => (e.id === undefined ? [] : [e.id]));
        const stored = ids.length === 0 ? undefined : await storedIds(trx, 'audit_log', ids);
        const rows: AuditLogTable[] = [];
        for (const e of accountEvents) {
          if (e.id !== undefined && stored?.has(e.id)) continue;
          seq += 1;
          const entry = {
            account_id: accountId,
            seq,
            at: e.at ?? new Date().toISOString(),
            actor: e.actor,
            action: e.action,
            target: e.target ?? null,
            details: e.details ?? {},
          };
          const next = chainHashOfCanonical(hash, canonicalEntry(entry));
          const full: AuditEntry = {
            id: e.id ?? timeOrderedId(Date.parse(entry.at)),
            ...entry,
            prev_hash: hash,
            hash: next,
          };
          written.push(full);
          rows.push({ ...full, details: JSON.stringify(full.details) });
          hash = next;
        }
        if (rows.length === 0) continue;
        await insertBatch(trx, rows);
        await trx.updateTable('audit_heads').set({ seq, hash }).where('account_id', '=', accountId).execute();
      }
      return written;
    },

    append(events: readonly AuditEvent[]): Promise<AuditEntry[]> {
      return db.transaction().execute((trx) => this.appendIn(trx, events));
    },

    /** Entries oldest first, after `afterSeq`, at most `limit`. */
    async list(accountId: string, options: { afterSeq?: number; limit: number }): Promise<AuditEntry[]> {
      const rows = await db
        .selectFrom('audit_log')
        .selectAll()
        .where('account_id', '=', accountId)
        .where('seq', '>', options.afterSeq ?? 0)
        .orderBy('seq')
        .limit(options.limit)
        .execute();
      return rows.map((r) => ({
        ...r,
        seq: Number(r.seq),
        details: JSON.parse(r.details) as Record<string, unknown>,
      }));
    },

    /** Re-walks the account's chain; names the first entry whose link or content does not hold. */
    async verify(
      accountId: string,
    ): Promise<
      | { valid: true; entries: number }
      | { valid: false; entries: number; first_bad_seq: number; first_bad_id: string; reason: string }
    > {
      let previous = GENESIS_HASH;
      let expectedSeq = 1;
      let checked = 0;
      const pageSize = 1000;
      for (;;) {
        const page = await this.list(accountId, { afterSeq: expectedSeq - 1, limit: pageSize });
        for (const e of page) {
          const bad = (reason: string) => ({
            valid: false as const,
            entries: checked,
            first_bad_seq: e.seq,
            first_bad_id: e.id,
            reason,
          });
          if (e.seq !== expectedSeq) return bad(`sequence gap: expected ${expectedSeq}`);
          if (e.prev_hash !== previous) return bad('previous hash does not match the entry before it');
          if (chainHash(previous, hashedFields(e)) !== e.hash) return bad('content does not match its hash');
          previous = e.hash;
          expectedSeq += 1;
          checked += 1;
        }
        if (page.length < pageSize) break;
      }
      const head = await db
        .selectFrom('audit_heads')
        .select(['seq', 'hash'])
        .where('account_id', '=', accountId)
        .executeTakeFirst();
      if (head && (Number(head.seq) !== checked || head.hash !== previous)) {
        return {
          valid: false,
          entries: checked,
          first_bad_seq: checked + 1,
          first_bad_id: '',
          reason: 'entries are missing at the end of the chain',
        };
      }
      return { valid: true, entries: checked };
    },
  };
}

export type AuditRepo = ReturnType<typeof createAuditRepo>;
