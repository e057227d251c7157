/** What a store takes and answers, shared by the ledger service and its write path. */
import type { Static } from 'typebox';
import type { ConflictSchema, OnConflictSchema, StoreBody, StoreResponse } from './schemas.ts';

export type OnConflict = Static<typeof OnConflictSchema>;

export type ReportedConflict = Static<typeof ConflictSchema>;

/** One claim to store; `expected_state_hash` is read by `store` only (`storeMany` takes it once, in its options). */
export type StoreInput = Static<typeof StoreBody>;

/**
 * `created_at` (when the claim was first stored) is not in the response, which drops it, but it
 * is in the idempotent answer remembered with the claim, and so in the account's GDPR export.
 */
export type StoreResult = Static<typeof StoreResponse> & { created_at: string };
