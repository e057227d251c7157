import type { Embedder } from './embedder.ts';

/** Queries remembered per process; a 512-d vector is 2 kB, so 2,048 of them hold ~4 MB. */
export const QUERY_CACHE_ENTRIES = 2048;
/** Longer queries are embedded every time (they are rarely repeated, and would crowd the cache out). */
export const QUERY_CACHE_MAX_CHARS = 1024;

/**
 * The vectors of recent search queries, least recently used out first. An agent asks the same
 * questions again and again ("where is the office?"), and embedding one with the local model
 * is most of a search's time. Keyed by model id and the exact (scrubbed) text, so a different
 * model or a different spelling is embedded anew; vectors are shared, never written to.
 */
export class QueryVectorCache {
  private readonly entries = new Map<string, Float32Array>();
  hits = 0;
  misses = 0;

  constructor(private readonly capacity = QUERY_CACHE_ENTRIES) {}

  get size(): number {
    return this.entries.size;
  }

  async embed(embedder: Embedder, text: string): Promise<Float32Array> {
    if (text.length > QUERY_CACHE_MAX_CHARS) {
      this.misses++;
      return (await embedder.embed([text]))[0]!;
    }
    const key = `${embedder.id}\u0000${text}`;
    const found = this.entries.get(key);
    if (found) {
      this.hits++;
      // Re-inserting moves the key to the end of the Map's order: most recently used.
      this.entries.delete(key);
      this.entries.set(key, found);
      return found;
    }
    this.misses++;
    const [vector] = await embedder.embed([text]);
    this.entries.set(key, vector!);
    if (this.entries.size > this.capacity) this.entries.delete(this.entries.keys().next().value!);
    return vector!;
  }
}
