import type { Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { AppError, Errors } from '../../errors.ts';
import { emitEvents, type PendingEvent } from '../webhooks/index.ts';
import { type AuditEvents, createClaimAppender, type Prepared } from './claim-append.ts';
import type { OnConflict, ReportedConflict, StoreInput, StoreResult } from './claim-types.ts';
import { conflictCandidateFloor, findConflicts } from './conflicts.ts';
import type { Embedder } from './embeddings/embedder.ts';
import { type LedgerContext, SUBJECT_CANDIDATES } from './ledger-context.ts';
import { type PiiType, pseudonymWords, type ScrubOptions, scrub } from './pii/scrubber.ts';
import type { ClaimRow } from './repo.ts';
import { AccountPostings } from './storage/sparse-scan.ts';
import type { NearestHit } from './storage/vector-index.ts';
import { dot } from './storage/vectors.ts';

/** How many stored claims most like a new one are checked for contradictions. */
export const CONFLICT_CANDIDATES = 10;
/** Longest run of a batch's work (scrubbing, checks, SQLite writes) between two turns of the event loop. */
export const BATCH_SLICE_MS = 20;

/** Case, spacing, Unicode form and end punctuation do not make a different claim. */
export function normalizeClaim(text: string): string {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/[\s.!?;:,]+$/u, '');
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

/** Writing claims: one or a batch (scrubbed, checked for contradictions, chained), deleting one, forgetting a name. */
export function createClaimWrites(ctx: LedgerContext) {
  const { deps, repo, now, scrubOptionsOf, sameSubjectRowkeys } = ctx;
  const { pendingWrites, flush, write, retire } = createClaimAppender(ctx);

  function checkDrift(expected: string | undefined, current: string): void {
    if (expected !== undefined && expected !== current) {
      throw new AppError('STATE_DRIFT', 'The ledger changed since the expected state: re-read it and retry', {
        details: { expected_state_hash: expected, state_hash: current },
      });
    }
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
  };
}
