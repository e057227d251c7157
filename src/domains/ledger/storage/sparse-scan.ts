import type { Db } from '../../../db/database.ts';
import { AccountCache, DEFAULT_CACHE_LIMITS } from './account-cache.ts';
import type { NearestHit, VectorIndex } from './vector-port.ts';
import { bytesToVector } from './vectors.ts';

/**
 * Growable parallel arrays: the claims (by slot) that have a non-zero value in one dimension.
 * Slots are never reused; a replaced or removed claim's slot is only marked dead.
 */
class Posting {
  slots = new Int32Array(8);
  values = new Float32Array(8);
  length = 0;

  push(slot: number, value: number): void {
    if (this.length === this.slots.length) {
      const slots = new Int32Array(this.length * 2);
      slots.set(this.slots);
      this.slots = slots;
      const values = new Float32Array(this.length * 2);
      values.set(this.values);
      this.values = values;
    }
    this.slots[this.length] = slot;
    this.values[this.length] = value;
    this.length++;
  }
}

/** Growable arrays, doubled when full. */
function grown<T extends Float32Array | Float64Array | Int32Array | Uint16Array>(
  array: T,
  needed: number,
  make: (length: number) => T,
): T {
  if (needed <= array.length) return array;
  const next = make(Math.max(needed, array.length * 2));
  next.set(array);
  return next;
}

/**
 * Slots per requested hit below which a plain scan is as fast as the pruned one (measured on the
 * bench:vault claims: the pruned scan wins from ~20k slots for k = 10, ~1.4× at 50k, ~1.8× at 100k).
 */
const PRUNE_FROM_SLOTS_PER_HIT = 2000;
/** Share of the query's squared norm whose posting lists the pruned scan reads in full. */
const PRUNE_MASS = 0.8;
/** Claims beyond k with the best partial scores scored exactly first, to set the bar the rest must reach. */
const SEED_CLAIMS = 8;
/**
 * The slots' components are kept in chunks of this many entries (128 KB of dimensions and 256 KB
 * of values), each slot's wholly in one chunk. One array doubled as the account grew would, at
 * 100k claims, copy tens of MB at a time and hold up to twice what it uses; chunks are allocated
 * once and filled. Only the first grows, doubling from small, so that small accounts stay small.
 * A slot has at most one component per dimension, and dimensions fit in 16 bits, so it fits.
 */
const CHUNK_BITS = 16;
const CHUNK_ENTRIES = 1 << CHUNK_BITS;
const CHUNK_MASK = CHUNK_ENTRIES - 1;
const FIRST_CHUNK_ENTRIES = 1024;

/** Slack for rounding in the bounds (scores are sums of at most a few hundred products ≤ 1). */
const BOUND_MARGIN = 1e-9;

/**
 * One account's vectors: a posting list per dimension (claims by slot, with their value), and
 * each slot's own non-zero components in ascending dimension (to score one claim exactly).
 */
export class AccountPostings {
  /** Rowkey per slot; -1 once the slot is dead. */
  rowkeys: number[] = [];
  readonly slotOf = new Map<number, number>();
  readonly postings = new Map<number, Posting>();
  dead = 0;
  /**
   * Slot s's components are at positions `starts[s]` to `ends[s]`: position p is entry
   * `p & CHUNK_MASK` of chunk `p >>> CHUNK_BITS` in `dimChunks` / `valueChunks`.
   */
  private starts = new Int32Array(64);
  private ends = new Int32Array(64);
  private readonly dimChunks: Uint16Array[] = [];
  private readonly valueChunks: Float32Array[] = [];
  /** The next free position. */
  private entries = 0;
  /** Squared norm of each slot's vector, and the largest of them. */
  private norms = new Float64Array(64);
  private maxNorm = 0;
  /** Per-query scratch (reused: one query runs at a time, synchronously). */
  private sums = new Float64Array(0);

  constructor(
    /** Ledger head when last brought up to date: every write to the account's claims moves it. */
    public seq = 0,
    public stateHash = '',
    /** Slots per requested hit from which `nearest` prunes (tests set 0 to always prune). */
    private readonly pruneFromSlotsPerHit = PRUNE_FROM_SLOTS_PER_HIT,
  ) {}

