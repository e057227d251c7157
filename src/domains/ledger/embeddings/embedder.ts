/**
 * The one port every embedding model sits behind. Vectors are L2-normalised by every adapter,
 * so cosine similarity is a dot product and scores from different calls are comparable.
 */
export interface Embedder {
  /** Model name, recorded with the index so a different model is never mixed into it. */
  readonly id: string;
  readonly dimension: number;
  /** Most components are zero (feature hashing): a vector index can skip them and stay exact. */
  readonly sparse?: boolean;
  /** One vector per input, in input order. */
  embed(texts: string[]): Promise<Float32Array[]>;
}

export function l2Normalize(v: Float32Array): Float32Array {
  let sum = 0;
  for (let i = 0; i < v.length; i++) sum += v[i]! * v[i]!;
  const norm = Math.sqrt(sum);
  if (norm > 0) for (let i = 0; i < v.length; i++) v[i] = v[i]! / norm;
  return v;
}

/** Cosine similarity; 0 when either vector is all zeros (an empty text). */
export function cosine(a: ArrayLike<number>, b: ArrayLike<number>): number {
  if (a.length !== b.length) throw new Error(`vector dimensions differ: ${a.length} vs ${b.length}`);
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    const x = a[i]!;
    const y = b[i]!;
    dot += x * y;
    na += x * x;
    nb += y * y;
  }
  return na === 0 || nb === 0 ? 0 : dot / Math.sqrt(na * nb);
}

/** Splits `items` into consecutive batches of at most `size`. */
export function batches<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}
