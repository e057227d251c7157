/**
 * What other code may use of the verdict engine: judging one action (the judgment gates), its
 * settings and findings, the SQL lexer (action kinds), the URL check (webhook targets) and the
 * ports its service reads the ledger through.
 */
export {
  type AgentContext,
  isEmptyContext,
  readAgentContext,
} from './agent-context.ts';
export { analyzeUrl, type EgressSettings } from './analyzers/egress.ts';
export type { PathContext } from './analyzers/paths.ts';
export { splitStatements, tokenizeSql } from './analyzers/sql-lexer.ts';
export { builtInValidator } from './catalog.ts';
export type { CatalogueContext } from './catalogue/index.ts';
export type { Finding, VerdictCode } from './codes.ts';
export { evaluateAction } from './engine.ts';
export type { ExecutionSettings } from './execution.ts';
export type { LoopStore } from './loop-detector.ts';
export type { AccountPolicy } from './policy.ts';
export { AgentContextSchema } from './schemas.ts';
export type { LedgerStatePort, LedgerTextPort, VerdictService } from './service.ts';