  put(rowkey: number, vector: Float32Array): void {
    this.kill(rowkey);
    const slot = this.rowkeys.length;
    this.rowkeys.push(rowkey);
    this.slotOf.set(rowkey, slot);
    this.starts = grown(this.starts, slot + 1, (n) => new Int32Array(n));
    this.ends = grown(this.ends, slot + 1, (n) => new Int32Array(n));
    this.norms = grown(this.norms, slot + 1, (n) => new Float64Array(n));
    let count = 0;
    for (let d = 0; d < vector.length; d++) if (vector[d] !== 0) count++;
    const start = this.reserve(count);
    const dims = this.dimChunks[start >>> CHUNK_BITS];
    const values = this.valueChunks[start >>> CHUNK_BITS];
    let at = start & CHUNK_MASK;
    let norm = 0;
    for (let d = 0; d < vector.length; d++) {
      const value = vector[d]!;
      if (value === 0) continue;
      let posting = this.postings.get(d);
      if (!posting) {
        posting = new Posting();
        this.postings.set(d, posting);
      }
      posting.push(slot, value);
      dims![at] = d;
      values![at] = value;
      at++;
      norm += value * value;
    }
    this.starts[slot] = start;
    this.ends[slot] = this.entries = start + count;
    this.norms[slot] = norm;
    if (norm > this.maxNorm) this.maxNorm = norm;
  }

  /** Room for `count` components in one chunk: the position of the first. */
  private reserve(count: number): number {
    let chunk = this.entries >>> CHUNK_BITS;
    let offset = this.entries & CHUNK_MASK;
    if (offset + count > CHUNK_ENTRIES) {
      chunk++;
      offset = 0;
    }
    const needed = offset + count;
    if (chunk === this.dimChunks.length) {
      const size = chunk === 0 ? Math.max(FIRST_CHUNK_ENTRIES, needed) : CHUNK_ENTRIES;
      this.dimChunks.push(new Uint16Array(size));
      this.valueChunks.push(new Float32Array(size));
    } else if (this.dimChunks[chunk]!.length < needed) {
      // Only the first chunk is ever short of a whole one.
      const size = Math.min(CHUNK_ENTRIES, Math.max(needed, this.dimChunks[chunk]!.length * 2));
      this.dimChunks[chunk] = grown(this.dimChunks[chunk]!, size, (n) => new Uint16Array(n));
      this.valueChunks[chunk] = grown(this.valueChunks[chunk]!, size, (n) => new Float32Array(n));
    }
    return chunk * CHUNK_ENTRIES + offset;
  }

  /**
   * What this account holds: its typed arrays, plus an estimate for the JavaScript structures
   * (8 bytes per slot in `rowkeys`, ~50 per entry in `slotOf`, ~100 per posting list).
   */
  heldBytes(): number {
    let bytes =
      this.starts.byteLength +
      this.ends.byteLength +
      this.norms.byteLength +
      this.sums.byteLength +
      this.rowkeys.length * 8 +
      this.slotOf.size * 50;
    for (const chunk of this.dimChunks) bytes += chunk.byteLength;
    for (const chunk of this.valueChunks) bytes += chunk.byteLength;
    for (const p of this.postings.values()) bytes += p.slots.byteLength + p.values.byteLength + 100;
    return bytes;
  }

  kill(rowkey: number): void {
    const slot = this.slotOf.get(rowkey);
    if (slot === undefined) return;
    this.rowkeys[slot] = -1;
    this.slotOf.delete(rowkey);
    this.dead++;
  }

  /**
   * The `k` live claims with the highest cosine (ties by rowkey), only those with cosine ≥
   * `atLeast`: exactly what scoring every claim returns, down to the last bit.
   */
  nearest(query: Float32Array, k: number, atLeast = Number.NEGATIVE_INFINITY): NearestHit[] {
    if (k <= 0) return [];
    // Only behind a gate: a search's k-th best (questions, unrelated queries) is too low to prune
    // on, and the pruned scan then costs up to 3× the plain one.
    return atLeast > 0 && this.rowkeys.length >= this.pruneFromSlotsPerHit * k
      ? (this.pruned(query, k, atLeast) ?? this.scanAll(query, k, atLeast))
      : this.scanAll(query, k, atLeast);
  }

  /** Every posting list of the query, summed per claim. */
  scanAll(query: Float32Array, k: number, atLeast = Number.NEGATIVE_INFINITY): NearestHit[] {
    const n = this.rowkeys.length;
    const scores = this.scratch(n).fill(0, 0, n);
    // Ascending dimensions, like `dot()`: the same additions in the same order.
    for (let d = 0; d < query.length; d++) {
      const q = query[d]!;
      if (q === 0) continue;
      const posting = this.postings.get(d);
      if (!posting) continue;
      const { slots, values, length } = posting;
      for (let i = 0; i < length; i++) scores[slots[i]!]! += q * values[i]!;
    }
    return topK(this.rowkeys, scores, k, atLeast);
  }

