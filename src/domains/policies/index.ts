/** What other code may use of policies: the Cedar vocabulary and compiled policies (the judgment gates). */
export {
  type ActionKind,
  type ActorRole,
  type CedarContext,
  type ImpactScope,
  TARGET_LIMIT,
} from './cedar-schema.ts';
export type { CompiledPolicy, GateVerdict, PolicyRequest } from './compiler.ts';
export { POLICY_TEXT_LIMIT } from './schemas.ts';
export type { PoliciesService } from './service.ts';
