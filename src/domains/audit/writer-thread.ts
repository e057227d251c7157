/**
 * The body of the audit writer thread: its own database connection, appending the batches the
 * main thread posts and answering each with done or failed. Hashing, serialising and inserting
 * the entries is the costly part of recording a verdict; here it runs beside the request loop.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { Config } from '../../config.ts';
import { openDatabase } from '../../db/database.ts';
import { createAuditRepo } from './repo.ts';
import type { WriterReply, WriterRequest } from './writer.ts';

const port = parentPort;
if (!port) throw new Error('writer-thread.ts runs only as a worker thread');

const db = openDatabase((workerData as { database: Config['database'] }).database);
const repo = createAuditRepo(db.kysely, db.dialect);

// One batch at a time, in the order posted: the chain of each account is appended in order.
let queue: Promise<void> = Promise.resolve();
port.on('message', (request: WriterRequest) => {
  queue = queue.then(async () => {
    if (request.type === 'close') {
      await db.close();
      port.postMessage({ type: 'closed' } satisfies WriterReply);
      port.close();
      return;
    }
    try {
      await repo.append(request.events);
      port.postMessage({ type: 'done', id: request.id } satisfies WriterReply);
    } catch (err) {
      port.postMessage({
        type: 'failed',
        id: request.id,
        message: err instanceof Error ? err.message : String(err),
      } satisfies WriterReply);
    }
  });
});
