/**
 * The body of the writer thread: its own database connection, running the jobs the main thread
 * posts, one at a time in the order posted, and answering each with done or failed.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { openDatabase } from '../db/database.ts';
import type { WriterData, WriterReply, WriterRequest } from './index.ts';
import { createJobRunner } from './jobs.ts';

const port = parentPort;
if (!port) throw new Error('worker.ts runs only as a worker thread');

// Jobs run one at a time, so one PostgreSQL connection is all the thread ever uses.
const { database, crashAt } = workerData as WriterData;
const db = openDatabase(database, { maxConnections: 1 });
const crash = () => process.exit(70);
const run = createJobRunner(db, crashAt === 'before-commit' ? crash : undefined);

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
      const refused = await run(request.job);
      if (crashAt === 'after-commit') crash();
      port.postMessage({ type: 'done', id: request.id, refused } satisfies WriterReply);
    } catch (err) {
      port.postMessage({
        type: 'failed',
        id: request.id,
        message: err instanceof Error ? err.message : String(err),
      } satisfies WriterReply);
    }
  });
});
