import {
  type Arbiter,
  type GuardDecision,
  type MappedCall,
  mapToolCall,
  resolveRelativePaths,
  type ToolCall,
} from '@arbiter/sdk';
import type { Tool, ToolExecutionOptions, ToolSet } from 'ai';

/** Thrown in place of a refused tool's `execute`: the AI SDK hands it to the model as a tool error. */
export class ArbiterRefusal extends Error {
  readonly code: string;
  readonly decision: GuardDecision;

  constructor(tool: string, decision: GuardDecision) {
    super(`Arbiter refused ${tool}: ${decision.code ?? 'DENIED'}: ${decision.reason}`);
    this.name = 'ArbiterRefusal';
    this.code = decision.code ?? 'DENIED';
    this.decision = decision;
  }
}

export interface GuardToolsOptions {
  /** How a call is judged; by default by its argument names (see `mapToolCall` of @arbiter/sdk). */
  map?: (call: ToolCall) => MappedCall;
  /**
   * The directory the tools resolve relative paths against, by default this process's: a relative
   * fs path is judged as the file the tool will touch (see `resolveRelativePaths` of @arbiter/sdk).
   */
  cwd?: string;
}

const asArgs = (input: unknown): Record<string, unknown> =>
  input !== null && typeof input === 'object' && !Array.isArray(input)
    ? (input as Record<string, unknown>)
    : { input };

/**
 * Wraps every tool of a tool set: before `execute` runs, Arbiter judges the call. A refusal throws
 * `ArbiterRefusal` and the tool never runs; an escalation, or a call Arbiter does not recognise
 * (`ask`, code `UNRECOGNISED`), becomes the AI SDK's tool approval (`needsApproval`), so the call
 * waits for the application's approval response; the rest is left to the tool's own
 * `needsApproval`, and runs.
 */
export function guardTools<T extends ToolSet>(
  tools: T,
  arbiter: Arbiter,
  options: GuardToolsOptions = {},
): T {
  const map = (call: ToolCall): MappedCall =>
    options.map
      ? resolveRelativePaths(options.map(call), options.cwd)
      : mapToolCall(call, { cwd: options.cwd });
  // One judgment per tool call, shared by needsApproval and execute.
  const decisions = new Map<string, Promise<GuardDecision>>();
  const decide = (name: string, input: unknown, toolCallId: string) => {
    let decision = decisions.get(toolCallId);
    if (!decision) {
      const call = { name, args: asArgs(input) };
      decision = arbiter.check(call, map(call));
      decisions.set(toolCallId, decision);
    }
    return decision;
  };

  const guarded: Record<string, Tool> = {};
  for (const [name, tool] of Object.entries(tools) as Array<[string, Tool]>) {
    const execute = tool.execute;
    const own = tool.needsApproval;
    guarded[name] = {
      ...tool,
      needsApproval: async (
        input: unknown,
        approval: Parameters<Extract<Tool['needsApproval'], (...args: never) => unknown>>[1],
      ) => {
        if ((await decide(name, input, approval.toolCallId)).decision === 'ask') return true;
        return typeof own === 'function' ? own(input, approval) : (own ?? false);
      },
      ...(execute
        ? {
            execute: async (input: unknown, run: ToolExecutionOptions) => {
              const decision = await decide(name, input, run.toolCallId);
              decisions.delete(run.toolCallId);
              if (decision.decision === 'deny') throw new ArbiterRefusal(name, decision);
              // A call Arbiter asks about reaches execute only once the application approved it.
              return execute(input, run);
            },
          }
        : {}),
    } as Tool;
  }
  return guarded as T;
}