  /**
   * The per-query scratch, at least `length` long: grown, never shrunk, and reused by every query
   * (one runs at a time). A fresh array per query was 8 bytes per claim of garbage each time, and
   * past glibc's mmap threshold each one a native allocation and free.
   */
  private scratch(length: number): Float64Array {
    if (this.sums.length < length) this.sums = new Float64Array(Math.max(length, this.sums.length * 2));
    return this.sums;
  }

  /** Scores one claim exactly into `best`; returns the bar (the k-th best once there are k, at least `atLeast`). */
  private consider(
    query: Float32Array,
    slot: number,
    best: NearestHit[],
    k: number,
    atLeast: number,
    bar: number,
  ): number {
    const cosine = this.exact(query, slot);
    if (cosine >= atLeast && insertHit(best, k, this.rowkeys[slot]!, cosine) && best.length === k)
      return Math.max(atLeast, best[k - 1]!.cosine);
    return bar;
  }

  /** One claim's cosine: its components in ascending dimension, the additions `scanAll` makes. */
  private exact(query: Float32Array, slot: number): number {
    const start = this.starts[slot]!;
    const dims = this.dimChunks[start >>> CHUNK_BITS]!;
    const values = this.valueChunks[start >>> CHUNK_BITS]!;
    let s = 0;
    // No test for q = 0: adding a zero product never changes the sum (`dot()` adds them too), and
    // the branch it saves is mispredicted about half the time.
    for (let j = start & CHUNK_MASK, end = j + this.ends[slot]! - start; j < end; j++)
      s += query[dims[j]!]! * values[j]!;
    return s;
  }

  /**
   * Reads only the posting lists holding most of the query's weight (the set E), then scores
   * exactly the claims that could still reach the k-th best score found. For a claim v, with R
   * the query's other dimensions, q·v = q_E·v_E + q_R·v_R ≤ q_E·v_E + ‖q_R‖·‖v_R‖ (Cauchy–Schwarz),
   * and ‖v_R‖² ≤ ‖v‖² − ‖v_E‖²; both E terms are summed from the lists read. A claim whose bound
   * is below the k-th best exact score among those already scored cannot be in the answer. Exact
   * scores use the claim's own components, so the result is the one `scanAll` gives. Undefined
   * when the bound would not prune (too little of the query's weight in E for the bar reached).
   */
  private pruned(query: Float32Array, k: number, atLeast: number): NearestHit[] | undefined {
    const dims: number[] = [];
    let queryNorm = 0;
    for (let d = 0; d < query.length; d++) {
      const q = query[d]!;
      if (q === 0 || !this.postings.has(d)) continue;
      dims.push(d);
      queryNorm += q * q;
    }
    if (dims.length === 0) return this.scanAll(query, k, atLeast);
    // Most weight per posting first.
    const cost = (d: number) => this.postings.get(d)!.length / (query[d]! * query[d]!);
    dims.sort((a, b) => cost(a) - cost(b));

    const n = this.rowkeys.length;
    // Per slot, side by side (one cache line per posting read): the partial score over the lists
    // read, and what is left of the claim's squared norm outside them.
    const sums = this.scratch(2 * n);
    const norms = this.norms;
    for (let slot = 0; slot < n; slot++) {
      sums[2 * slot] = 0;
      sums[2 * slot + 1] = norms[slot]!;
    }
    let readNorm = 0;
    let read = 0;
    while (read < dims.length && readNorm < PRUNE_MASS * queryNorm) {
      const d = dims[read++]!;
      const q = query[d]!;
      const { slots, values, length } = this.postings.get(d)!;
      for (let i = 0; i < length; i++) {
        const at = 2 * slots[i]!;
        const v = values[i]!;
        sums[at]! += q * v;
        sums[at + 1]! -= v * v;
      }
      readNorm += q * q;
    }
    const rest = read === dims.length ? 0 : Math.max(0, queryNorm - readNorm);

    const rowkeys = this.rowkeys;
    const best: NearestHit[] = [];
    // Seed the bar with the claims of highest partial score.
    const seeds = k + SEED_CLAIMS;
    const seedSlots = new Int32Array(seeds);
    const seedScores = new Float64Array(seeds);
    let seeded = 0;
    for (let slot = 0; slot < n; slot++) {
      const p = sums[2 * slot]!;
      if (seeded === seeds && p <= seedScores[seeds - 1]!) continue;
      if (rowkeys[slot]! < 0) continue;
      if (seeded === seeds) seeded--;
      let at = seeded++;
      while (at > 0 && seedScores[at - 1]! < p) {
        seedScores[at] = seedScores[at - 1]!;
        seedSlots[at] = seedSlots[at - 1]!;
        at--;
      }
      seedScores[at] = p;
      seedSlots[at] = slot;
    }
    let bar = atLeast;
    for (let i = 0; i < seeded; i++) {
      const slot = seedSlots[i]!;
      bar = this.consider(query, slot, best, k, atLeast, bar);
      // Scored already: the pass below must not score it again.
      sums[2 * slot] = Number.POSITIVE_INFINITY;
    }
    // Claims outside every list read can reach at most ‖q_R‖·max‖v‖: give up if that clears the bar.
    if (Math.sqrt(rest * this.maxNorm) + BOUND_MARGIN >= bar) return undefined;

    for (let slot = 0; slot < n; slot++) {
      const gap = bar - BOUND_MARGIN - sums[2 * slot]!;
      // Skip when partial + sqrt(rest · ‖v_R‖²) < bar (the small addend covers rounding in ‖v_R‖²);
      // a seed's gap is −∞.
      if (gap > 0 && gap * gap > rest * (sums[2 * slot + 1]! + BOUND_MARGIN)) continue;
      if (gap === Number.NEGATIVE_INFINITY || rowkeys[slot]! < 0) continue;
      bar = this.consider(query, slot, best, k, atLeast, bar);
    }
    return best;
  }
}

