import type { Static } from 'typebox';
import { Errors } from '../../errors.ts';
import { listClaims } from './browse.ts';
import { factView } from './conflicts/fact.ts';
import { QueryVectorCache } from './embeddings/query-cache.ts';
import type { LedgerContext } from './ledger-context.ts';
import { nameCandidates, withKnownNames } from './pii/known-names.ts';
import { revealNames } from './pii/name-vault.ts';
import { scrub } from './pii/scrubber.ts';
import type { ClaimListQuery, SearchHitSchema } from './schemas.ts';
import {
  normalisedLexical,
  type RelevanceFloor,
  rankCandidates,
  relevanceFloorFor,
} from './search/hybrid.ts';
import { lexicalOverlap } from './search/lexical.ts';
import { CANDIDATES_PER_SIDE } from './search/memory-index.ts';
import { analyseQuery, withoutPlaceholders } from './search/question.ts';
import { reranked } from './search/reranker.ts';
import { dot } from './storage/vectors.ts';

/** A vault search hit, and the short id `/ledger/semantic_search` answers with. */
export type SearchHit = Static<typeof SearchHitSchema> & { short_id: string };

/** Claims that passed the floor handed to the reranker, of which the top `top_k` are answered. */
export const RERANK_CANDIDATES = 20;

/** A claim's reading with its names as written (the reading is made from the stored text). */
function revealedFact(stored: string, words: ReadonlyMap<string, string>) {
  const fact = factView(stored);
  if (!fact || words.size === 0) return fact;
  return {
    ...fact,
    subject: revealNames(fact.subject, words),
    object: revealNames(fact.object, words),
  };
}

