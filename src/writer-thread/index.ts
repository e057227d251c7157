import { Worker } from 'node:worker_threads';
import type { Config } from '../config.ts';
import type { Refusal } from '../db/write-apart.ts';
import { logThrottle } from '../lib/log-throttle.ts';
import { WORKER_RESOURCE_LIMITS } from '../lib/worker-limits.ts';
import type { JobRunner, WriteJob } from './jobs.ts';

export type { WriteJob } from './jobs.ts';

/**
 * Tests only: where the thread exits (`process.exit`) during its first job, as a crash would:
 * with the job's transaction open, or after it committed and before the answer was sent.
 */
export type WriterCrashPoint = 'before-commit' | 'after-commit';

export interface WriterData {
  database: Config['database'];
  crashAt?: WriterCrashPoint | undefined;
}

export type WriterRequest = { type: 'run'; id: number; job: WriteJob } | { type: 'close' };
export type WriterReply =
  | { type: 'done'; id: number; refused: Refusal[] }
  | { type: 'failed'; id: number; message: string }
  | { type: 'closed' };

interface Waiting {
  job: WriteJob;
  resolve: (refused: Refusal[]) => void;
  reject: (err: unknown) => void;
}

export interface WriterThread {
  /**
   * Runs `job` on the thread; if the thread cannot (its connection failed, or it died), runs it
   * here through `fallback`, on this thread's connection. Resolves once written. A job the
   * thread died in is run again whether or not its commit landed: jobs write each entry once.
   * Resolves with the rows the database refused, which were left out of the job's write.
   */
  run(job: WriteJob): Promise<Refusal[]>;
  /** Finishes the jobs posted so far, then stops the thread. */
  close(): Promise<void>;
}

/**
 * A worker thread with its own connection to the same database, for the batches the hot paths
 * buffer (an audit entry per verdict, an evaluation row per judgment). Hashing, serialising and
 * inserting them cost about as much as answering the request, and a batch held the request loop
 * for tens of milliseconds; here it runs beside it. Writes on both connections take the
 * database's write lock (SQLite's, or the row locks of PostgreSQL), so they interleave safely:
 * the audit chain of an account stays one chain whichever thread appends to it.
 */
export function startWriterThread(
  database: Config['database'],
  fallback: JobRunner,
  log: { error(obj: object, msg: string): void },
  options: { crashAt?: WriterCrashPoint } = {},
): WriterThread {
  // From the sources (tests, scripts) a shim registers the TypeScript loader in the thread; the
  // compiled build starts the compiled worker.
  const script = import.meta.url.endsWith('.ts') ? './entry.js' : './worker.js';
  const worker = new Worker(new URL(script, import.meta.url), {
    workerData: { database, crashAt: options.crashAt } satisfies WriterData,
    // The entry registers its own loader; the parent's flags (a test runner's, say) stay out.
    execArgv: [],
    resourceLimits: WORKER_RESOURCE_LIMITS,
  });
  worker.unref();
  const waiting = new Map<number, Waiting>();
  let nextId = 1;
  let dead = false;
  let closed: (() => void) | undefined;
  // While the database is away every batch fails: one line every 5 s, with how many were not logged.
  const failureReport = logThrottle(5000);

  const runHere = (w: Waiting) => fallback(w.job).then(w.resolve, w.reject);

  const died = (reason: string) => {
    if (dead) return;
    dead = true;
    log.error({ reason, pending: waiting.size }, 'writer thread stopped; writing on the main thread');
    for (const [id, w] of waiting) {
      waiting.delete(id);
      runHere(w);
    }
  };

  worker.on('message', (reply: WriterReply) => {
    if (reply.type === 'closed') {
      closed?.();
      return;
    }
    const w = waiting.get(reply.id);
    if (!w) return;
    waiting.delete(reply.id);
    if (reply.type === 'done') {
      w.resolve(reply.refused);
      return;
    }
    // The thread's connection failed (it was cut, say): this thread's connection may not be.
    const report = failureReport();
    if (report)
      log.error(
        { reason: reply.message, suppressed: report.suppressed },
        'writer thread could not write a batch; writing it on the main thread',
      );
    runHere(w);
  });
  worker.on('error', (err) => died(err.message));
  worker.on('exit', (code) => {
    closed?.();
    if (code !== 0 || waiting.size > 0) died(`exit code ${code}`);
    dead = true;
  });

  return {
    run(job) {
      if (dead) return fallback(job);
      return new Promise<Refusal[]>((resolve, reject) => {
        const id = nextId++;
        waiting.set(id, { job, resolve, reject });
        worker.postMessage({ type: 'run', id, job } satisfies WriterRequest);
      });
    },
    async close() {
      if (dead) return;
      await new Promise<void>((resolve) => {
        closed = resolve;
        worker.postMessage({ type: 'close' } satisfies WriterRequest);
      });
      dead = true;
      await worker.terminate();
    },
  };
}
