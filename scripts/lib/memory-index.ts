import type { Embedder } from '../../src/domains/ledger/embeddings/embedder.ts';
import {
  CANDIDATES_PER_SIDE,
  exactNearest,
  normalisedLexical,
  type RelevanceFloor,
  rankCandidates,
  type ScoredClaim,
} from '../../src/domains/ledger/search/hybrid.ts';
import { Bm25Index, lexicalOverlap } from '../../src/domains/ledger/search/lexical.ts';
import { analyseQuery } from '../../src/domains/ledger/search/question.ts';

export interface IndexedClaim {
  id: string;
  text: string;
  confidence: number;
}

/**
 * Hybrid search held in memory: the reference the database-backed search is compared with,
 * and what the evaluation script runs on.
 */
export class InMemoryHybridIndex {
  private readonly claims = new Map<string, IndexedClaim & { vector: Float32Array }>();
  private readonly lexical = new Bm25Index();

  constructor(
    private readonly embedder: Embedder,
    private readonly floor: RelevanceFloor,
  ) {}

  async addAll(claims: readonly IndexedClaim[]): Promise<void> {
    const vectors = await this.embedder.embed(claims.map((c) => c.text));
    claims.forEach((claim, i) => {
      this.claims.set(claim.id, { ...claim, vector: vectors[i]! });
      this.lexical.add(claim.id, claim.text);
    });
  }

  async search(query: string, limit = 10): Promise<ScoredClaim[]> {
    const [q] = await this.embedder.embed([query]);
    return this.searchWithVector(query, q!, limit);
  }

  searchWithVector(query: string, q: Float32Array, limit = 10): ScoredClaim[] {
    const vector = exactNearest(
      q,
      [...this.claims.values()].map((c) => [c.id, c.vector] as [string, Float32Array]),
      CANDIDATES_PER_SIDE,
    );
    const lexical = normalisedLexical(this.lexical.search(query, CANDIDATES_PER_SIDE));
    const ids = new Set([...vector.map((h) => h.id), ...lexical.keys()]);
    const candidates = [...ids].map((id) => {
      const claim = this.claims.get(id)!;
      let dot = 0;
      for (let i = 0; i < q.length; i++) dot += q[i]! * claim.vector[i]!;
      return {
        id,
        text: claim.text,
        cosine: dot,
        lexical: lexical.get(id) ?? 0,
        overlap: lexicalOverlap(query, claim.text),
      };
    });
    return rankCandidates(
      analyseQuery(query),
      candidates,
      (id) => this.claims.get(id)?.confidence ?? 0,
      this.floor,
      limit,
    );
  }
}
