import type { Kysely, Selectable, Transaction } from 'kysely';
import { chainHash, GENESIS_HASH } from '../../db/chain.ts';
import type { ClaimStatus, ClaimsTable, ClaimVersionsTable, Database } from '../../db/schema.ts';
import { bytesToVector, vectorToBytes } from './storage/vectors.ts';

/** A claim as read back: numbers normalised (PostgreSQL returns BIGSERIAL keys as text). */
export type ClaimRow = Selectable<ClaimsTable>;

export interface LedgerHead {
  seq: number;
  state_hash: string;
}

/** What one ledger entry records; its canonical JSON is what the chain hashes. */
export type LedgerEntry =
  | {
      seq: number;
      at: string;
      op: 'store';
      claim_id: string;
      version: number;
      claim: string;
      source: string;
      confidence: number;
    }
  | { seq: number; at: string; op: 'supersede'; claim_id: string; by: string }
  | { seq: number; at: string; op: 'delete'; claim_id: string };

/** An entry before the chain gives it its sequence number. */
export type EntryInput = LedgerEntry extends infer E
  ? E extends LedgerEntry
    ? Omit<E, 'seq'>
    : never
  : never;

const CLAIM_COLUMNS = [
  'rowkey',
  'id',
  'account_id',
  'short_id',
  'claim',
  'normalized',
  'source',
  'confidence',
  'version',
  'status',
  'created_at',
  'updated_at',
] as const;

/** A ledger entry row as stored. */
export interface EntryRow {
  account_id: string;
  seq: number;
  entry: string;
  prev_hash: string;
  state_hash: string;
}

/** A claim version as the table holds it. */
export type VersionRow = ClaimVersionsTable;

/** Chains entries after `head` in memory: the rows to insert, the new head, and each entry's seq. */
export function chainEntries(accountId: string, head: LedgerHead, inputs: readonly EntryInput[]) {
  let { seq, state_hash } = head;
  const seqs: number[] = [];
  const rows: EntryRow[] = [];
  for (const input of inputs) {
    seq += 1;
    const entry = { ...input, seq } as LedgerEntry;
    const next = chainHash(state_hash, entry);
    rows.push({
      account_id: accountId,
      seq,
      entry: JSON.stringify(entry),
      prev_hash: state_hash,
      state_hash: next,
    });
    state_hash = next;
    seqs.push(seq);
  }
  return { head: { seq, state_hash }, seqs, rows };
}

/** Rows per multi-row insert: far below SQLite's (32,766) and PostgreSQL's (65,535) parameter limits. */
function chunks<T>(rows: readonly T[], columns: number): T[][] {
  const size = Math.max(1, Math.floor(8000 / columns));
  const out: T[][] = [];
  for (let i = 0; i < rows.length; i += size) out.push(rows.slice(i, i + size));
  return out;
}

function toClaim(row: Record<string, unknown>): ClaimRow {
  return {
    ...(row as unknown as ClaimRow),
    rowkey: Number(row.rowkey),
    confidence: Number(row.confidence),
    version: Number(row.version),
  };
}

