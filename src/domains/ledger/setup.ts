import type { Logger } from 'pino';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/database.ts';
import { AppError } from '../../errors.ts';
import type { SecretBox } from '../../lib/secret-box.ts';
import type { Finding } from '../../shared/finding.ts';
import type { AuditRepo } from '../audit/index.ts';
import type { TextCheckOutcome, TextConflict } from './conflicts.ts';
import type { Embedder } from './embeddings/embedder.ts';
import { createEmbedder } from './embeddings/factory.ts';
import { withSurrogateNamesFor } from './embeddings/surrogate-names.ts';
import { createNameVault } from './pii/name-vault.ts';
import { warmUpNames } from './pii/names.ts';
import { createPiiSettings } from './pii/settings.ts';
import { createLedgerRepo, type LedgerRepo } from './repo.ts';
import { createHttpReranker, createOnnxReranker } from './search/reranker.ts';
import { createLedgerService } from './service.ts';
import { createFullTextIndex } from './storage/full-text.ts';
import { queriesOffThread } from './storage/knn-thread.ts';
import { createVectorIndex, type VectorIndex } from './storage/vector-index.ts';

const EMBEDDER_META_KEY = 'ledger.embedder';

/** A contradiction of a stored fact, as the verdict and judgment engines report it. */
export function textConflictFinding(c: TextConflict<{ id: string; text: string }>): Finding {
  return {
    code: 'CONFLICT_DETECTED',
    message: `"${c.sentence.slice(0, 200)}" contradicts the verified fact "${c.fact.text.slice(0, 200)}" (${c.conflict.kind}: ${c.conflict.reason})`,
    location: `claim ${c.fact.id}`,
  };
}

/**
 * A text check's findings: a contradiction per sentence and fact, and a POLICY_VIOLATION when the
 * text exceeded the check's budget (a text that cannot be checked is not let through unread).
 */
export function textCheckFindings(outcome: TextCheckOutcome<{ id: string; text: string }>): Finding[] {
  const findings = outcome.conflicts.map(textConflictFinding);
  if (outcome.unchecked !== undefined)
    findings.push({ code: 'POLICY_VIOLATION', message: outcome.unchecked, location: 'ledger text check' });
  return findings;
}

interface IndexedWith {
  id: string;
  dimension: number;
}

/** Thrown when the stored vectors were made by another model than the configured one. */
export class EmbedderMismatchError extends AppError {}

async function checkEmbedder(repo: LedgerRepo, embedder: Embedder, vectors: VectorIndex): Promise<void> {
  const raw = await repo.metaGet(EMBEDDER_META_KEY);
  const recorded = raw ? (JSON.parse(raw) as IndexedWith) : undefined;
  if (recorded && (recorded.id !== embedder.id || recorded.dimension !== embedder.dimension)) {
    if ((await repo.countActive()) > 0) {
      throw new EmbedderMismatchError(
        'UNAVAILABLE',
        `The claim index was built with ${recorded.id} (${recorded.dimension} dimensions) but the configured embedder is ${embedder.id} (${embedder.dimension}). Run \`arbiter reindex\` to re-embed the stored claims, or configure the original embedder.`,
      );
    }
    await vectors.reset();
  }
  await vectors.init(embedder.dimension);
  if (!recorded || recorded.id !== embedder.id || recorded.dimension !== embedder.dimension) {
    await repo.metaSet(EMBEDDER_META_KEY, JSON.stringify({ id: embedder.id, dimension: embedder.dimension }));
  }
}

function createReranker(config: NonNullable<Config['reranker']>) {
  if (config.api === 'onnx') return createOnnxReranker(config.folder);
  return createHttpReranker({
    api: config.api,
    url: config.url,
    ...(config.apiKey ? { apiKey: config.apiKey } : {}),
    ...(config.model ? { model: config.model } : {}),
  });
}

function embedderConfig(config: Config['embedder']) {
  return config.kind === 'openai'
    ? {
        kind: 'openai' as const,
        baseUrl: config.baseUrl,
        model: config.model,
        ...(config.apiKey ? { apiKey: config.apiKey } : {}),
      }
    : config.kind === 'onnx'
      ? { kind: 'onnx' as const, folder: config.folder }
      : config.kind === 'local'
        ? { kind: 'local' as const }
        : { kind: 'hash' as const };
}

