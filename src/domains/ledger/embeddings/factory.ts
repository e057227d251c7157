import type { Embedder } from './embedder.ts';
import { HashEmbedder } from './hash.ts';
import { type LocalEmbedderOptions, LocalUseEmbedder } from './local.ts';
import { createOnnxEmbedder } from './onnx.ts';
import { createOpenAiEmbedder, type OpenAiEmbedderOptions } from './openai.ts';

export type EmbedderConfig =
  | ({ kind: 'local' } & LocalEmbedderOptions)
  | { kind: 'hash'; dimension?: number }
  | { kind: 'onnx'; folder: string }
  | ({ kind: 'openai' } & OpenAiEmbedderOptions);

/** The embedder named by the configuration (`ARBITER_EMBEDDER`). */
export async function createEmbedder(config: EmbedderConfig): Promise<Embedder> {
  switch (config.kind) {
    case 'local':
      return new LocalUseEmbedder({ workers: config.workers ?? 1 });
    case 'hash':
      return new HashEmbedder(config.dimension);
    case 'onnx':
      return createOnnxEmbedder(config.folder);
    case 'openai': {
      const { kind: _kind, ...options } = config;
      return createOpenAiEmbedder(options);
    }
  }
}
