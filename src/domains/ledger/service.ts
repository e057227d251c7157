import { verifyChain } from './chain-verify.ts';
import { createClaimReads } from './claim-reads.ts';
import { createTextCheck } from './claim-text-check.ts';
import { createClaimWrites } from './claim-writes.ts';
import { type LedgerServiceDeps, ledgerContext } from './ledger-context.ts';
import type { ClaimRow } from './repo.ts';

export { RERANK_CANDIDATES, type SearchHit } from './claim-reads.ts';
export { LONG_TEXT_FACTS, SUBJECT_SENTENCES, TEXT_CHECK_SLICE_MS } from './claim-text-check.ts';
export type { OnConflict, ReportedConflict, StoreInput, StoreResult } from './claim-types.ts';
export { BATCH_SLICE_MS, CONFLICT_CANDIDATES, normalizeClaim } from './claim-writes.ts';
export { type LedgerServiceDeps, SUBJECT_CANDIDATES } from './ledger-context.ts';

/**
 * The claim ledger: one hash-chained ledger per account. Vault uuids and ledger short ids name
 * the same claims. Every write scrubs personal data first, so nothing unscrubbed is stored,
 * embedded or hashed. Its parts: writes (`claim-writes.ts`, appending in `claim-append.ts`),
 * reads and search (`claim-reads.ts`), the chain's re-walk (`chain-verify.ts`) and the text check
 * (`claim-text-check.ts`).
 */
export function createLedgerService(deps: LedgerServiceDeps) {
  const ctx = ledgerContext(deps);
  return {
    ...createClaimWrites(ctx),
    ...createClaimReads(ctx),
    ...createTextCheck(ctx),
    verify: (accountId: string) => verifyChain(deps.repo, accountId),
  };
}

export type LedgerService = ReturnType<typeof createLedgerService>;
export type { ClaimRow };
