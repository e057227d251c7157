import type { AuditRepo } from '../audit/index.ts';
import { factOf } from './conflicts/fact.ts';
import type { Embedder } from './embeddings/embedder.ts';
import type { NameVault } from './pii/name-vault.ts';
import type { ScrubOptions } from './pii/scrubber.ts';
import type { LedgerRepo } from './repo.ts';
import type { Reranker } from './search/reranker.ts';
import type { FullTextIndex } from './storage/full-text.ts';
import type { VectorIndex } from './storage/vector-index.ts';

/** Claims naming the subject of a new claim (or of a sentence checked) looked up by full text, besides the nearest. */
export const SUBJECT_CANDIDATES = 10;

export interface LedgerServiceDeps {
  repo: LedgerRepo;
  vectors: VectorIndex;
  fullText: FullTextIndex;
  /** Resolves once the model is loaded; the local model loads after the server starts listening. */
  embedder: () => Promise<Embedder>;
  audit: Pick<AuditRepo, 'appendIn'>;
  /** The account's scrubbing settings (phone region); the defaults when absent. */
  scrubOptions?: (accountId: string) => Promise<ScrubOptions>;
  /** The account's pseudonyms and their words, sealed: names are read back as written by their owner. */
  names?: NameVault;
  /** Orders what passed the relevance floor (a cross-encoder); search answers without it when it fails. */
  reranker?: Reranker;
  /** Statement cosine floor of search for another model (`relevanceFloorFor`). */
  relevanceFloor?: number;
  /** Told when the reranker fails. */
  warn?: (details: Record<string, unknown>, message: string) => void;
  now?: () => Date;
}

/**
 * The claim ledger: one hash-chained ledger per account. Vault uuids and ledger short ids name
 * the same claims. Every write scrubs personal data first, so nothing unscrubbed is stored,
 * embedded or hashed.

/** What every part of the ledger service shares: its dependencies and the lookups they all make. */
export interface LedgerContext {
  deps: LedgerServiceDeps;
  repo: LedgerRepo;
  now: () => Date;
  /** The account's scrubbing settings; the defaults when the service has none. */
  scrubOptionsOf(accountId: string): Promise<ScrubOptions>;
  embedOne(text: string): Promise<{ vector: Float32Array; embedder: Embedder }>;
  /** The account's names for the pseudonyms in `texts`, to show claims to their owner as written. */
  namesIn(accountId: string, texts: readonly string[]): Promise<ReadonlyMap<string, string>>;
  sameSubjectRowkeys(accountId: string, texts: readonly string[]): Promise<number[][]>;
}

export function ledgerContext(deps: LedgerServiceDeps): LedgerContext {
  const now = deps.now ?? (() => new Date());
  const scrubOptionsOf = async (accountId: string): Promise<ScrubOptions> =>
    deps.scrubOptions ? deps.scrubOptions(accountId) : {};

  async function embedOne(text: string): Promise<{ vector: Float32Array; embedder: Embedder }> {
    const embedder = await deps.embedder();
    const [vector] = await embedder.embed([text]);
    return { vector: vector!, embedder };
  }

  /** The account's names for the pseudonyms in `texts`, to show claims to their owner as written. */
  async function namesIn(accountId: string, texts: readonly string[]): Promise<ReadonlyMap<string, string>> {
    return deps.names ? deps.names.wordsFor(accountId, texts) : new Map();
  }

  /**
   * Rowkeys of the account's claims that name the subject of each text with a reading (`fact.ts`),
   * by full text over the subject's words: among many claims of one shape ("The capital of …"),
   * the nearest vectors need not include the one about the same subject.
   */
  async function sameSubjectRowkeys(accountId: string, texts: readonly string[]): Promise<number[][]> {
    return Promise.all(
      texts.map(async (text) => {
        const fact = factOf(text);
        if (!fact) return [];
        // A pseudonym is one indexed word; as a placeholder full text would leave it out.
        const words = fact.subject.replace(/<([A-Z]+[0-9a-f]+)>/g, '$1');
        return (await deps.fullText.search(accountId, words, SUBJECT_CANDIDATES)).map((h) => h.rowkey);
      }),
    );
  }

  return { deps, repo: deps.repo, now, scrubOptionsOf, embedOne, namesIn, sameSubjectRowkeys };
}
