import { sql } from 'kysely';
import type { Db } from '../../../db/database.ts';
import { AccountCache, DEFAULT_CACHE_LIMITS } from './account-cache.ts';
import { sparseScanIndex } from './sparse-scan.ts';
import type { NearestHit, VectorIndex } from './vector-port.ts';
import { bytesToVector, dot } from './vectors.ts';

export type { NearestHit, VectorIndex } from './vector-port.ts';

const SQLITE_VEC_TABLE = 'claim_vec';

/** sqlite-vec `vec0` table partitioned by account: a scan touches only the caller's vectors. */
export function sqliteVecIndex(db: Db): VectorIndex {
  return {
    kind: 'sqlite-vec',
    async init(dimension) {
      await sql
        .raw(
          `create virtual table if not exists ${SQLITE_VEC_TABLE} using vec0(account_id text partition key, embedding float[${dimension}] distance_metric=cosine)`,
        )
        .execute(db.kysely);
      // The index follows `claim_vectors`: deleting an account's vectors empties (and drops) its chunks.
      await sql
        .raw(
          `create trigger if not exists claim_vectors_after_delete after delete on claim_vectors begin delete from ${SQLITE_VEC_TABLE} where rowid = old.rowkey; end`,
        )
        .execute(db.kysely);
    },
    async add(trx, items) {
      for (const item of items) {
        await sql`insert into claim_vec (rowid, account_id, embedding) values (${BigInt(item.rowkey)}, ${item.accountId}, ${Buffer.from(item.vector.buffer, item.vector.byteOffset, item.vector.byteLength)})`.execute(
          trx,
        );
      }
    },
    async remove(trx, rowkeys) {
      for (const rowkey of rowkeys)
        await sql`delete from claim_vec where rowid = ${BigInt(rowkey)}`.execute(trx);
    },
    async nearest(accountId, query, k, atLeast = Number.NEGATIVE_INFINITY) {
      const rows = await sql<{ rowid: number; distance: number }>`
        select rowid, distance from claim_vec
        where embedding match ${Buffer.from(query.buffer, query.byteOffset, query.byteLength)} and k = ${k} and account_id = ${accountId}
        order by distance`.execute(db.kysely);
      return rows.rows
        .map((r) => ({ rowkey: Number(r.rowid), cosine: 1 - r.distance }))
        .filter((h) => h.cosine >= atLeast);
    },
    async reset() {
      await sql.raw('drop trigger if exists claim_vectors_after_delete').execute(db.kysely);
      await sql.raw(`drop table if exists ${SQLITE_VEC_TABLE}`).execute(db.kysely);
    },
  };
}

function pgVectorLiteral(v: Float32Array): string {
  return `[${Array.from(v).join(',')}]`;
}

/** pgvector where the server has the extension: exact scan in the database (`<=>`, no ANN index). */
export function pgVectorIndex(db: Db): VectorIndex {
  return {
    kind: 'pgvector',
    async init(dimension) {
      await sql`create extension if not exists vector`.execute(db.kysely);
      await sql
        .raw(
          `create table if not exists claim_vec_pg (rowkey bigint primary key, account_id text not null, embedding vector(${dimension}) not null)`,
        )
        .execute(db.kysely);
      await sql
        .raw('create index if not exists claim_vec_pg_account_idx on claim_vec_pg (account_id)')
        .execute(db.kysely);
    },
    async add(trx, items) {
      if (items.length === 0) return;
      const values = items.map(
        (i) => sql`(${i.rowkey}, ${i.accountId}, ${pgVectorLiteral(i.vector)}::vector)`,
      );
      await sql`insert into claim_vec_pg (rowkey, account_id, embedding) values ${sql.join(values)}`.execute(
        trx,
      );
    },
    async remove(trx, rowkeys) {
      if (rowkeys.length === 0) return;
      await sql`delete from claim_vec_pg where rowkey in (${sql.join(rowkeys.map((r) => sql`${r}`))})`.execute(
        trx,
      );
    },
    async nearest(accountId, query, k, atLeast = Number.NEGATIVE_INFINITY) {
      const rows = await sql<{ rowkey: string | number; distance: number }>`
        select rowkey, embedding <=> ${pgVectorLiteral(query)}::vector as distance from claim_vec_pg
        where account_id = ${accountId} order by distance, rowkey limit ${k}`.execute(db.kysely);
      return rows.rows
        .map((r) => ({ rowkey: Number(r.rowkey), cosine: 1 - Number(r.distance) }))
        .filter((h) => h.cosine >= atLeast);
    },
    async reset() {
      await sql`drop trigger if exists claim_vectors_after_delete on claim_vectors`.execute(db.kysely);
      await sql`drop table if exists claim_vec_pg`.execute(db.kysely);
    },
  };
}

