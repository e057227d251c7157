/** Contradiction checks for the ledger (on store) and the verdict engine (agent text vs facts). */
export type {
  Conflict,
  ConflictCandidate,
  ConflictKind,
  ConflictOptions,
  FoundConflict,
} from './conflicts/checker.ts';
export { conflictCandidateFloor, detectConflict, findConflicts } from './conflicts/checker.ts';
export type { Fact, TextCheckOptions, TextCheckOutcome, TextConflict } from './conflicts/text-check.ts';
export {
  checkTextAgainstFacts,
  passagesOf,
  SEGMENT_WINDOW,
  TEXT_CHECK_MAX_CHARS,
  TEXT_CHECK_MAX_WORK,
  TextFactChecker,
} from './conflicts/text-check.ts';
export { warmTextCheckHere, warmTextCheckThread } from './conflicts/text-check-thread.ts';
