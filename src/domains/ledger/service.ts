import { randomBytes, randomUUID } from 'node:crypto';
import type { Transaction } from 'kysely';
import type { Static } from 'typebox';
import { chainHash, GENESIS_HASH } from '../../db/chain.ts';
import type { Database } from '../../db/schema.ts';
import { AppError, Errors } from '../../errors.ts';
import type { AuditRepo } from '../audit/index.ts';
import { emitEvents, type PendingEvent } from '../webhooks/index.ts';
import { listClaims } from './browse.ts';
import { factOf, factView } from './conflicts/fact.ts';
import { sentencesOf } from './conflicts/text-check.ts';
import { checkLongText, warmTextCheckThread } from './conflicts/text-check-thread.ts';
import {
  conflictCandidateFloor,
  findConflicts,
  passagesOf,
  TEXT_CHECK_MAX_CHARS,
  TEXT_CHECK_MAX_WORK,
  type TextCheckOutcome,
  type TextConflict,
  TextFactChecker,
} from './conflicts.ts';
import type { Embedder } from './embeddings/embedder.ts';
import { QueryVectorCache } from './embeddings/query-cache.ts';
import { nameCandidates, withKnownNames } from './pii/known-names.ts';
import { type NameVault, revealNames } from './pii/name-vault.ts';
import { type PiiType, pseudonymWords, type ScrubOptions, scrub } from './pii/scrubber.ts';
import {
  type ClaimRow,
  chainEntries,
  type EntryInput,
  type EntryRow,
  type LedgerEntry,
  type LedgerHead,
  type LedgerRepo,
  type VersionRow,
} from './repo.ts';
import type {
  ClaimListQuery,
  ConflictSchema,
  OnConflictSchema,
  SearchHitSchema,
  StoreBody,
  StoreResponse,
} from './schemas.ts';
import {
  normalisedLexical,
  type RelevanceFloor,
  rankCandidates,
  relevanceFloorFor,
} from './search/hybrid.ts';
import { lexicalOverlap } from './search/lexical.ts';
import { CANDIDATES_PER_SIDE } from './search/memory-index.ts';
import { analyseQuery, withoutPlaceholders } from './search/question.ts';
import { type Reranker, reranked } from './search/reranker.ts';
import type { FullTextIndex } from './storage/full-text.ts';
import { AccountPostings } from './storage/sparse-scan.ts';
import type { NearestHit, VectorIndex } from './storage/vector-index.ts';
import { dot } from './storage/vectors.ts';

export type OnConflict = Static<typeof OnConflictSchema>;

export type ReportedConflict = Static<typeof ConflictSchema>;

/** One claim to store; `expected_state_hash` is read by `store` only (`storeMany` takes it once, in its options). */
export type StoreInput = Static<typeof StoreBody>;

/**
 * `created_at` (when the claim was first stored) is not in the response, which drops it, but it
 * is in the idempotent answer remembered with the claim, and so in the account's GDPR export.
 */
export type StoreResult = Static<typeof StoreResponse> & { created_at: string };

/** A vault search hit, and the short id `/ledger/semantic_search` answers with. */
export type SearchHit = Static<typeof SearchHitSchema> & { short_id: string };

type AuditEvents = Parameters<AuditRepo['appendIn']>[1][number][];

/** Most recent active claims a text longer than one passage is checked against, besides those found by search. */
export const LONG_TEXT_FACTS = 1000;
/** Claims that passed the floor handed to the reranker, of which the top `top_k` are answered. */
export const RERANK_CANDIDATES = 20;
/** Sentences of a text's first passage whose subject's claims are looked up for the text check. */
export const SUBJECT_SENTENCES = 16;
/** Longest run of text-check work between two turns of the event loop. */
export const TEXT_CHECK_SLICE_MS = 5;
/** How many stored claims most like a new one are checked for contradictions. */
export const CONFLICT_CANDIDATES = 10;
/** Claims naming the subject of a new claim (or of a sentence checked) looked up by full text, besides the nearest. */
export const SUBJECT_CANDIDATES = 10;
/** Longest run of a batch's work (scrubbing, checks, SQLite writes) between two turns of the event loop. */
export const BATCH_SLICE_MS = 20;
const SHORT_ID_ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** Case, spacing, Unicode form and end punctuation do not make a different claim. */
export function normalizeClaim(text: string): string {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/[\s.!?;:,]+$/u, '');
}

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

