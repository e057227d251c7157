export {
  type AgentContext,
  type Arbiter,
  type ArbiterOptions,
  createArbiter,
  type Effect,
  type Evaluation,
  type Fact,
  type FailMode,
  type GuardDecision,
  type JudgeInput,
  type Judgment,
  type Mode,
  type Recall,
  type Remembered,
  type RememberInput,
  UNRECOGNISED,
  type Verdict,
  type WaitOptions,
} from './client.ts';
export {
  ArbiterError,
  type ArbiterErrorCode,
  type ClientErrorCode,
  SERVICE_ERROR_CODES,
  type ServiceErrorCode,
} from './errors.ts';
export type { components, paths } from './generated/openapi.ts';
export {
  type MapOptions,
  type MappedCall,
  mapToolCall,
  resolveRelativePaths,
  type ToolCall,
  type VerdictAction,
} from './tool-calls.ts';
export { retryAfterMs } from './transport.ts';
export { verifyWebhook, type WebhookHeaders } from './webhooks.ts';
