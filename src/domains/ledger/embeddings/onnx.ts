import { readFileSync } from 'node:fs';
import path from 'node:path';
import { batches, type Embedder, l2Normalize } from './embedder.ts';

/**
 * A user's own sentence-embedding model, in the Hugging Face layout (`model.onnx`,
 * `tokenizer.json`, `config.json`; MiniLM, BGE, GTE, E5 exports), run in-process with
 * onnxruntime-node (`ARBITER_EMBEDDER=onnx:<folder>`). The runtime is an optional peer
 * dependency, loaded only here: an install that does not use it does not carry it (over 100 MB).
 * Mean pooling over the attention mask, then L2 normalisation, as sentence-transformers does;
 * a model whose first output is already one vector per text (`sentence_embedding`) is used as is.
 */

/** What the runtime offers that this adapter uses (a subset of onnxruntime-node's API). */
export interface OrtTensor {
  readonly dims: readonly number[];
  readonly data: ArrayLike<number | bigint>;
}
export interface OrtSession {
  readonly inputNames: readonly string[];
  readonly outputNames: readonly string[];
  run(feeds: Record<string, OrtTensor>): Promise<Record<string, OrtTensor>>;
}
export interface OrtRuntime {
  InferenceSession: { create(path: string): Promise<OrtSession> };
  Tensor: new (type: 'int64', data: BigInt64Array, dims: number[]) => OrtTensor;
}

export const ONNX_RUNTIME_MISSING =
  'onnx:<folder> (ARBITER_EMBEDDER or ARBITER_RERANKER) needs the optional package onnxruntime-node: run `npm install onnxruntime-node` (the repository .npmrc skips its GPU download)';

