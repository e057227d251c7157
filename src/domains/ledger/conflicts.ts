/** Contradiction checks for the ledger (on store) and the verdict engine (agent text vs facts). */
export type {
  Conflict,
  ConflictCandidate,
  ConflictKind,
  ConflictOptions,
  Fact,
  FoundConflict,
  TextCheckOptions,
  TextConflict,
} from './conflicts/checker.ts';
export {
  checkTextAgainstFacts,
  conflictCandidateFloor,
  detectConflict,
  findConflicts,
} from './conflicts/checker.ts';
