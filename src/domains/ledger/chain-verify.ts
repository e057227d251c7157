import { chainHash, GENESIS_HASH } from '../../db/chain.ts';
import type { LedgerEntry, LedgerRepo } from './repo.ts';

/**
 * Re-walks the account's chain: every entry must link to the one before and hash to its
 * stored state hash, and every stored version must say what its entry says. Names the first
 * entry where either fails.
 */
export async function verifyChain(
  repo: Pick<LedgerRepo, 'entries' | 'versionAt' | 'head'>,
  accountId: string,
) {
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
}