/** The runtime, or an error saying how to install it. */
export async function loadOnnxRuntime(specifier = 'onnxruntime-node'): Promise<OrtRuntime> {
  try {
    const mod = (await import(specifier)) as OrtRuntime & { default?: OrtRuntime };
    return mod.InferenceSession ? mod : mod.default!;
  } catch (err) {
    const code = (err as { code?: string }).code;
    if (code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND') throw new Error(ONNX_RUNTIME_MISSING);
    throw err;
  }
}

const BATCH = 32;

/** A Hugging Face-layout model folder opened: its session, tokenizer and name. */
export async function openModelFolder(
  folder: string,
  runtime?: OrtRuntime,
): Promise<{ ort: OrtRuntime; session: OrtSession; tokenizer: WordPieceTokenizer; name: string }> {
  const ort = runtime ?? (await loadOnnxRuntime());
  const read = (file: string): string => {
    try {
      return readFileSync(path.join(folder, file), 'utf8');
    } catch {
      throw new Error(
        `onnx:${folder}: ${file} is missing (the folder needs model.onnx, tokenizer.json and config.json)`,
      );
    }
  };
  const config = JSON.parse(read('config.json')) as {
    max_position_embeddings?: number;
    _name_or_path?: string;
  };
  const tokenizer = new WordPieceTokenizer(
    JSON.parse(read('tokenizer.json')),
    Math.min(512, config.max_position_embeddings ?? 512),
  );
  read('model.onnx');
  const session = await ort.InferenceSession.create(path.join(folder, 'model.onnx'));
  const name = config._name_or_path?.split('/').pop() || path.basename(path.resolve(folder));
  return { ort, session, tokenizer, name };
}

/** int64 tensors for `input_ids`, `attention_mask` and `token_type_ids` (any other input zeros), padded. */
export function feedsFor(
  ort: OrtRuntime,
  session: OrtSession,
  rows: ReadonlyArray<{ ids: readonly number[]; typeIds?: readonly number[] }>,
): { feeds: Record<string, OrtTensor>; length: number } {
  const length = Math.max(1, ...rows.map((r) => r.ids.length));
  const ids = new BigInt64Array(rows.length * length);
  const mask = new BigInt64Array(rows.length * length);
  const types = new BigInt64Array(rows.length * length);
  rows.forEach((r, b) => {
    r.ids.forEach((id, i) => {
      ids[b * length + i] = BigInt(id);
      mask[b * length + i] = 1n;
      types[b * length + i] = BigInt(r.typeIds?.[i] ?? 0);
    });
  });
  const dims = [rows.length, length];
  const feeds: Record<string, OrtTensor> = {};
  for (const name of session.inputNames) {
    const data =
      name === 'input_ids'
        ? ids
        : name === 'attention_mask'
          ? mask
          : name === 'token_type_ids'
            ? types
            : new BigInt64Array(ids.length);
    feeds[name] = new ort.Tensor('int64', data, dims);
  }
  return { feeds, length };
}

export async function createOnnxEmbedder(folder: string, runtime?: OrtRuntime): Promise<Embedder> {
  const { ort, session, tokenizer, name } = await openModelFolder(folder, runtime);

  async function embedBatch(texts: readonly string[]): Promise<Float32Array[]> {
    const encoded = texts.map((t) => tokenizer.encode(t));
    const { feeds, length } = feedsFor(
      ort,
      session,
      encoded.map((ids) => ({ ids })),
    );
    const output = (await session.run(feeds))[session.outputNames[0]!]!;
    const data = output.data as Float32Array;
    if (output.dims.length === 2) {
      const dim = output.dims[1]!;
      return texts.map((_, b) => l2Normalize(Float32Array.from(data.subarray(b * dim, (b + 1) * dim))));
    }
    const dim = output.dims[2]!;
    return texts.map((_, b) => {
      const v = new Float32Array(dim);
      const n = encoded[b]!.length;
      for (let i = 0; i < n; i++) {
        const at = (b * length + i) * dim;
        for (let d = 0; d < dim; d++) v[d]! += data[at + d]!;
      }
      for (let d = 0; d < dim; d++) v[d] = v[d]! / Math.max(1, n);
      return l2Normalize(v);
    });
  }

  const [probe] = await embedBatch(['dimension']);
  return {
    id: `onnx-${name}`,
    dimension: probe!.length,
    async embed(texts: string[]): Promise<Float32Array[]> {
      const out: Float32Array[] = [];
      for (const batch of batches(texts, BATCH)) out.push(...(await embedBatch(batch)));
      return out;
    },
  };
}

interface TokenizerJson {
  normalizer?: {
    type?: string;
    lowercase?: boolean;
    normalizers?: Array<{ type?: string; lowercase?: boolean }>;
  } | null;
  model: {
    type?: string;
    vocab: Record<string, number>;
    unk_token?: string;
    continuing_subword_prefix?: string;
    max_input_chars_per_word?: number;
  };
}

/**
 * The BERT WordPiece tokenizer of a `tokenizer.json` (what MiniLM, BGE and GTE ship): lower case
 * when the normalizer says so, accents kept, split on white space and punctuation, greedy longest
 * match with `##` continuations, `[CLS] … [SEP]`, cut to the model's length.
 */
export class WordPieceTokenizer {
  private readonly vocab: ReadonlyMap<string, number>;
  private readonly unk: number;
  private readonly prefix: string;
  private readonly lowercase: boolean;
  private readonly cls: number | undefined;
  private readonly sep: number | undefined;

  constructor(
    json: TokenizerJson,
    private readonly maxLength: number,
  ) {
    if (json.model.type !== undefined && json.model.type !== 'WordPiece') {
      throw new Error(`tokenizer.json: a ${json.model.type} model is not supported (WordPiece only)`);
    }
    this.vocab = new Map(Object.entries(json.model.vocab));
    this.unk = this.vocab.get(json.model.unk_token ?? '[UNK]') ?? 0;
    this.prefix = json.model.continuing_subword_prefix ?? '##';
    const normalizers = json.normalizer?.normalizers ?? (json.normalizer ? [json.normalizer] : []);
    this.lowercase = normalizers.some((n) => n.lowercase === true || n.type === 'Lowercase');
    this.cls = this.vocab.get('[CLS]');
    this.sep = this.vocab.get('[SEP]');
  }

  encode(text: string): number[] {
    const room = this.maxLength - (this.cls === undefined ? 0 : 1) - (this.sep === undefined ? 0 : 1);
    return this.framed([this.pieceIds(text, room)]).ids;
  }

  /**
   * A pair as a cross-encoder reads it: `[CLS] a [SEP] b [SEP]`, segment 0 then 1, `b` cut first
   * (then `a`) to fit the model's length.
   */
  encodePair(a: string, b: string): { ids: number[]; typeIds: number[] } {
    const specials = (this.cls === undefined ? 0 : 1) + (this.sep === undefined ? 0 : 2);
    const room = Math.max(2, this.maxLength - specials);
    const first = this.pieceIds(a, Math.max(1, Math.floor(room / 2)));
    return this.framed([first, this.pieceIds(b, room - first.length)]);
  }

  private framed(segments: number[][]): { ids: number[]; typeIds: number[] } {
    const ids: number[] = this.cls === undefined ? [] : [this.cls];
    const typeIds: number[] = this.cls === undefined ? [] : [0];
    segments.forEach((segment, i) => {
      for (const id of segment) {
        ids.push(id);
        typeIds.push(i);
      }
      if (this.sep !== undefined) {
        ids.push(this.sep);
        typeIds.push(i);
      }
    });
    return { ids, typeIds };
  }

  /** The WordPiece ids of `text`, at most `limit`. */
  private pieceIds(text: string, limit: number): number[] {
    const normal = this.lowercase ? text.toLowerCase() : text;
    const ids: number[] = [];
    for (const word of normal.match(/[\p{L}\p{N}\p{M}]+|[^\s\p{L}\p{N}\p{M}]/gu) ?? []) {
      for (const id of this.pieces(word)) {
        if (ids.length >= limit) return ids;
        ids.push(id);
      }
    }
    return ids;
  }

  private pieces(word: string): number[] {
    const out: number[] = [];
    let start = 0;
    while (start < word.length) {
      let end = word.length;
      let id: number | undefined;
      while (end > start) {
        const piece = (start > 0 ? this.prefix : '') + word.slice(start, end);
        id = this.vocab.get(piece);
        if (id !== undefined) break;
        end--;
      }
      if (id === undefined) return [this.unk];
      out.push(id);
      start = end;
    }
    return out;
  }
}
