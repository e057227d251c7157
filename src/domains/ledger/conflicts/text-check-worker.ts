import { parentPort } from 'node:worker_threads';
import {
  checkPassages,
  type TextCheckJob,
  type TextCheckReply,
  warmTextCheckHere,
} from './text-check-thread.ts';

// One job at a time, in the order they came: a job is bounded by its work budget.
parentPort!.on('message', async (job: TextCheckJob) => {
  let reply: TextCheckReply;
  try {
    reply = { id: job.id, ...(await checkPassages(job.text, job.facts, undefined, job.options)) };
  } catch (err) {
    reply = { id: job.id, error: err instanceof Error ? err.message : String(err) };
  }
  parentPort!.postMessage(reply);
});
warmTextCheckHere();
parentPort!.postMessage({ ready: true });
