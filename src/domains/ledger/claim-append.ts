import { randomBytes, randomUUID } from 'node:crypto';
import type { Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { AuditRepo } from '../audit/index.ts';
import type { PendingEvent } from '../webhooks/index.ts';
import type { ReportedConflict, StoreInput, StoreResult } from './claim-types.ts';
import { factView } from './conflicts/fact.ts';
import type { LedgerContext } from './ledger-context.ts';
import type { PiiType } from './pii/scrubber.ts';
import {
  type ClaimRow,
  chainEntries,
  type EntryInput,
  type EntryRow,
  type LedgerHead,
  type VersionRow,
} from './repo.ts';

export type AuditEvents = Parameters<AuditRepo['appendIn']>[1][number][];

const SHORT_ID_ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

function shortId(): string {
  let id = 'c';
  for (const byte of randomBytes(11)) id += SHORT_ID_ALPHABET[byte % 62];
  return id;
}

/** A claim scrubbed and embedded, ready to be checked and appended. */
export interface Prepared {
  input: StoreInput;
  text: string;
  normalized: string;
  source: string;
  scrubbed: Partial<Record<PiiType, number>>;
  /** The pseudonyms made for the claim and its source, with their words (never stored in plain text). */
  names: Array<{ pseudonym: string; word: string }>;
  vector: Float32Array;
}

/**
 * Rows of a transaction's new claims not written yet: `write` adds to them and `flush` inserts
 * them several per statement (before anything is retired, and before the transaction ends).
 */
export interface Pending {
  entries: EntryRow[];
  head: LedgerHead | undefined;
  versions: VersionRow[];
  vectors: Array<{ rowkey: number; accountId: string; vector: Float32Array }>;
  texts: Array<{ rowkey: number; text: string }>;
}

/** One claim to append: who stores it, after which head, and what the store decided about it. */
export interface ClaimWrite {
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
 * The append step of every claim write, inside the caller's transaction: rows are gathered in a
 * `Pending` and flushed several per statement; claims leave search by `retire`.
 */
export function createClaimAppender({ deps, repo }: LedgerContext) {
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

  /** Removes claims from search (vector and full-text indexes) while their history stays. */
  async function retire(trx: Transaction<Database>, rowkeys: number[]): Promise<void> {
    await deps.vectors.remove(trx, rowkeys);
    await deps.fullText.remove(trx, rowkeys);
    await repo.deleteVectors(trx, rowkeys);
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

  return { pendingWrites, flush, write, retire };
}
