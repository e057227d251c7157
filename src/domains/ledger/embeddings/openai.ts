import { AppError } from '../../../errors.ts';
import type { Embedder } from './embedder.ts';
import { batches, l2Normalize } from './embedder.ts';

/**
 * Any OpenAI-compatible `POST {base}/v1/embeddings` endpoint (OpenAI, Azure, Ollama, vLLM,
 * TEI): how users bring a bigger model. Failures are `UNAVAILABLE` errors naming the endpoint
 * and what went wrong, never a half-filled result.
 */

export interface OpenAiEmbedderOptions {
  /** e.g. `https://api.openai.com` or `http://127.0.0.1:11434`; a trailing `/v1` is accepted. */
  baseUrl: string;
  model: string;
  apiKey?: string;
  /** Known dimension; when absent, `createOpenAiEmbedder` asks the endpoint once. */
  dimension?: number;
  timeoutMs?: number;
  /** Inputs per request; providers cap it (OpenAI: 2048). */
  batchSize?: number;
  fetch?: typeof fetch;
}

const DEFAULT_TIMEOUT_MS = 30_000;
const DEFAULT_BATCH_SIZE = 256;

const unavailable = (message: string, details: Record<string, unknown>): AppError =>
  new AppError('UNAVAILABLE', message, { details });

export function embeddingsUrl(baseUrl: string): string {
  const trimmed = baseUrl.replace(/\/+$/, '');
  return trimmed.endsWith('/v1') ? `${trimmed}/embeddings` : `${trimmed}/v1/embeddings`;
}

export class OpenAiEmbedder implements Embedder {
  readonly id: string;
  private readonly url: string;
  private readonly fetchImpl: typeof fetch;

  constructor(private readonly options: OpenAiEmbedderOptions & { dimension: number }) {
    this.id = options.model;
    this.url = embeddingsUrl(options.baseUrl);
    this.fetchImpl = options.fetch ?? fetch;
  }

  get dimension(): number {
    return this.options.dimension;
  }

  async embed(texts: string[]): Promise<Float32Array[]> {
    const out: Float32Array[] = [];
    for (const batch of batches(texts, this.options.batchSize ?? DEFAULT_BATCH_SIZE)) {
      const vectors = await requestEmbeddings(this.url, this.options, batch, this.fetchImpl);
      for (const v of vectors) {
        if (v.length !== this.dimension) {
          throw unavailable(
            `Embedding endpoint returned ${v.length}-dimensional vectors; the index expects ${this.dimension}`,
            { url: this.url, model: this.id },
          );
        }
        out.push(v);
      }
    }
    return out;
  }
}

async function requestEmbeddings(
  url: string,
  options: OpenAiEmbedderOptions,
  input: string[],
  fetchImpl: typeof fetch,
): Promise<Float32Array[]> {
  if (input.length === 0) return [];
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const where = { url, model: options.model };
  let response: Response;
  try {
    response = await fetchImpl(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {}),
      },
      body: JSON.stringify({ model: options.model, input }),
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (err) {
    const e = err as Error;
    const reason = e.name === 'TimeoutError' ? `no answer within ${timeoutMs} ms` : e.message;
    throw unavailable(`Embedding endpoint ${url} failed: ${reason}`, where);
  }
  const raw = await response.text().catch(() => '');
  if (!response.ok) {
    throw unavailable(`Embedding endpoint ${url} answered ${response.status}: ${raw.slice(0, 300)}`, {
      ...where,
      status: response.status,
    });
  }
  let body: unknown;
  try {
    body = JSON.parse(raw);
  } catch {
    throw unavailable(`Embedding endpoint ${url} returned invalid JSON`, where);
  }
  const data = (body as { data?: unknown }).data;
  if (!Array.isArray(data) || data.length !== input.length) {
    throw unavailable(
      `Embedding endpoint ${url} returned ${Array.isArray(data) ? data.length : 'no'} embeddings for ${input.length} inputs`,
      where,
    );
  }
  const out: Float32Array[] = new Array(input.length);
  data.forEach((item: unknown, position) => {
    const { embedding, index } = item as { embedding?: unknown; index?: unknown };
    const at = typeof index === 'number' ? index : position;
    if (!Array.isArray(embedding) || !embedding.every((x) => typeof x === 'number' && Number.isFinite(x))) {
      throw unavailable(`Embedding endpoint ${url} returned a malformed embedding`, where);
    }
    if (at < 0 || at >= input.length || out[at] !== undefined) {
      throw unavailable(`Embedding endpoint ${url} returned an out-of-range index ${at}`, where);
    }
    out[at] = l2Normalize(Float32Array.from(embedding as number[]));
  });
  return out;
}

/** Builds the adapter, asking the endpoint for its dimension when the configuration does not say. */
export async function createOpenAiEmbedder(options: OpenAiEmbedderOptions): Promise<OpenAiEmbedder> {
  if (options.dimension !== undefined)
    return new OpenAiEmbedder({ ...options, dimension: options.dimension });
  const fetchImpl = options.fetch ?? fetch;
  const [probe] = await requestEmbeddings(
    embeddingsUrl(options.baseUrl),
    options,
    ['dimension probe'],
    fetchImpl,
  );
  return new OpenAiEmbedder({ ...options, dimension: probe!.length });
}
