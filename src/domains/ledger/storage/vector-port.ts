/** The k-NN port the ledger searches through; its adapters live in `vector-index.ts` and `sparse-scan.ts`. */
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.ts';

export interface NearestHit {
  rowkey: number;
  cosine: number;
}

/**
 * k-NN over an account's active claims. Every adapter is exact (no approximate index), so all
 * three return what a brute-force scan returns; they differ in where the scan runs.
 * `claim_vectors` is the system of record; an adapter may keep its own copy (vec0, pgvector).
 */
export interface VectorIndex {
  readonly kind: 'sqlite-vec' | 'pgvector' | 'exact-scan' | 'sparse-scan';
  /** Creates the adapter's structures for this dimension (idempotent). */
  init(dimension: number): Promise<void>;
  add(
    trx: Kysely<Database>,
    items: ReadonlyArray<{ rowkey: number; accountId: string; vector: Float32Array }>,
  ): Promise<void>;
  remove(trx: Kysely<Database>, rowkeys: readonly number[]): Promise<void>;
  /** The k nearest; with `atLeast`, the k nearest of those with cosine ≥ it (the k nearest, filtered). */
  nearest(accountId: string, query: Float32Array, k: number, atLeast?: number): Promise<NearestHit[]>;
  /** `nearest` for several queries against one view of the account (one refresh for all). */
  nearestMany?(
    accountId: string,
    queries: readonly Float32Array[],
    k: number,
    atLeast?: number,
  ): Promise<NearestHit[][]>;
  /** Drops the adapter's copy (before a re-index with another model). */
  reset(): Promise<void>;
  /** Bytes of vectors the adapter holds in this process (the scans in JavaScript); see `AccountCache`. */
  heldBytes?(): number;
  /** A thread that answers the queries: its V8 heap (committed) and external memory, as it last reported them. */
  threadMemoryBytes?(): number;
}
