/** What other code may use of judgment: the stored evaluation, its view and the list cursor (the console). */
export { decodeCursor, encodeCursor } from './cursor.ts';
export type { EvaluationRow } from './repo.ts';
export { type EvaluationView, toView } from './views.ts';