/**
 * Builds the claim ledger for a database: the best vector index it offers, its full-text index,
 * and the configured embedder, refusing to start when the stored vectors came from another model.
 */
export async function createLedger(deps: {
  db: Db;
  config: Pick<Config, 'embedder' | 'database'> &
    Partial<Pick<Config, 'vectorCacheBytes' | 'reranker' | 'relevanceFloor'>>;
  audit: Pick<AuditRepo, 'appendIn'>;
  logger: Pick<Logger, 'info' | 'warn' | 'error'>;
  /** `arbiter reindex` opens the ledger knowing the index is stale. */
  skipEmbedderCheck?: boolean;
  /** Seals the account's name mapping; without it names stay pseudonyms on read too. */
  secrets?: SecretBox;
}) {
  const repo = createLedgerRepo(deps.db.kysely);
  const embedder = withSurrogateNamesFor(await createEmbedder(embedderConfig(deps.config.embedder)));
  // Conflict candidates and search scan the account's vectors: off the request loop (knn-thread.ts).
  const cacheLimits =
    deps.config.vectorCacheBytes === undefined ? {} : { maxCachedBytes: deps.config.vectorCacheBytes };
  const vectors = queriesOffThread(
    await createVectorIndex(deps.db, embedder, cacheLimits),
    deps.config.database,
    deps.logger,
    cacheLimits,
  );
  const fullText = createFullTextIndex(deps.db);
  if (!deps.skipEmbedderCheck) await checkEmbedder(repo, embedder, vectors);
  deps.logger.info(
    { embedder: embedder.id, dimension: embedder.dimension, vectors: vectors.kind },
    'claim ledger ready',
  );
  const piiSettings = createPiiSettings(repo, deps.audit);
  const service = createLedgerService({
    repo,
    vectors,
    fullText,
    embedder: async () => embedder,
    audit: deps.audit,
    scrubOptions: piiSettings.scrubOptions,
    ...(deps.secrets ? { names: createNameVault(deps.db.kysely, deps.secrets) } : {}),
    ...(deps.config.reranker ? { reranker: await createReranker(deps.config.reranker) } : {}),
    ...(deps.config.relevanceFloor === undefined ? {} : { relevanceFloor: deps.config.relevanceFloor }),
    warn: (details, message) => deps.logger.warn(details, message),
  });

  return {
    service,
    piiSettings,
    repo,
    vectors,
    embedder,
    /** Loads a local model now (in the background after listen) instead of on the first request. */
    async warmUp(): Promise<void> {
      // The name lexicons (WordNet, compromise) load in ~1 s; the first store should not wait for them.
      warmUpNames();
      const w = embedder as Embedder & { warmUp?: () => Promise<void> };
      // The k-NN thread starts beside the model.
      await Promise.all(['whenReady' in vectors ? vectors.whenReady() : undefined, w.warmUp?.()]);
    },
    /**
     * Re-embeds every active claim with the configured embedder and rebuilds the vector index
     * (after a model change). Batches keep memory flat; the claims themselves are not touched.
     */
    async reindex(onProgress?: (done: number) => void): Promise<number> {
      await vectors.reset();
      await vectors.init(embedder.dimension);
      await repo.clearVectors();
      let after = 0;
      let done = 0;
      for (;;) {
        const page = await repo.activePage(after, 256);
        if (page.length === 0) break;
        const embedded = await embedder.embed(page.map((c) => c.claim));
        await deps.db.kysely.transaction().execute(async (trx) => {
          for (let i = 0; i < page.length; i++) {
            await repo.putVector(trx, page[i]!.rowkey, page[i]!.account_id, embedded[i]!);
          }
          await vectors.add(
            trx,
            page.map((c, i) => ({ rowkey: c.rowkey, accountId: c.account_id, vector: embedded[i]! })),
          );
        });
        done += page.length;
        after = page[page.length - 1]!.rowkey;
        onProgress?.(done);
      }
      await repo.metaSet(
        EMBEDDER_META_KEY,
        JSON.stringify({ id: embedder.id, dimension: embedder.dimension }),
      );
      return done;
    },
    async close(): Promise<void> {
      if ('close' in vectors) await vectors.close();
      const c = embedder as Embedder & { close?: () => Promise<void> };
      await c.close?.();
    },
  };
}

export type Ledger = Awaited<ReturnType<typeof createLedger>>;
