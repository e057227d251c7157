/**
 * The in-memory hybrid index is eval-only and lives in scripts/lib/memory-index.ts; this re-export
 * stays while ledger/service.ts still imports the constant from here.
 */
export { CANDIDATES_PER_SIDE } from './hybrid.ts';
