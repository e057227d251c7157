import { Worker } from 'node:worker_threads';
import type { Config } from '../../config.ts';
import type { AuditEvent, AuditRepo } from './repo.ts';

export type WriterRequest = { type: 'append'; id: number; events: AuditEvent[] } | { type: 'close' };
export type WriterReply =
  | { type: 'done'; id: number }
  | { type: 'failed'; id: number; message: string }
  | { type: 'closed' };

/** Where `AuditLog` sends its batches: the repo on this thread, or the writer thread. */
export interface AuditWriter {
  append(events: AuditEvent[]): Promise<void>;
  close(): Promise<void>;
}

export function inThreadWriter(repo: Pick<AuditRepo, 'append'>): AuditWriter {
  return {
    async append(events) {
      await repo.append(events);
    },
    async close() {},
  };
}

/**
 * Appends batches on a worker thread with its own connection to the same database. Both threads
 * chain through the same `audit_heads` row under the database's write lock, so entries appended
 * in a transaction on the main thread and batches appended here form one valid chain.
 *
 * A batch the thread cannot append is appended on the calling thread through `fallback`; if the
 * thread dies, so are the batches it had not confirmed and every later one. Recording slows
 * down; nothing is lost while the calling thread's connection works.
 */
export function threadWriter(
  database: Config['database'],
  fallback: Pick<AuditRepo, 'append'>,
  log: { error(obj: object, msg: string): void },
): AuditWriter {
  const worker = new Worker(new URL('./writer-thread-entry.js', import.meta.url), {
    workerData: { database },
    // The entry registers its own loader; the parent's flags (a test runner's, say) stay out.
    execArgv: [],
  });
  worker.unref();
  const waiting = new Map<
    number,
    { events: AuditEvent[]; resolve: () => void; reject: (err: Error) => void }
  >();
  let nextId = 1;
  let dead = false;
  let closed: (() => void) | undefined;

  const failOver = (reason: string) => {
    if (dead) return;
    dead = true;
    log.error({ reason, pending: waiting.size }, 'audit writer thread stopped; appending on the main thread');
    for (const [id, w] of waiting) {
      waiting.delete(id);
      fallback.append(w.events).then(w.resolve, w.reject);
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
      w.resolve();
      return;
    }
    // The thread's own connection failed (it was cut, say): this thread's connection may not be.
    log.error(
      { reason: reply.message, events: w.events.length },
      'audit writer thread could not append a batch; appending on the main thread',
    );
    fallback.append(w.events).then(() => w.resolve(), w.reject);
  });
  worker.on('error', (err) => failOver(err.message));
  worker.on('exit', (code) => {
    closed?.();
    if (code !== 0 || waiting.size > 0) failOver(`exit code ${code}`);
    dead = true;
  });

  return {
    append(events) {
      if (dead) return fallback.append(events).then(() => undefined);
      return new Promise<void>((resolve, reject) => {
        const id = nextId++;
        waiting.set(id, { events, resolve, reject });
        worker.postMessage({ type: 'append', id, events } satisfies WriterRequest);
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