/** Reading the account's claims: pages, search and one claim with its versions, names revealed to their owner. */
export function createClaimReads({ deps, repo, scrubOptionsOf, namesIn }: LedgerContext) {
  const queryVectors = new QueryVectorCache();

  /**
   * A query scrubbed as the account's claims were, and then every word the scrubber did not take
   * for a name but whose pseudonym the account's claims hold: a question gives the name detector
   * little context ("When did Melanie's friend adopt a child?"), and a name left as written would
   * never meet its pseudonym in the claims, neither as a word nor in meaning.
   */
  async function scrubQuery(accountId: string, query: string): Promise<string> {
    const options = await scrubOptionsOf(accountId);
    const scrubbed = scrub(query, options).text;
    if (options.pseudonymKey === undefined) return scrubbed;
    const candidates = nameCandidates(scrubbed, options.pseudonymKey);
    if (candidates.length === 0) return scrubbed;
    const known = await deps.fullText.knownTerms(
      accountId,
      candidates.map((c) => c.term),
    );
    return withKnownNames(scrubbed, candidates, known);
  }

  return {
    /** A page of the account's claims; a `source` filter is scrubbed as stored sources were, so it can match them. */
    async list(accountId: string, query: Static<typeof ClaimListQuery>) {
      const source =
        query.source === undefined ? undefined : scrub(query.source, await scrubOptionsOf(accountId)).text;
      const page = await listClaims(repo, accountId, source === undefined ? query : { ...query, source });
      const words = await namesIn(
        accountId,
        page.claims.flatMap((c) => [c.claim, c.source]),
      );
      return {
        ...page,
        claims: page.claims.map((c) => ({
          ...c,
          claim: revealNames(c.claim, words),
          fact: revealedFact(c.claim, words),
          source: revealNames(c.source, words),
        })),
      };
    },

    /** Relevant active claims, ranked by relevance × confidence; empty when nothing is relevant. */
    async search(accountId: string, query: string, topK: number): Promise<SearchHit[]> {
      const scrubbed = await scrubQuery(accountId, query);
      const embedder = await deps.embedder();
      const floor: RelevanceFloor = relevanceFloorFor(embedder.id, deps.relevanceFloor);
      // Full text needs no vector: it runs while the query is embedded (a model on its own thread).
      const [[vector, nearest], lexicalHits] = await Promise.all([
        queryVectors
          .embed(embedder, scrubbed)
          .then(async (v) => [v, await deps.vectors.nearest(accountId, v, CANDIDATES_PER_SIDE)] as const),
        deps.fullText.search(accountId, scrubbed, CANDIDATES_PER_SIDE),
      ]);
      const rowkeys = [...new Set([...nearest.map((n) => n.rowkey), ...lexicalHits.map((l) => l.rowkey)])];
      const rows = new Map((await repo.activeByRowkeys(accountId, rowkeys)).map((r) => [r.rowkey, r]));
      const cosine = new Map(nearest.map((n) => [n.rowkey, n.cosine]));
      const missing = lexicalHits.map((l) => l.rowkey).filter((r) => !cosine.has(r) && rows.has(r));
      for (const [r, v] of await repo.vectorsByRowkeys(missing)) cosine.set(r, dot(vector, v));
      const lexical = normalisedLexical(
        lexicalHits.filter((l) => rows.has(l.rowkey)).map((l) => ({ id: String(l.rowkey), score: l.score })),
      );
      const candidates = [...rows.values()].map((row) => ({
        id: String(row.rowkey),
        text: row.claim,
        cosine: cosine.get(row.rowkey) ?? 0,
        lexical: lexical.get(String(row.rowkey)) ?? 0,
        overlap: lexicalOverlap(withoutPlaceholders(scrubbed), withoutPlaceholders(row.claim)),
      }));
      const passed = rankCandidates(
        analyseQuery(scrubbed),
        candidates,
        (id) => rows.get(Number(id))!.confidence,
        floor,
        deps.reranker ? Math.max(topK, RERANK_CANDIDATES) : topK,
      );
      // The reranker reads the scrubbed query and claims: no name leaves the server.
      const ranked = deps.reranker
        ? (
            await reranked(
              deps.reranker,
              scrubbed,
              passed,
              (hit) => hit.text,
              (err) =>
                deps.warn?.(
                  { reranker: deps.reranker!.id, err: String(err) },
                  'reranker failed; search kept its own order',
                ),
            )
          ).slice(0, topK)
        : passed;
      const words = await namesIn(
        accountId,
        ranked.flatMap((hit) => [rows.get(Number(hit.id))!.claim, rows.get(Number(hit.id))!.source]),
      );
      return ranked.map((hit) => {
        const row = rows.get(Number(hit.id))!;
        return {
          id: row.id,
          short_id: row.short_id,
          claim: revealNames(row.claim, words),
          fact: revealedFact(row.claim, words),
          source: revealNames(row.source, words),
          confidence: row.confidence,
          version: row.version,
          relevance: Math.round(hit.relevance * 1e4) / 1e4,
          score: Math.round(hit.score * 1e4) / 1e4,
          timestamp: row.updated_at,
        };
      });
    },

    async get(accountId: string, ref: string) {
      const claim = await repo.findClaim(accountId, ref);
      if (!claim || claim.status === 'deleted') throw Errors.notFound('Claim');
      const versions = await repo.versions(claim.id);
      const words = await namesIn(accountId, [
        claim.claim,
        claim.source,
        ...versions.flatMap((v) => [v.claim, v.source]),
      ]);
      return {
        claim: { ...claim, claim: revealNames(claim.claim, words), source: revealNames(claim.source, words) },
        fact: revealedFact(claim.claim, words),
        versions: versions.map((v) => ({
          ...v,
          claim: revealNames(v.claim, words),
          source: revealNames(v.source, words),
        })),
      };
    },

    async state(accountId: string) {
      const head = await repo.head(accountId);
      return { state_hash: head.state_hash, entries: head.seq };
    },

    currentStateHash: async (accountId: string) => (await repo.head(accountId)).state_hash,

    /** The account's names for the pseudonyms in `texts`: what its export and console show. */
    namesIn,
  };
}