/** Inserts a hit into `best` (highest cosine first, ties by rowkey, at most k); false when it does not make it. */
function insertHit(best: NearestHit[], k: number, rowkey: number, cosine: number): boolean {
  if (best.length === k) {
    const last = best[k - 1]!;
    if (cosine < last.cosine || (cosine === last.cosine && rowkey > last.rowkey)) return false;
    best.pop();
  }
  const hit = { rowkey, cosine };
  let at = best.length;
  best.push(hit);
  while (at > 0) {
    const above = best[at - 1]!;
    if (above.cosine > cosine || (above.cosine === cosine && above.rowkey < rowkey)) break;
    best[at] = above;
    at--;
  }
  best[at] = hit;
  return true;
}

/** More changes than this since the cached head: reloading the account is cheaper than replaying them. */
const MAX_REPLAYED_ENTRIES = 2000;

/**
 * Exact k-NN for sparse embeddings (the `hash` embedder sets ~50-80 of 512 components), in
 * process, on either database. Each account's vectors are held as one posting list per dimension,
 * so a query only touches the claims that share a non-zero dimension with it: at 100k claims,
 * 4-6 ms per query where sqlite-vec's dense scan (every component of every vector) took 75 ms,
 * and ~2.5 ms for conflict candidates in large accounts, which read only the lists holding most
 * of the query's weight (see `AccountPostings.pruned`). Scores are the same double-precision sums, in the same dimension
 * order, as `dot()` over `claim_vectors`, so results are bit-identical to a brute-force scan.
 *
 * `claim_vectors` stays the system of record and the ledger says what changed: when an account's
 * ledger head has moved, the entries since the cached head name the claims to re-read, so every
 * instance sees every instance's writes on its next query without re-reading the account.
 */
