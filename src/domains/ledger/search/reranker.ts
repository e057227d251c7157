import { feedsFor, type OrtRuntime, openModelFolder } from '../embeddings/onnx.ts';

/**
 * An optional cross-encoder reranker (`ARBITER_RERANKER`): it reads the question and each claim
 * together, which a bi-encoder cannot (ledger README, "Questions"). Search asks it to order the
 * claims that passed the relevance floor; it never decides what passes. Served over HTTP in the
 * two common shapes: Hugging Face text-embeddings-inference (`POST /rerank`) and Cohere-compatible
 * `POST /v1/rerank` (Cohere, Jina, vLLM, Infinity …), or run in-process from a Hugging Face-layout
 * folder (`onnx:<folder>`, a ms-marco cross-encoder export) with the optional onnxruntime-node.
 */

export interface Reranker {
  readonly id: string;
  /** One score per text, in the order given: higher is more relevant. */
  rerank(query: string, texts: readonly string[]): Promise<number[]>;
}

export interface HttpRerankerOptions {
  api: 'tei' | 'cohere';
  /** The server's base URL (`http://127.0.0.1:8080`); the path is the API's. */
  url: string;
  apiKey?: string;
  /** Cohere-compatible servers need one; TEI serves one model and ignores it. */
  model?: string;
  timeoutMs?: number;
  fetch?: typeof fetch;
}

const DEFAULT_TIMEOUT_MS = 2_000;

interface IndexedScore {
  index: number;
  score: number;
}

/** Where each API takes its request. */
export function rerankUrl(api: HttpRerankerOptions['api'], url: string): string {
  const base = url.replace(/\/+$/, '');
  if (api === 'tei') return base.endsWith('/rerank') ? base : `${base}/rerank`;
  if (base.endsWith('/rerank')) return base;
  return base.endsWith('/v1') ? `${base}/rerank` : `${base}/v1/rerank`;
}

function requestBody(options: HttpRerankerOptions, query: string, texts: readonly string[]): unknown {
  if (options.api === 'tei') return { query, texts, raw_scores: false, return_text: false };
  return { model: options.model, query, documents: texts, top_n: texts.length, return_documents: false };
}

/** TEI answers `[{index, score}]`; Cohere `{results: [{index, relevance_score}]}`. */
function scoresOf(api: HttpRerankerOptions['api'], body: unknown): IndexedScore[] {
  const items = api === 'tei' ? body : (body as { results?: unknown } | null)?.results;
  if (!Array.isArray(items)) throw new Error('the answer holds no list of scores');
  return items.map((item: unknown) => {
    const { index, score, relevance_score } = (item ?? {}) as Record<string, unknown>;
    const value = api === 'tei' ? score : relevance_score;
    if (!Number.isInteger(index) || typeof value !== 'number' || !Number.isFinite(value)) {
      throw new Error('a score is not {index, score}');
    }
    return { index: index as number, score: value };
  });
}

export function createHttpReranker(options: HttpRerankerOptions): Reranker {
  const url = rerankUrl(options.api, options.url);
  const fetchImpl = options.fetch ?? fetch;
  return {
    id: `${options.api}:${options.model ?? url}`,
    async rerank(query, texts) {
      if (texts.length === 0) return [];
      const res = await fetchImpl(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...(options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {}),
        },
        body: JSON.stringify(requestBody(options, query, texts)),
        signal: AbortSignal.timeout(options.timeoutMs ?? DEFAULT_TIMEOUT_MS),
      });
      if (!res.ok) throw new Error(`rerank endpoint ${url} answered ${res.status}`);
      const scores = new Array<number>(texts.length).fill(Number.NEGATIVE_INFINITY);
      for (const { index, score } of scoresOf(options.api, await res.json())) {
        if (index >= 0 && index < texts.length) scores[index] = score;
      }
      return scores;
    },
  };
}

/**
 * A cross-encoder from a folder: `[CLS] query [SEP] text [SEP]` (segments 0 and 1), one logit per
 * pair (the last one when the model gives two classes) as the score.
 */
export async function createOnnxReranker(folder: string, runtime?: OrtRuntime): Promise<Reranker> {
  const { ort, session, tokenizer, name } = await openModelFolder(folder, runtime);
  return {
    id: `onnx-${name}`,
    async rerank(query, texts) {
      if (texts.length === 0) return [];
      const { feeds } = feedsFor(
        ort,
        session,
        texts.map((t) => tokenizer.encodePair(query, t)),
      );
      const output = (await session.run(feeds))[session.outputNames[0]!]!;
      const perPair = output.data.length / texts.length;
      return texts.map((_, b) => Number(output.data[b * perPair + perPair - 1]));
    },
  };
}

/**
 * `items` in the reranker's order (ties and unscored items keep their order), or as they were
 * when it fails: search answers without it rather than not at all, and says so once per failure.
 */
export async function reranked<T>(
  reranker: Reranker,
  query: string,
  items: readonly T[],
  textOf: (item: T) => string,
  onError: (err: unknown) => void,
): Promise<T[]> {
  if (items.length < 2) return [...items];
  let scores: number[];
  try {
    scores = await reranker.rerank(query, items.map(textOf));
  } catch (err) {
    onError(err);
    return [...items];
  }
  return items
    .map((item, i) => ({ item, i, score: scores[i] ?? Number.NEGATIVE_INFINITY }))
    .sort((a, b) => b.score - a.score || a.i - b.i)
    .map((x) => x.item);
}
