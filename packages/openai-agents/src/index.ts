import {
  type Arbiter,
  type GuardDecision,
  type MappedCall,
  mapToolCall,
  resolveRelativePaths,
  type ToolCall,
} from '@arbiter/sdk';
import {
  defineToolInputGuardrail,
  type FunctionTool,
  type RunContext,
  ToolGuardrailFunctionOutputFactory,
  type ToolInputGuardrailDefinition,
} from '@openai/agents';

// biome-ignore lint/suspicious/noExplicitAny: a guard wraps tools of any context, parameters and output.
type AnyFunctionTool = FunctionTool<any, any, any>;

export interface ArbiterGuardOptions {
  /** How a call is judged; by default by its argument names (see `mapToolCall` of @arbiter/sdk). */
  map?: (call: ToolCall) => MappedCall;
  /**
   * The directory the tools resolve relative paths against, by default this process's: a relative
   * fs path is judged as the file the tool will touch (see `resolveRelativePaths` of @arbiter/sdk).
   */
  cwd?: string;
}

export interface ArbiterGuard {
  /** A tool input guardrail: a refused call is answered to the model and never executed. */
  inputGuardrail: ToolInputGuardrailDefinition;
  /**
   * A `needsApproval` for the named tool: true when Arbiter asks a person about the call (an
   * escalation, or a call it does not recognise).
   */
  needsApproval(toolName: string): (context: RunContext, input: unknown, callId?: string) => Promise<boolean>;
  /**
   * The tool with both: Arbiter's guardrail after its own, and approval when Arbiter asks (ESCALATE,
   * not recognised) or by its own policy.
   */
  guard<T extends AnyFunctionTool>(tool: T): T;
}

const asArgs = (input: unknown): Record<string, unknown> =>
  input !== null && typeof input === 'object' && !Array.isArray(input)
    ? (input as Record<string, unknown>)
    : { input };

function parseArguments(text: string): Record<string, unknown> {
  try {
    return asArgs(JSON.parse(text));
  } catch {
    return { input: text };
  }
}

/**
 * Arbiter for OpenAI Agents JS. Each call is judged once (needsApproval and the guardrail share the
 * decision, by call id): refused → the guardrail rejects it and the model gets the reason;
 * ESCALATE, or a call Arbiter does not recognise → the run stops with an approval interruption;
 * otherwise the tool's own `needsApproval` decides, and the tool runs.
 */
export function arbiterGuard(arbiter: Arbiter, options: ArbiterGuardOptions = {}): ArbiterGuard {
  const map = (call: ToolCall): MappedCall =>
    options.map
      ? resolveRelativePaths(options.map(call), options.cwd)
      : mapToolCall(call, { cwd: options.cwd });
  const decisions = new Map<string, Promise<GuardDecision>>();
  const decide = (name: string, args: Record<string, unknown>, callId: string | undefined) => {
    const cached = callId === undefined ? undefined : decisions.get(callId);
    if (cached) return cached;
    const call = { name, args };
    const decision = arbiter.check(call, map(call));
    if (callId !== undefined) decisions.set(callId, decision);
    return decision;
  };

  const inputGuardrail = defineToolInputGuardrail({
    name: 'arbiter',
    run: async ({ toolCall }) => {
      const decision = await decide(toolCall.name, parseArguments(toolCall.arguments), toolCall.callId);
      decisions.delete(toolCall.callId);
      if (decision.decision === 'deny') {
        return ToolGuardrailFunctionOutputFactory.rejectContent(
          `Arbiter refused ${toolCall.name}: ${decision.code ?? 'DENIED'}: ${decision.reason}`,
          decision,
        );
      }
      // A call Arbiter asks about reaches its guardrail only after the run's approval.
      return ToolGuardrailFunctionOutputFactory.allow(decision);
    },
  });

  const needsApproval =
    (toolName: string) =>
    async (_context: RunContext, input: unknown, callId?: string): Promise<boolean> =>
      (await decide(toolName, asArgs(input), callId)).decision === 'ask';

  function guard<T extends AnyFunctionTool>(tool: T): T {
    const own = tool.needsApproval;
    const asks = needsApproval(tool.name);
    return {
      ...tool,
      inputGuardrails: [...(tool.inputGuardrails ?? []), inputGuardrail],
      needsApproval: async (context: RunContext, input: unknown, callId?: string) =>
        (await asks(context, input, callId)) || (await own(context, input as never, callId)),
    };
  }

  return { inputGuardrail, needsApproval, guard };
}
