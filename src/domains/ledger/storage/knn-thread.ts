import { Worker } from 'node:worker_threads';
import type { Config } from '../../../config.ts';
import { logThrottle } from '../../../lib/log-throttle.ts';
import { WORKER_RESOURCE_LIMITS } from '../../../lib/worker-limits.ts';
import type { NearestHit, VectorIndex } from './vector-port.ts';

/** The indexes whose queries run in this process: sqlite-vec (synchronous) and the two scans in JS. */
type ThreadedKind = 'sqlite-vec' | 'sparse-scan' | 'exact-scan';

export interface KnnThreadData {
  database: Config['database'];
  kind: ThreadedKind;
  maxCachedBytes: number | undefined;
}

export type KnnRequest =
  | {
      type: 'nearest';
      id: number;
      accountId: string;
      queries: Float32Array[];
      k: number;
      atLeast: number | undefined;
    }
  | { type: 'close' };

export type KnnReply =
  | { type: 'ready' }
  | { type: 'hits'; id: number; hits: NearestHit[][] }
  | { type: 'failed'; id: number; message: string }
  /**
   * The thread's index holds this many bytes of vectors now, and the thread's V8 heap (committed)
   * and external memory come to `memoryBytes` (sent when either changes).
   */
  | { type: 'held'; bytes: number; memoryBytes: number }
  | { type: 'closed' };

/** After the thread dies, queries run on the main thread for this long before it is started again. */
const RESTART_AFTER_MS = 5000;

interface Waiting {
  resolve: (hits: NearestHit[][]) => void;
  reject: (err: unknown) => void;
  /** The same query on the main thread's index. */
  here: () => Promise<NearestHit[][]>;
}

export interface ThreadedVectorIndex extends VectorIndex {
  nearestMany: NonNullable<VectorIndex['nearestMany']>;
  /** Stops the thread (the container closes it before the database). */
  close(): Promise<void>;
  /** Starts the thread if it is not running; resolves once it takes queries (or is known dead). */
  whenReady(): Promise<void>;
  /** The running thread, if any (tests stop it to see the fallback). */
  thread(): Worker | undefined;
}

/**
 * Runs an index's k-NN queries on a worker thread with its own read-only connection, so that a
 * scan never holds the request loop: at 100k claims a dense sqlite-vec scan takes ~75 ms and is
 * synchronous (better-sqlite3), and the sparse and exact scans are JavaScript. Writes (`add`,
 * `remove`, `init`) stay with `inner` inside the caller's transaction; the thread's index is the
 * same code on the same database, so it answers exactly what `inner` would, down to the bit.
 *
 * A committed write is seen by the next query: the thread reads in a snapshot taken after the
 * commit (SQLite WAL, PostgreSQL read committed), and the sparse and exact scans learn writes from
 * the ledger head as every instance does. `reset` (re-index, model change) stops the thread so
 * that the next one starts with nothing cached. Until the thread has opened its connection (it
 * starts on the first query, or at `whenReady`, which `serve` calls), queries run on `inner`
 * here; when it dies they do too (logged), and a new thread is started `RESTART_AFTER_MS` later.
 */