export function sparseScanIndex(
  db: Db,
  options: { maxCachedAccounts?: number; maxCachedBytes?: number } = {},
): VectorIndex {
  const cache = new AccountCache<AccountPostings>((a) => a.heldBytes(), {
    maxAccounts: options.maxCachedAccounts ?? DEFAULT_CACHE_LIMITS.maxAccounts,
    maxBytes: options.maxCachedBytes ?? DEFAULT_CACHE_LIMITS.maxBytes,
  });

  async function loadAll(accountId: string, seq: number, stateHash: string): Promise<AccountPostings> {
    const account = new AccountPostings(seq, stateHash);
    const rows = await db.kysely
      .selectFrom('claim_vectors')
      .select(['rowkey', 'embedding'])
      .where('account_id', '=', accountId)
      .orderBy('rowkey')
      .execute();
    for (const r of rows) account.put(Number(r.rowkey), bytesToVector(r.embedding));
    return account;
  }

  /** Re-reads the claims named by the entries after the cached head; false when it cannot. */
  async function replay(accountId: string, account: AccountPostings, seq: number): Promise<boolean> {
    const from = account.seq;
    if (seq - from > MAX_REPLAYED_ENTRIES) return false;
    const entries = await db.kysely
      .selectFrom('ledger_entries')
      .select(['seq', 'entry', 'state_hash'])
      .where('account_id', '=', accountId)
      .where('seq', '>=', from)
      .where('seq', '<=', seq)
      .orderBy('seq')
      .execute();
    // The cached head must still be in the chain (an erased and re-filled account starts over).
    const anchored = from === 0 || entries[0]?.state_hash === account.stateHash;
    const last = entries[entries.length - 1];
    if (!anchored || !last || entries.length !== seq - from + (from === 0 ? 0 : 1)) return false;
    const changed = entries
      .filter((e) => Number(e.seq) > from)
      .map((e) => (JSON.parse(e.entry) as { claim_id: string }).claim_id);
    const rows = await db.kysely
      .selectFrom('claims')
      .leftJoin('claim_vectors', 'claim_vectors.rowkey', 'claims.rowkey')
      .select(['claims.rowkey as rowkey', 'claim_vectors.embedding as embedding'])
      .where('claims.account_id', '=', accountId)
      .where('claims.id', 'in', [...new Set(changed)])
      .execute();
    for (const r of rows) {
      if (r.embedding) account.put(Number(r.rowkey), bytesToVector(r.embedding));
      else account.kill(Number(r.rowkey));
    }
    account.seq = seq;
    account.stateHash = last.state_hash;
    return true;
  }

  async function refresh(accountId: string): Promise<AccountPostings> {
    const head = await db.kysely
      .selectFrom('ledger_heads')
      .select(['seq', 'state_hash'])
      .where('account_id', '=', accountId)
      .executeTakeFirst();
    const seq = Number(head?.seq ?? 0);
    const stateHash = head?.state_hash ?? '';
    let account = cache.get(accountId);
    if (account && account.seq === seq && account.stateHash === stateHash) return account;
    const replayed = account && seq > account.seq && (await replay(accountId, account, seq));
    // Dead slots still cost a skip per posting entry: compact by reloading once half are dead.
    if (!replayed || account!.dead > account!.rowkeys.length / 2) {
      account = await loadAll(accountId, seq, stateHash);
    }
    cache.set(accountId, account!);
    return account!;
  }

  /** One refresh per account at a time: concurrent queries must not replay into the same lists. */
  const refreshing = new Map<string, Promise<AccountPostings>>();
  async function current(accountId: string): Promise<AccountPostings> {
    const before = refreshing.get(accountId);
    const next = (before ?? Promise.resolve()).catch(() => undefined).then(() => refresh(accountId));
    refreshing.set(accountId, next);
    try {
      return await next;
    } finally {
      if (refreshing.get(accountId) === next) refreshing.delete(accountId);
    }
  }

  return {
    kind: 'sparse-scan',
    async init() {},
    // Writes are learnt from the ledger on the next query, committed or not in this process.
    async add() {},
    async remove() {},
    async nearest(accountId, query, k, atLeast) {
      return (await current(accountId)).nearest(query, k, atLeast);
    },
    async nearestMany(accountId, queries, k, atLeast) {
      const account = await current(accountId);
      return queries.map((q) => account.nearest(q, k, atLeast));
    },
    async reset() {
      cache.clear();
    },
    heldBytes: () => cache.heldBytes,
  };
}

/** The k best live slots at or above `atLeast`, highest score first, ties by rowkey (the brute-force order). */
function topK(rowkeys: readonly number[], scores: Float64Array, k: number, atLeast: number): NearestHit[] {
  const best: NearestHit[] = [];
  if (k <= 0) return best;
  for (let slot = 0; slot < rowkeys.length; slot++) {
    const rowkey = rowkeys[slot]!;
    if (rowkey < 0) continue;
    const cosine = scores[slot]!;
    if (cosine < atLeast) continue;
    // Most slots lose to the current k-th: decide that before allocating (100k objects per query
    // showed up as garbage-collection pauses in the search p95).
    if (best.length === k) {
      const last = best[k - 1]!;
      if (cosine < last.cosine || (cosine === last.cosine && rowkey > last.rowkey)) continue;
    }
    insertHit(best, k, rowkey, cosine);
  }
  return best;
}