interface AccountVectors {
  /** `ledger_heads.seq` when loaded: any write to the account's ledger changes it. */
  seq: number;
  rowkeys: number[];
  vectors: Float32Array[];
}

/**
 * Exact scan in process over `claim_vectors`, for PostgreSQL servers without pgvector. An
 * account's vectors are cached and reloaded when its ledger head moves, which any instance's
 * write does, so every instance sees every write on its next search.
 */
export function exactScanIndex(
  db: Db,
  options: { maxCachedAccounts?: number; maxCachedBytes?: number } = {},
): VectorIndex {
  const cache = new AccountCache<AccountVectors>(
    (a) => a.rowkeys.length * 8 + a.vectors.reduce((n, v) => n + v.byteLength + 80, 0),
    {
      maxAccounts: options.maxCachedAccounts ?? DEFAULT_CACHE_LIMITS.maxAccounts,
      maxBytes: options.maxCachedBytes ?? DEFAULT_CACHE_LIMITS.maxBytes,
    },
  );

  async function load(accountId: string): Promise<AccountVectors> {
    const head = await db.kysely
      .selectFrom('ledger_heads')
      .select('seq')
      .where('account_id', '=', accountId)
      .executeTakeFirst();
    const seq = Number(head?.seq ?? 0);
    const cached = cache.get(accountId);
    if (cached && cached.seq === seq) return cached;
    const rows = await db.kysely
      .selectFrom('claim_vectors')
      .select(['rowkey', 'embedding'])
      .where('account_id', '=', accountId)
      .orderBy('rowkey')
      .execute();
    const loaded = {
      seq,
      rowkeys: rows.map((r) => Number(r.rowkey)),
      vectors: rows.map((r) => bytesToVector(r.embedding)),
    };
    cache.set(accountId, loaded);
    return loaded;
  }

  return {
    kind: 'exact-scan',
    async init() {},
    async add(_trx, items) {
      for (const i of items) cache.delete(i.accountId);
    },
    async remove() {
      // Removal is seen through the ledger head on the next search.
    },
    async nearest(accountId, query, k, atLeast = Number.NEGATIVE_INFINITY) {
      const { rowkeys, vectors } = await load(accountId);
      const hits: NearestHit[] = [];
      for (let i = 0; i < vectors.length; i++)
        hits.push({ rowkey: rowkeys[i]!, cosine: dot(query, vectors[i]!) });
      hits.sort((a, b) => b.cosine - a.cosine || a.rowkey - b.rowkey);
      return hits.slice(0, k).filter((h) => h.cosine >= atLeast);
    },
    async reset() {
      cache.clear();
    },
    heldBytes: () => cache.heldBytes,
  };
}

/**
 * The best index for the database and the embedder: posting lists for sparse embeddings on either
 * database; for dense ones sqlite-vec on SQLite, pgvector where installed, else an exact scan.
 */
export async function createVectorIndex(
  db: Db,
  embedder: { sparse?: boolean } = {},
  cache: { maxCachedBytes?: number } = {},
): Promise<VectorIndex> {
  if (embedder.sparse) return sparseScanIndex(db, cache);
  if (db.dialect === 'sqlite') return sqliteVecIndex(db);
  const available = await sql<{
    n: number;
  }>`select count(*)::int as n from pg_available_extensions where name = 'vector'`.execute(db.kysely);
  if ((available.rows[0]?.n ?? 0) > 0) {
    try {
      await sql`create extension if not exists vector`.execute(db.kysely);
      return pgVectorIndex(db);
    } catch {
      // Available but not installable by this role: fall through to the exact scan.
    }
  }
  return exactScanIndex(db, cache);
}