export function createLedgerRepo(db: Kysely<Database>) {
  async function setHead(trx: Transaction<Database>, accountId: string, head: LedgerHead): Promise<void> {
    await trx
      .updateTable('ledger_heads')
      .set({ seq: head.seq, state_hash: head.state_hash })
      .where('account_id', '=', accountId)
      .execute();
  }

  /** The active claims of the account with these normalized texts, the first by rowkey for each. */
  async function activeByNormalized(
    trx: Kysely<Database>,
    accountId: string,
    normalized: readonly string[],
  ): Promise<Map<string, ClaimRow>> {
    const found = new Map<string, ClaimRow>();
    for (const chunk of chunks([...new Set(normalized)], 1)) {
      const rows = await trx
        .selectFrom('claims')
        .select(CLAIM_COLUMNS)
        .where('account_id', '=', accountId)
        .where('normalized', 'in', chunk)
        .where('status', '=', 'active')
        .orderBy('rowkey')
        .execute();
      for (const row of rows) if (!found.has(row.normalized)) found.set(row.normalized, toClaim(row));
    }
    return found;
  }

  return {
    /** Runs `fn` in one transaction of the ledger's database: every write of a store commits or none does. */
    transaction<T>(fn: (trx: Transaction<Database>) => Promise<T>): Promise<T> {
      return db.transaction().execute(fn);
    },

    /**
     * The account's chain head, created at genesis if missing and locked for the rest of `trx`
     * (SQLite writers are already serial): the no-op update takes the row lock on PostgreSQL, as
     * `select … for update` would, in the same statement.
     */
    async lockHead(trx: Transaction<Database>, accountId: string): Promise<LedgerHead> {
      const head = await trx
        .insertInto('ledger_heads')
        .values({ account_id: accountId, seq: 0, state_hash: GENESIS_HASH })
        .onConflict((oc) =>
          oc.column('account_id').doUpdateSet((eb) => ({ seq: eb.ref('ledger_heads.seq') })),
        )
        .returning(['seq', 'state_hash'])
        .executeTakeFirstOrThrow();
      return { seq: Number(head.seq), state_hash: head.state_hash };
    },

    async head(accountId: string): Promise<LedgerHead> {
      const head = await db
        .selectFrom('ledger_heads')
        .select(['seq', 'state_hash'])
        .where('account_id', '=', accountId)
        .executeTakeFirst();
      return head
        ? { seq: Number(head.seq), state_hash: head.state_hash }
        : { seq: 0, state_hash: GENESIS_HASH };
    },

    /** Appends entries after `head` and moves the head; returns the new head and the entries' seqs. */
    async append(
      trx: Transaction<Database>,
      accountId: string,
      head: LedgerHead,
      inputs: readonly EntryInput[],
    ) {
      const chained = chainEntries(accountId, head, inputs);
      for (const row of chained.rows) await trx.insertInto('ledger_entries').values(row).execute();
      await setHead(trx, accountId, chained.head);
      return { head: chained.head, seqs: chained.seqs };
    },

    /** Inserts chained entries, several per statement. */
    async insertEntries(trx: Transaction<Database>, rows: readonly EntryRow[]): Promise<void> {
      for (const chunk of chunks(rows, 5)) await trx.insertInto('ledger_entries').values(chunk).execute();
    },

    setHead,

    async entries(accountId: string, afterSeq: number, limit: number) {
      const rows = await db
        .selectFrom('ledger_entries')
        .selectAll()
        .where('account_id', '=', accountId)
        .where('seq', '>', afterSeq)
        .orderBy('seq')
        .limit(limit)
        .execute();
      return rows.map((r) => ({ ...r, seq: Number(r.seq) }));
    },

    /** Pass `trx` when inside a transaction: SQLite has one connection, and it is the transaction's. */
    async findActiveByNormalized(
      accountId: string,
      normalized: string,
      trx: Kysely<Database> = db,
    ): Promise<ClaimRow | undefined> {
      return (await activeByNormalized(trx, accountId, [normalized])).get(normalized);
    },

    activeByNormalized,

    /** A claim of the account by uuid or short id, whatever its status. */
    async findClaim(accountId: string, ref: string): Promise<ClaimRow | undefined> {
      const row = await db
        .selectFrom('claims')
        .select(CLAIM_COLUMNS)
        .where('account_id', '=', accountId)
        .where((eb) => eb.or([eb('id', '=', ref), eb('short_id', '=', ref)]))
        .executeTakeFirst();
      return row ? toClaim(row) : undefined;
    },

    async activeByRowkeys(accountId: string, rowkeys: readonly number[]): Promise<ClaimRow[]> {
      if (rowkeys.length === 0) return [];
      const rows = await db
        .selectFrom('claims')
        .select(CLAIM_COLUMNS)
        .where('account_id', '=', accountId)
        .where('status', '=', 'active')
        .where('rowkey', 'in', [...rowkeys])
        .execute();
      return rows.map(toClaim);
    },

    /** How many of the account's claims (any status) hold any of `needles` in their text or source. */
    async countMentioning(
      trx: Transaction<Database>,
      accountId: string,
      needles: readonly string[],
    ): Promise<number> {
      if (needles.length === 0) return 0;
      const row = await trx
        .selectFrom('claims')
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .where('account_id', '=', accountId)
        .where((eb) =>
          eb.or(needles.flatMap((n) => [eb('claim', 'like', `%${n}%`), eb('source', 'like', `%${n}%`)])),
        )
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },

    /** The account's most recently written active claims, newest first (a long text's check). */
    async recentActive(accountId: string, limit: number): Promise<ClaimRow[]> {
      const rows = await db
        .selectFrom('claims')
        .select(CLAIM_COLUMNS)
        .where('account_id', '=', accountId)
        .where('status', '=', 'active')
        .orderBy('rowkey', 'desc')
        .limit(limit)
        .execute();
      return rows.map(toClaim);
    },

    /** A page of the account's claims in the order they were first stored, after `afterRowkey`. */
    async listClaims(
      accountId: string,
      filter: {
        afterRowkey: number;
        limit: number;
        statuses: readonly ClaimStatus[];
        source?: string | undefined;
        since?: string | undefined;
      },
    ): Promise<ClaimRow[]> {
      const rows = await db
        .selectFrom('claims')
        .select(CLAIM_COLUMNS)
        .where('account_id', '=', accountId)
        .where('status', 'in', [...filter.statuses])
        .where('rowkey', '>', filter.afterRowkey)
        .$if(filter.source !== undefined, (q) => q.where('source', '=', filter.source!))
        .$if(filter.since !== undefined, (q) => q.where('updated_at', '>=', filter.since!))
        .orderBy('rowkey')
        .limit(filter.limit)
        .execute();
      return rows.map(toClaim);
    },

    async vectorsByRowkeys(rowkeys: readonly number[]): Promise<Map<number, Float32Array>> {
      if (rowkeys.length === 0) return new Map();
      const rows = await db
        .selectFrom('claim_vectors')
        .select(['rowkey', 'embedding'])
        .where('rowkey', 'in', [...rowkeys])
        .execute();
      return new Map(rows.map((r) => [Number(r.rowkey), bytesToVector(r.embedding)]));
    },

    async versions(claimId: string) {
      const rows = await db
        .selectFrom('claim_versions')
        .selectAll()
        .where('claim_id', '=', claimId)
        .orderBy('version')
        .execute();
      return rows.map((r) => ({
        ...r,
        version: Number(r.version),
        confidence: Number(r.confidence),
        ledger_seq: Number(r.ledger_seq),
      }));
    },

    async versionAt(accountId: string, ledgerSeq: number) {
      return db
        .selectFrom('claim_versions')
        .selectAll()
        .where('account_id', '=', accountId)
        .where('ledger_seq', '=', ledgerSeq)
        .executeTakeFirst();
    },

    async insertClaim(trx: Transaction<Database>, row: Omit<ClaimRow, 'rowkey'>): Promise<number> {
      const inserted = await trx
        .insertInto('claims')
        .values(row)
        .returning('rowkey')
        .executeTakeFirstOrThrow();
      return Number(inserted.rowkey);
    },

    async updateClaim(
      trx: Transaction<Database>,
      id: string,
      values: Partial<
        Pick<ClaimRow, 'claim' | 'source' | 'confidence' | 'version' | 'status' | 'updated_at'>
      >,
    ): Promise<void> {
      await trx.updateTable('claims').set(values).where('id', '=', id).execute();
    },

    async insertVersions(trx: Transaction<Database>, rows: readonly VersionRow[]): Promise<void> {
      for (const chunk of chunks(rows, 8)) await trx.insertInto('claim_versions').values(chunk).execute();
    },

    async putVector(
      trx: Transaction<Database>,
      rowkey: number,
      accountId: string,
      vector: Float32Array,
    ): Promise<void> {
      await trx
        .insertInto('claim_vectors')
        .values({ rowkey, account_id: accountId, embedding: vectorToBytes(vector) })
        .onConflict((oc) => oc.column('rowkey').doUpdateSet({ embedding: vectorToBytes(vector) }))
        .execute();
    },

    /** Inserts or replaces vectors, several per statement (each rowkey at most once). */
    async putVectors(
      trx: Transaction<Database>,
      items: ReadonlyArray<{ rowkey: number; accountId: string; vector: Float32Array }>,
    ): Promise<void> {
      for (const chunk of chunks(items, 3)) {
        await trx
          .insertInto('claim_vectors')
          .values(
            chunk.map((i) => ({
              rowkey: i.rowkey,
              account_id: i.accountId,
              embedding: vectorToBytes(i.vector),
            })),
          )
          .onConflict((oc) =>
            oc.column('rowkey').doUpdateSet((eb) => ({ embedding: eb.ref('excluded.embedding') })),
          )
          .execute();
      }
    },

    async deleteVectors(trx: Transaction<Database>, rowkeys: readonly number[]): Promise<void> {
      if (rowkeys.length === 0) return;
      await trx
        .deleteFrom('claim_vectors')
        .where('rowkey', 'in', [...rowkeys])
        .execute();
    },

    /** Empties the stored vectors of every account (a re-index writes them all again). */
    async clearVectors(): Promise<void> {
      await db.deleteFrom('claim_vectors').execute();
    },

    /** The account's scrubbing settings row, if it changed the defaults. */
    piiSettings(accountId: string) {
      return db
        .selectFrom('ledger_settings')
        .select(['phone_region', 'names', 'updated_at'])
        .where('account_id', '=', accountId)
        .executeTakeFirst();
    },

    async savePiiSettings(
      trx: Transaction<Database>,
      row: { account_id: string; phone_region: string; names: string; updated_at: string },
    ): Promise<void> {
      const { account_id: _id, ...changes } = row;
      await trx
        .insertInto('ledger_settings')
        .values(row)
        .onConflict((oc) => oc.column('account_id').doUpdateSet(changes))
        .execute();
    },

    async idempotent(accountId: string, key: string) {
      return db
        .selectFrom('idempotency_keys')
        .selectAll()
        .where('account_id', '=', accountId)
        .where('key', '=', key)
        .executeTakeFirst();
    },

    async rememberIdempotent(
      trx: Transaction<Database>,
      row: {
        account_id: string;
        key: string;
        request_hash: string;
        status_code: number;
        response: string;
        created_at: string;
      },
    ): Promise<void> {
      await trx.insertInto('idempotency_keys').values(row).execute();
    },

    async countActive(accountId?: string): Promise<number> {
      let q = db
        .selectFrom('claims')
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .where('status', '=', 'active');
      if (accountId) q = q.where('account_id', '=', accountId);
      return Number((await q.executeTakeFirstOrThrow()).n);
    },

    /** Every active claim in rowkey order, a page at a time (re-indexing). */
    async activePage(afterRowkey: number, limit: number): Promise<ClaimRow[]> {
      const rows = await db
        .selectFrom('claims')
        .select(CLAIM_COLUMNS)
        .where('status', '=', 'active')
        .where('rowkey', '>', afterRowkey)
        .orderBy('rowkey')
        .limit(limit)
        .execute();
      return rows.map(toClaim);
    },

    async metaGet(key: string): Promise<string | undefined> {
      return (await db.selectFrom('meta').select('value').where('key', '=', key).executeTakeFirst())?.value;
    },

    async metaSet(key: string, value: string): Promise<void> {
      await db
        .insertInto('meta')
        .values({ key, value, updated_at: new Date().toISOString() })
        .onConflict((oc) => oc.column('key').doUpdateSet({ value, updated_at: new Date().toISOString() }))
        .execute();
    },
  };
}

export type LedgerRepo = ReturnType<typeof createLedgerRepo>;
