/** Contradiction checks for the ledger (on store) and the verdict engine (agent text vs facts). */
export type {
  Conflict,
  ConflictKind,
  ConflictOptions,
  Fact,
  TextCheckOptions,
  TextConflict,
} from './conflicts/checker.ts';
export { checkTextAgainstFacts, detectConflict } from './conflicts/checker.ts';