export function queriesOffThread(
  inner: VectorIndex,
  database: Config['database'],
  log: { error(obj: object, msg: string): void },
  options: { restartAfterMs?: number; maxCachedBytes?: number } = {},
): VectorIndex | ThreadedVectorIndex {
  const restartAfterMs = options.restartAfterMs ?? RESTART_AFTER_MS;
  if (inner.kind === 'pgvector') return inner;
  const kind: ThreadedKind = inner.kind;
  let worker: Worker | undefined;
  /** The thread has opened its connection: until then a query is answered here, not kept waiting. */
  let ready = false;
  let readyWaiters: Array<() => void> = [];
  const wakeReadyWaiters = () => {
    for (const wake of readyWaiters) wake();
    readyWaiters = [];
  };
  let restartAt = 0;
  /** What the running thread last reported holding, and its own heap and external memory. */
  let threadBytes = 0;
  let threadMemoryBytes = 0;
  let closed = false;
  let nextId = 1;
  const waiting = new Map<number, Waiting>();
  const failureReport = logThrottle(5000);

  const here = (accountId: string, queries: readonly Float32Array[], k: number, atLeast?: number) =>
    inner.nearestMany
      ? inner.nearestMany(accountId, queries, k, atLeast)
      : Promise.all(queries.map((q) => inner.nearest(accountId, q, k, atLeast)));

  const runHere = (w: Waiting) => w.here().then(w.resolve, w.reject);

  function start(): Worker {
    // From the sources a shim registers the TypeScript loader; the build starts the compiled worker.
    const script = import.meta.url.endsWith('.ts') ? './knn-entry.js' : './knn-worker.js';
    const started = new Worker(new URL(script, import.meta.url), {
      workerData: { database, kind, maxCachedBytes: options.maxCachedBytes } satisfies KnnThreadData,
      // The entry registers its own loader; the parent's flags (a test runner's, say) stay out.
      execArgv: [],
      resourceLimits: WORKER_RESOURCE_LIMITS,
    });
    // Idle, the thread must not keep the process alive; it is referenced while queries wait.
    started.unref();
    const died = (reason: string) => {
      if (worker !== started) return;
      worker = undefined;
      ready = false;
      threadBytes = 0;
      threadMemoryBytes = 0;
      wakeReadyWaiters();
      restartAt = performance.now() + restartAfterMs;
      log.error(
        { reason, pending: waiting.size },
        `k-NN thread stopped; queries run on the main thread, a new thread starts in ${restartAfterMs / 1000} s`,
      );
      for (const [id, w] of waiting) {
        waiting.delete(id);
        runHere(w);
      }
    };
    started.on('message', (reply: KnnReply) => {
      if (reply.type === 'closed') return;
      if (reply.type === 'held') {
        if (worker === started) {
          threadBytes = reply.bytes;
          threadMemoryBytes = reply.memoryBytes;
        }
        return;
      }
      if (reply.type === 'ready') {
        if (worker !== started) return;
        ready = true;
        wakeReadyWaiters();
        // What the scans cached here while the thread started is not read again: let it go.
        if (inner.kind !== 'sqlite-vec') void inner.reset();
        return;
      }
      const w = waiting.get(reply.id);
      if (!w) return;
      waiting.delete(reply.id);
      if (waiting.size === 0) started.unref();
      if (reply.type === 'hits') {
        w.resolve(reply.hits);
        return;
      }
      // The thread's connection failed (a cut PostgreSQL connection, say): this one may not have.
      const report = failureReport();
      if (report)
        log.error(
          { reason: reply.message, suppressed: report.suppressed },
          'k-NN thread could not answer a query; answering it on the main thread',
        );
      runHere(w);
    });
    started.on('error', (err) => died(err.message));
    started.on('exit', (code) => died(`exit code ${code}`));
    return started;
  }

  function nearestMany(
    accountId: string,
    queries: readonly Float32Array[],
    k: number,
    atLeast?: number,
  ): Promise<NearestHit[][]> {
    if (!worker && !closed && performance.now() >= restartAt) worker = start();
    const thread = worker;
    if (!thread || !ready) return here(accountId, queries, k, atLeast);
    return new Promise((resolve, reject) => {
      const id = nextId++;
      waiting.set(id, { resolve, reject, here: () => here(accountId, queries, k, atLeast) });
      thread.ref();
      thread.postMessage({
        type: 'nearest',
        id,
        accountId,
        // A view into a larger buffer would be copied with all of that buffer.
        queries: queries.map((q) => (q.byteLength === q.buffer.byteLength ? q : q.slice())),
        k,
        atLeast,
      } satisfies KnnRequest);
    });
  }

  /** Lets the thread finish what it was asked, then ends it; what was still waiting runs here. */
  async function stop(): Promise<void> {
    const thread = worker;
    if (!thread) return;
    worker = undefined;
    ready = false;
    threadBytes = 0;
    threadMemoryBytes = 0;
    wakeReadyWaiters();
    const exited = new Promise<void>((resolve) => thread.once('exit', () => resolve()));
    thread.postMessage({ type: 'close' } satisfies KnnRequest);
    const timer = setTimeout(() => void thread.terminate(), 2000);
    await exited;
    clearTimeout(timer);
    for (const [id, w] of waiting) {
      waiting.delete(id);
      runHere(w);
    }
  }

  return {
    kind: inner.kind,
    init: (dimension) => inner.init(dimension),
    add: (trx, items) => inner.add(trx, items),
    remove: (trx, rowkeys) => inner.remove(trx, rowkeys),
    async nearest(accountId, query, k, atLeast) {
      return (await nearestMany(accountId, [query], k, atLeast))[0]!;
    },
    nearestMany,
    async reset() {
      await stop();
      await inner.reset();
    },
    async close() {
      closed = true;
      await stop();
    },
    whenReady() {
      if (!worker && !closed) worker = start();
      if (!worker || ready) return Promise.resolve();
      return new Promise<void>((resolve) => readyWaiters.push(resolve));
    },
    thread: () => worker,
    heldBytes: () => threadBytes + (inner.heldBytes?.() ?? 0),
    threadMemoryBytes: () => threadMemoryBytes,
  };
}