/** Awaited before each item of a batch: gives the event loop a turn once `BATCH_SLICE_MS` is used up. */
function eventLoopTurns(): () => Promise<void> {
  let since = performance.now();
  return async () => {
    if (performance.now() - since < BATCH_SLICE_MS) return;
    await new Promise<void>((resolve) => setImmediate(resolve));
    since = performance.now();
  };
}

function shortId(): string {
  let id = 'c';
  for (const byte of randomBytes(11)) id += SHORT_ID_ALPHABET[byte % 62];
  return id;
}

/** What was scrubbed from the claim and its source, by type and count (never by value). */
function scrubbedCounts(...found: Array<Record<PiiType, number>>): Partial<Record<PiiType, number>> {
  const total: Partial<Record<PiiType, number>> = {};
  for (const counts of found) {
    for (const [type, n] of Object.entries(counts) as Array<[PiiType, number]>) {
      if (n > 0) total[type] = (total[type] ?? 0) + n;
    }
  }
  return total;
}

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
 */
export function createLedgerService(deps: LedgerServiceDeps) {
  const now = deps.now ?? (() => new Date());
  const scrubOptionsOf = async (accountId: string): Promise<ScrubOptions> =>
    deps.scrubOptions ? deps.scrubOptions(accountId) : {};
  const { repo } = deps;
  const queryVectors = new QueryVectorCache();

  async function embedOne(text: string): Promise<{ vector: Float32Array; embedder: Embedder }> {
    const embedder = await deps.embedder();
    const [vector] = await embedder.embed([text]);
    return { vector: vector!, embedder };
  }

  /** The account's names for the pseudonyms in `texts`, to show claims to their owner as written. */
  async function namesIn(accountId: string, texts: readonly string[]): Promise<ReadonlyMap<string, string>> {
    return deps.names ? deps.names.wordsFor(accountId, texts) : new Map();
  }

  function checkDrift(expected: string | undefined, current: string): void {
    if (expected !== undefined && expected !== current) {
      throw new AppError('STATE_DRIFT', 'The ledger changed since the expected state: re-read it and retry', {
        details: { expected_state_hash: expected, state_hash: current },
      });
    }
  }

  /** Removes claims from search (vector and full-text indexes) while their history stays. */
  async function retire(trx: Transaction<Database>, rowkeys: number[]): Promise<void> {
    await deps.vectors.remove(trx, rowkeys);
    await deps.fullText.remove(trx, rowkeys);
    await repo.deleteVectors(trx, rowkeys);
  }

  interface Prepared {
    input: StoreInput;
    text: string;
    normalized: string;
    source: string;
    scrubbed: Partial<Record<PiiType, number>>;
    /** The pseudonyms made for the claim and its source, with their words (never stored in plain text). */
    names: Array<{ pseudonym: string; word: string }>;
    vector: Float32Array;
  }

  /** Scrubs before anything else sees the text, then embeds the scrubbed claims in one call. */
  async function prepare(
    inputs: readonly StoreInput[],
    options: ScrubOptions,
  ): Promise<{ prepared: Prepared[]; embedder: Embedder }> {
    const turn = eventLoopTurns();
    const scrubbed = [];
    for (const [i, input] of inputs.entries()) {
      await turn();
      const claim = scrub(input.claim, options);
      const source = scrub(input.source, options);
      const text = claim.text.trim();
      if (text.length === 0) {
        throw Errors.validation(inputs.length === 1 ? 'claim is empty' : `claims[${i}].claim is empty`);
      }
      scrubbed.push({
        input,
        text,
        normalized: normalizeClaim(text),
        source: source.text,
        scrubbed: scrubbedCounts(claim.found, source.found),
        names: [...claim.names, ...source.names],
      });
    }
    const embedder = await deps.embedder();
    const vectors = await embedder.embed(scrubbed.map((p) => p.text));
    return { prepared: scrubbed.map((p, i) => ({ ...p, vector: vectors[i]! })), embedder };
  }

  interface Candidate {
    row: ClaimRow;
    cosine: number;
  }

  /** The stored claims most like a new one, above the embedder's gate, checked for contradictions. */
  function conflictsAmong(text: string, candidates: readonly Candidate[], floor: number) {
    const found = findConflicts(
      text,
      [...candidates]
        .filter((c) => c.cosine >= floor)
        .sort((a, b) => b.cosine - a.cosine || a.row.rowkey - b.row.rowkey)
        .slice(0, CONFLICT_CANDIDATES + SUBJECT_CANDIDATES)
        .map((c) => ({ id: c.row.id, text: c.row.claim, similarity: c.cosine, row: c.row })),
    );
    const conflicts: ReportedConflict[] = found.map((f) => ({
      id: f.claim.row.id,
      short_id: f.claim.row.short_id,
      claim: f.claim.row.claim,
      confidence: f.claim.row.confidence,
      similarity: Math.round(f.similarity * 1e4) / 1e4,
      kind: f.kind,
      reason: f.reason,
    }));
    return { found, conflicts };
  }

  function rejectIfConflicting(onConflict: OnConflict, conflicts: ReportedConflict[], item?: number): void {
    if (onConflict === 'reject' && conflicts.length > 0) {
      throw new AppError(
        'CONFLICT_DETECTED',
        item === undefined
          ? `The claim contradicts ${conflicts.length} stored claim(s); nothing was stored`
          : `claims[${item}] contradicts ${conflicts.length} stored claim(s); nothing was stored`,
        { details: item === undefined ? { conflicts } : { item, conflicts } },
      );
    }
  }

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

  /**
   * Committed active claims nearest each vector (k-NN outside any transaction) and those naming
   * the same subject, as rows with their cosine.
   */
  async function committedCandidates(
    accountId: string,
    prepared: ReadonlyArray<{ text: string; vector: Float32Array }>,
    floor: number,
  ): Promise<Candidate[][]> {
    const vectors = prepared.map((p) => p.vector);
    // Only candidates at or above the gate are ever checked: the index may stop looking below it.
    let near: NearestHit[][] = [];
    if (deps.vectors.nearestMany) {
      near = await deps.vectors.nearestMany(accountId, vectors, CONFLICT_CANDIDATES, floor);
    } else {
      for (const v of vectors)
        near.push(await deps.vectors.nearest(accountId, v, CONFLICT_CANDIDATES, floor));
    }
    const subjects = await sameSubjectRowkeys(
      accountId,
      prepared.map((p) => p.text),
    );
    const missing = [...new Set(subjects.flat())].filter(
      (r) => !near.some((hits) => hits.some((h) => h.rowkey === r)),
    );
    const stored = await repo.vectorsByRowkeys(missing);
    near = near.map((hits, i) => {
      const seen = new Set(hits.map((h) => h.rowkey));
      const more = subjects[i]!.filter((r) => !seen.has(r) && stored.has(r)).map((r) => ({
        rowkey: r,
        cosine: dot(vectors[i]!, stored.get(r)!),
      }));
      return [...hits, ...more.filter((h) => h.cosine >= floor)];
    });
    const rows = new Map(
      (await repo.activeByRowkeys(accountId, [...new Set(near.flat().map((n) => n.rowkey))])).map((r) => [
        r.rowkey,
        r,
      ]),
    );
    return near.map((hits) =>
      hits.flatMap((h) => {
        const row = rows.get(h.rowkey);
        return row ? [{ row, cosine: h.cosine }] : [];
      }),
    );
  }

  /**
   * Rows of a transaction's new claims not written yet: `write` adds to them and `flush` inserts
   * them several per statement (before anything is retired, and before the transaction ends).
   */
  interface Pending {
    entries: EntryRow[];
    head: LedgerHead | undefined;
    versions: VersionRow[];
    vectors: Array<{ rowkey: number; accountId: string; vector: Float32Array }>;
    texts: Array<{ rowkey: number; text: string }>;
  }

  const pendingWrites = (): Pending => ({
    entries: [],
    head: undefined,
    versions: [],
    vectors: [],
    texts: [],
  });

  async function flush(trx: Transaction<Database>, accountId: string, pending: Pending): Promise<void> {
    const { entries, head, versions, vectors, texts } = pending;
    Object.assign(pending, pendingWrites());
    if (entries.length > 0) await repo.insertEntries(trx, entries);
    if (head) await repo.setHead(trx, accountId, head);
    if (versions.length > 0) await repo.insertVersions(trx, versions);
    if (vectors.length > 0) {
      await repo.putVectors(trx, vectors);
      await deps.vectors.add(trx, vectors);
    }
    if (texts.length > 0) await deps.fullText.add(trx, texts);
  }

  /** One claim to append: who stores it, after which head, and what the store decided about it. */
  interface ClaimWrite {
    accountId: string;
    actor: string;
    head: LedgerHead;
    prepared: Prepared;
    /** The active claim with the same normalized text, which this one becomes a new version of. */
    current: ClaimRow | undefined;
    superseded: readonly ClaimRow[];
    conflicts: readonly ReportedConflict[];
    at: string;
  }

  /**
   * Appends one claim after `head` inside the caller's transaction: ledger entries, claim row or
   * new version, vector and full-text index, superseded claims. Returns the new head and the audit
   * events for the caller to append (once per transaction).
   */
  async function write(
    trx: Transaction<Database>,
    pending: Pending,
    step: ClaimWrite,
  ): Promise<{
    head: LedgerHead;
    result: StoreResult;
    row: ClaimRow;
    audit: AuditEvents;
    events: PendingEvent[];
  }> {
    const { accountId, actor, head, prepared: p, current, superseded, conflicts, at } = step;
    const id = current?.id ?? randomUUID();
    const short = current?.short_id ?? shortId();
    const version = (current?.version ?? 0) + 1;
    const { input, text } = p;
    const entries: EntryInput[] = [
      { at, op: 'store', claim_id: id, version, claim: text, source: p.source, confidence: input.confidence },
    ];
    for (const old of superseded) entries.push({ at, op: 'supersede', claim_id: old.id, by: id });
    const { head: next, seqs, rows } = chainEntries(accountId, head, entries);
    pending.entries.push(...rows);
    pending.head = next;

    const fields: Omit<ClaimRow, 'rowkey'> = {
      id,
      account_id: accountId,
      short_id: short,
      claim: text,
      normalized: p.normalized,
      source: p.source,
      confidence: input.confidence,
      version,
      status: 'active',
      created_at: current?.created_at ?? at,
      updated_at: at,
    };
    let rowkey: number;
    if (current) {
      rowkey = current.rowkey;
      await repo.updateClaim(trx, id, {
        claim: text,
        source: p.source,
        confidence: input.confidence,
        version,
        updated_at: at,
      });
      // Whatever was written for this claim earlier in the transaction must be in place to retire.
      await flush(trx, accountId, pending);
      await retire(trx, [rowkey]);
    } else {
      rowkey = await repo.insertClaim(trx, fields);
    }
    pending.versions.push({
      claim_id: id,
      account_id: accountId,
      version,
      claim: text,
      source: p.source,
      confidence: input.confidence,
      created_at: at,
      ledger_seq: seqs[0]!,
    });
    await deps.names?.record(trx, accountId, p.names, at);
    pending.vectors.push({ rowkey, accountId, vector: p.vector });
    pending.texts.push({ rowkey, text });
    if (superseded.length > 0) {
      await flush(trx, accountId, pending);
      for (const old of superseded)
        await repo.updateClaim(trx, old.id, { status: 'superseded', updated_at: at });
      await retire(
        trx,
        superseded.map((s) => s.rowkey),
      );
    }
    const audit: AuditEvents = [
      {
        accountId,
        actor,
        action: 'claim.stored',
        target: id,
        // The contradicted claims by id, so a reader (the console) can name them, not only count them.
        details: {
          version,
          conflicts: conflicts.length,
          ...(conflicts.length > 0 && { contradicts: conflicts.map((c) => c.id) }),
        },
        at,
      },
      ...superseded.map((s) => ({
        accountId,
        actor,
        action: 'claim.superseded',
        target: s.id,
        details: { by: id },
        at,
      })),
    ];
    // Webhook subscribers hear of contradictions the ledger kept or superseded (a rejected store
    // writes nothing, and its 409 already told the caller).
    const events: PendingEvent[] =
      conflicts.length === 0
        ? []
        : [
            {
              accountId,
              type: 'claim.conflict_detected',
              data: {
                claim_id: id,
                short_id: short,
                version,
                on_conflict: superseded.length > 0 ? 'supersede' : 'keep',
                conflicts: conflicts.map((c) => ({
                  id: c.id,
                  short_id: c.short_id,
                  kind: c.kind,
                  similarity: c.similarity,
                  confidence: c.confidence,
                })),
              },
              at: new Date(at),
            },
          ];
    return {
      head: next,
      audit,
      events,
      result: {
        id,
        short_id: short,
        version,
        claim: text,
        fact: factView(text),
        conflicts: [...conflicts],
        superseded: superseded.map((s) => s.id),
        state_hash: next.state_hash,
        scrubbed: p.scrubbed,
        created_at: fields.created_at,
      },
      row: { rowkey, ...fields },
    };
  }

  return {
    async store(
      accountId: string,
      actor: string,
      input: StoreInput,
      options: { remember?: (trx: Transaction<Database>, result: StoreResult) => Promise<void> } = {},
    ): Promise<StoreResult> {
      const {
        prepared: [p],
        embedder,
      } = await prepare([input], await scrubOptionsOf(accountId));
      const { text, normalized, vector } = p!;

      // Contradiction candidates: the most similar active claims about the same subject.
      const existing = await repo.findActiveByNormalized(accountId, normalized);
      const floor = conflictCandidateFloor(embedder.id);
      const [near] = await committedCandidates(accountId, [{ text, vector }], floor);
      const { found, conflicts } = conflictsAmong(
        text,
        near!.filter((c) => c.row.rowkey !== existing?.rowkey),
        floor,
      );
      const onConflict = input.on_conflict ?? 'keep';
      rejectIfConflicting(onConflict, conflicts);

      const at = now().toISOString();
      return repo.transaction(async (trx) => {
        const head = await repo.lockHead(trx, accountId);
        checkDrift(input.expected_state_hash, head.state_hash);
        // Re-read under the lock: a concurrent store of the same claim must become a version of it.
        const current = await repo.findActiveByNormalized(accountId, normalized, trx);
        const superseded = onConflict === 'supersede' ? found.map((f) => f.claim.row) : [];
        const pending = pendingWrites();
        const { result, audit, events } = await write(trx, pending, {
          accountId,
          actor,
          head,
          prepared: p!,
          current,
          superseded,
          conflicts,
          at,
        });
        await flush(trx, accountId, pending);
        await deps.audit.appendIn(trx, audit);
        await emitEvents(trx, events);
        await options.remember?.(trx, result);
        return result;
      });
    },

    /**
     * Stores claims in order in one transaction: each is scrubbed, checked for contradictions
     * (against the stored claims and the batch's earlier claims), and chained like `store` does
     * it, but the commit, the lock and the embedding are paid once per batch. All or nothing: a
     * claim refused by `on_conflict: reject` (409 naming its index) or a stale
     * `expected_state_hash` stores none of them. `remember` runs in the same transaction, as for
     * `store` (the idempotent answer commits with the claims or not at all).
     */
    async storeMany(
      accountId: string,
      actor: string,
      inputs: readonly StoreInput[],
      options: {
        expected_state_hash?: string;
        remember?: (trx: Transaction<Database>, results: StoreResult[]) => Promise<void>;
      } = {},
    ): Promise<StoreResult[]> {
      if (inputs.length === 0) return [];
      const { prepared, embedder } = await prepare(inputs, await scrubOptionsOf(accountId));
      const floor = conflictCandidateFloor(embedder.id);
      const committed = await committedCandidates(accountId, prepared, floor);
      const at = now().toISOString();
      return repo.transaction(async (trx) => {
        let head = await repo.lockHead(trx, accountId);
        checkDrift(options.expected_state_hash, head.state_hash);
        // Claims written (or rewritten) by this batch, and claims it took out of search.
        const written = new Map<number, { row: ClaimRow; vector: Float32Array }>();
        // Their vectors as posting lists: only the components a claim shares with them are multiplied.
        const writtenVectors = new AccountPostings();
        const retired = new Set<number>();
        const results: StoreResult[] = [];
        const audit: AuditEvents = [];
        const events: PendingEvent[] = [];
        const pending = pendingWrites();
        // The active claim per normalized text, read once and then kept up to date with the batch's writes.
        const active = await repo.activeByNormalized(
          trx,
          accountId,
          prepared.map((p) => p.normalized),
        );
        const turn = eventLoopTurns();
        for (let i = 0; i < prepared.length; i++) {
          // Other requests wait for the connection, not for the event loop (SQLite answers synchronously).
          await turn();
          const p = prepared[i]!;
          const current = active.get(p.normalized);
          const candidates: Candidate[] = committed[i]!.filter((c) => !written.has(c.row.rowkey));
          // Every earlier claim of the batch at or above the gate (below it, none is ever checked).
          for (const hit of writtenVectors.scanAll(p.vector, written.size, floor))
            candidates.push({ row: written.get(hit.rowkey)!.row, cosine: hit.cosine });
          const eligible = candidates.filter(
            (c) => !retired.has(c.row.rowkey) && c.row.rowkey !== current?.rowkey,
          );
          const { found, conflicts } = conflictsAmong(p.text, eligible, floor);
          const onConflict = p.input.on_conflict ?? 'keep';
          rejectIfConflicting(onConflict, conflicts, i);
          const superseded = onConflict === 'supersede' ? found.map((f) => f.claim.row) : [];
          const done = await write(trx, pending, {
            accountId,
            actor,
            head,
            prepared: p,
            current,
            superseded,
            conflicts,
            at,
          });
          head = done.head;
          for (const s of superseded)
            if (active.get(s.normalized)?.rowkey === s.rowkey) active.delete(s.normalized);
          active.set(p.normalized, done.row);
          written.set(done.row.rowkey, { row: done.row, vector: p.vector });
          writtenVectors.put(done.row.rowkey, p.vector);
          for (const s of superseded) retired.add(s.rowkey);
          results.push(done.result);
          audit.push(...done.audit);
          events.push(...done.events);
        }
        await flush(trx, accountId, pending);
        await deps.audit.appendIn(trx, audit);
        await emitEvents(trx, events);
        await options.remember?.(trx, results);
        return results;
      });
    },

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

    /**
     * Forgets a person (crypto-shredding): the rows mapping the pseudonyms of `name`'s words to
     * those words are deleted. Claims, their versions and the chain keep the pseudonyms, so the
     * chain still verifies, and nothing the service holds turns them back into the name. Returns
     * how many claims mention the name; the audit entry holds the counts, not the name.
     */
    async forget(accountId: string, actor: string, name: string): Promise<{ claims: number; words: number }> {
      const pseudonyms = [...new Set(pseudonymWords(name.trim(), accountId).map((w) => w.pseudonym))];
      if (pseudonyms.length === 0) throw Errors.validation('name holds no word of two letters or more');
      const at = now().toISOString();
      return repo.transaction(async (trx) => {
        const claims = await repo.countMentioning(trx, accountId, pseudonyms);
        const words = deps.names ? await deps.names.forget(trx, accountId, pseudonyms) : 0;
        await deps.audit.appendIn(trx, [
          {
            accountId,
            actor,
            action: 'subject.forgotten',
            target: accountId,
            details: { claims, words },
            at,
          },
        ]);
        return { claims, words };
      });
    },

    async remove(
      accountId: string,
      actor: string,
      ref: string,
      expectedStateHash?: string,
    ): Promise<{ state_hash: string }> {
      const claim = await repo.findClaim(accountId, ref);
      if (!claim || claim.status === 'deleted') throw Errors.notFound('Claim');
      const at = now().toISOString();
      return repo.transaction(async (trx) => {
        const head = await repo.lockHead(trx, accountId);
        checkDrift(expectedStateHash, head.state_hash);
        const { head: next } = await repo.append(trx, accountId, head, [
          { at, op: 'delete', claim_id: claim.id },
        ]);
        await repo.updateClaim(trx, claim.id, { status: 'deleted', updated_at: at });
        if (claim.status === 'active') await retire(trx, [claim.rowkey]);
        await deps.audit.appendIn(trx, [
          { accountId, actor, action: 'claim.deleted', target: claim.id, details: {}, at },
        ]);
        return { state_hash: next.state_hash };
      });
    },

    async state(accountId: string) {
      const head = await repo.head(accountId);
      return { state_hash: head.state_hash, entries: head.seq };
    },

    currentStateHash: async (accountId: string) => (await repo.head(accountId)).state_hash,

    /** The account's names for the pseudonyms in `texts`: what its export and console show. */
    namesIn,

    /**
     * Re-walks the account's chain: every entry must link to the one before and hash to its
     * stored state hash, and every stored version must say what its entry says. Names the first
     * entry where either fails.
     */
    async verify(accountId: string) {
      let previous = GENESIS_HASH;
      let expectedSeq = 1;
      const pageSize = 1000;
      const bad = (seq: number, reason: string) => ({
        valid: false as const,
        entries: seq - 1,
        first_bad_seq: seq,
        reason,
      });
      for (;;) {
        const page = await repo.entries(accountId, expectedSeq - 1, pageSize);
        for (const row of page) {
          if (row.seq !== expectedSeq) return bad(expectedSeq, 'an entry is missing');
          if (row.prev_hash !== previous) return bad(row.seq, 'the entry does not link to the one before it');
          let entry: LedgerEntry;
          try {
            entry = JSON.parse(row.entry) as LedgerEntry;
          } catch {
            return bad(row.seq, 'the entry is not valid JSON');
          }
          if (entry.seq !== row.seq || chainHash(previous, entry) !== row.state_hash) {
            return bad(row.seq, 'the entry does not match its state hash');
          }
          if (entry.op === 'store') {
            const version = await repo.versionAt(accountId, row.seq);
            if (
              !version ||
              version.claim_id !== entry.claim_id ||
              version.claim !== entry.claim ||
              version.source !== entry.source ||
              Number(version.confidence) !== entry.confidence ||
              Number(version.version) !== entry.version
            ) {
              return bad(row.seq, 'the stored claim version differs from what the ledger recorded');
            }
          }
          previous = row.state_hash;
          expectedSeq += 1;
        }
        if (page.length < pageSize) break;
      }
      const head = await repo.head(accountId);
      if (head.seq !== expectedSeq - 1 || head.state_hash !== previous) {
        return bad(expectedSeq, 'entries are missing at the end of the chain');
      }
      return { valid: true as const, entries: expectedSeq - 1, state_hash: previous };
    },

    /**
     * Sentences of `text` that contradict the account's relevant active claims (verdict and
     * judgment engines). Bounded at any length (ledger README, "Budgets"): the text is read in
     * passages of at most `SEGMENT_WINDOW` characters, each scrubbed and checked in turn. A text
     * longer than one passage is checked on the text-check thread (or, until it is ready, here
     * with a turn for the event loop every `TEXT_CHECK_SLICE_MS`). The facts are those a search finds for
     * the first passage and, when there is more, the account's `LONG_TEXT_FACTS` most recent
     * claims: a contradiction at the end of a long text is found like one at its start. A text
     * over `TEXT_CHECK_MAX_CHARS`, or one that would take more than `TEXT_CHECK_MAX_WORK`, is
     * answered with `unchecked` instead of a stall.
     */
    async checkText(
      accountId: string,
      text: string,
    ): Promise<TextCheckOutcome<{ id: string; text: string }>> {
      if (text.length > TEXT_CHECK_MAX_CHARS) {
        return {
          conflicts: [],
          unchecked: `the text is ${text.length} characters long; the ledger checks texts of at most ${TEXT_CHECK_MAX_CHARS}: send it in parts`,
        };
      }
      if ((await repo.head(accountId)).seq === 0) return { conflicts: [] };
      void warmTextCheckThread();
      const passages = passagesOf(text);
      const first = passages.next();
      if (first.done) return { conflicts: [] };
      // Scrubbed as the account's claims were: a name is the same pseudonym in the text and the facts.
      const scrubOptions = await scrubOptionsOf(accountId);
      const scrubbedOpening = scrub(text.slice(first.value.start, first.value.end), scrubOptions);
      const opening = scrubbedOpening.text;
      // Reads on SQLite do not give the event loop a turn by themselves.
      await new Promise<void>((resolve) => setImmediate(resolve));
      const { vector } = await embedOne(opening);
      const [nearest, lexical] = await Promise.all([
        deps.vectors.nearest(accountId, vector, 20),
        deps.fullText.search(accountId, opening, 20),
      ]);
      const sentences = [...sentencesOf(opening)].slice(0, SUBJECT_SENTENCES).map((s) => s.sentence);
      const subjects = (await sameSubjectRowkeys(accountId, sentences)).flat();
      const rows = await repo.activeByRowkeys(accountId, [
        ...new Set([...[...nearest, ...lexical].map((h) => h.rowkey), ...subjects]),
      ]);
      const facts = rows.map((r) => ({ id: r.id, text: r.claim }));
      let outcome: { conflicts: TextConflict[]; exhausted: boolean };
      if (first.value.end < text.length) {
        const found = new Set(rows.map((r) => r.rowkey));
        for (const row of await repo.recentActive(accountId, LONG_TEXT_FACTS))
          if (!found.has(row.rowkey)) facts.push({ id: row.id, text: row.claim });
        outcome = await checkLongText(text, facts, TEXT_CHECK_SLICE_MS, scrubOptions);
      } else {
        const checker = new TextFactChecker(facts);
        checker.scrubbed(first.value.end - first.value.start, scrubbedOpening.found.PHONE);
        outcome = { exhausted: !checker.check(opening), conflicts: checker.conflicts };
      }
      const { conflicts, exhausted } = outcome;
      if (!exhausted) return { conflicts };
      return {
        conflicts,
        unchecked: `the text needs more comparisons with the ledger's facts than one check may make (${TEXT_CHECK_MAX_WORK}); the rest was not checked: send it in parts`,
      };
    },
  };
}

export type LedgerService = ReturnType<typeof createLedgerService>;
export type { ClaimRow };
