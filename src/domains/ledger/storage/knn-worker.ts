/**
 * The body of the k-NN thread: its own read-only connection to the database and its own copy of
 * the index's query side, answering `nearest` for the main thread (see `knn-thread.ts`).
 */
import { getHeapStatistics } from 'node:v8';
import { parentPort, workerData } from 'node:worker_threads';
import { openDatabase } from '../../../db/database.ts';
import type { KnnReply, KnnRequest, KnnThreadData } from './knn-thread.ts';
import { sparseScanIndex } from './sparse-scan.ts';
import { exactScanIndex, type NearestHit, sqliteVecIndex, type VectorIndex } from './vector-index.ts';

const port = parentPort;
if (!port) throw new Error('knn-worker.ts runs only as a worker thread');

const { database, kind, maxCachedBytes } = workerData as KnnThreadData;
const limits = maxCachedBytes === undefined ? {} : { maxCachedBytes };
/**
 * sqlite-vec reads through a memory map. Its scan reads every vector of the account on every query
 * (20 MB at 10k claims of 512 dimensions), which through a 2 MB page cache is copied page by page:
 * 5.9 ms against 3.9 ms mapped, at 10k claims on this machine. The mapped pages count in RSS as
 * file-backed memory, shared with the OS page cache. The sparse index reads only what changed
 * since its last look, so it keeps the plain reads (mapped, each new page read would stay in RSS).
 */
const MMAP_BYTES = 2 ** 30;
const db = openDatabase(database, {
  // Two PostgreSQL connections: one account's (re)load does not hold up another account's query.
  maxConnections: 2,
  readOnly: true,
  ...(kind === 'sqlite-vec' ? { mmapBytes: MMAP_BYTES } : {}),
});
const index: VectorIndex =
  kind === 'sqlite-vec'
    ? sqliteVecIndex(db)
    : kind === 'sparse-scan'
      ? sparseScanIndex(db, limits)
      : exactScanIndex(db, limits);
let reportedBytes = 0;
let reportedMemory = 0;
let memory = 0;
let memoryReadAt = Number.NEGATIVE_INFINITY;
/** The thread's own memory is read at most this often, and reported again once it moved by a step. */
const MEMORY_READ_INTERVAL_MS = 1000;
const MEMORY_REPORT_STEP = 2 ** 20;

port.postMessage({ type: 'ready' } satisfies KnnReply);
port.on('message', async (request: KnnRequest) => {
  if (request.type === 'close') {
    await db.close();
    port.postMessage({ type: 'closed' } satisfies KnnReply);
    port.close();
    return;
  }
  // Queries run as they come, interleaved at their awaits, as they do on the main thread: each
  // index serialises what must be (the sparse index's refresh of an account).
  try {
    const { accountId, queries, k, atLeast } = request;
    let hits: NearestHit[][] = [];
    if (index.nearestMany) hits = await index.nearestMany(accountId, queries, k, atLeast);
    else for (const q of queries) hits.push(await index.nearest(accountId, q, k, atLeast));
    port.postMessage({ type: 'hits', id: request.id, hits } satisfies KnnReply);
    const held = index.heldBytes?.() ?? 0;
    // The heap is read at most once a second, off the path of each query's answer.
    const now = performance.now();
    if (now - memoryReadAt >= MEMORY_READ_INTERVAL_MS) {
      memoryReadAt = now;
      const heap = getHeapStatistics();
      memory = heap.total_heap_size + heap.external_memory;
    }
    if (held !== reportedBytes || Math.abs(memory - reportedMemory) >= MEMORY_REPORT_STEP) {
      reportedBytes = held;
      reportedMemory = memory;
      port.postMessage({ type: 'held', bytes: held, memoryBytes: memory } satisfies KnnReply);
    }
  } catch (err) {
    port.postMessage({
      type: 'failed',
      id: request.id,
      message: err instanceof Error ? err.message : String(err),
    } satisfies KnnReply);
  }
});
