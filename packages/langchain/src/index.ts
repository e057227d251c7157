import {
  type Arbiter,
  type GuardDecision,
  type MappedCall,
  mapToolCall,
  resolveRelativePaths,
  type ToolCall,
} from '@arbiter/sdk';
import { interrupt } from '@langchain/langgraph';
import { createMiddleware, type HITLRequest, type HITLResponse, ToolMessage } from 'langchain';

export interface ArbiterMiddlewareOptions {
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
 * A `createAgent` middleware (`wrapToolCall`): every tool call is judged before the tool runs.
 * Refused → the tool does not run; the model gets an error `ToolMessage` with the code.
 * ESCALATE, or a call Arbiter does not recognise (code `UNRECOGNISED`) → the run is interrupted
 * with a human-in-the-loop request (the same shape as `humanInTheLoopMiddleware`) whose
 * description says why, resumed with `new Command({ resume: { decisions: [{ type: 'approve' }] } })`
 * or `reject`. Needs a checkpointer, as every interrupt does.
 */
export function arbiterMiddleware(arbiter: Arbiter, options: ArbiterMiddlewareOptions = {}) {
  const map = (call: ToolCall): MappedCall =>
    options.map
      ? resolveRelativePaths(options.map(call), options.cwd)
      : mapToolCall(call, { cwd: options.cwd });
  // A resumed run calls the hook again: the call is judged once per tool call id in this process.
  const decisions = new Map<string, Promise<GuardDecision>>();

  return createMiddleware({
    name: 'ArbiterMiddleware',
    wrapToolCall: async (request, handler) => {
      const { toolCall } = request;
      const id = toolCall.id ?? '';
      const refuse = (code: string, reason: string) =>
        new ToolMessage({
          content: `Arbiter refused ${toolCall.name}: ${code}: ${reason}`,
          tool_call_id: id,
          name: toolCall.name,
          status: 'error',
        });

      let pending = id ? decisions.get(id) : undefined;
      if (!pending) {
        const call = { name: toolCall.name, args: asArgs(toolCall.args) };
        pending = arbiter.check(call, map(call));
        if (id) decisions.set(id, pending);
      }
      const decision = await pending;
      if (decision.decision === 'deny') {
        decisions.delete(id);
        return refuse(decision.code ?? 'DENIED', decision.reason);
      }
      if (decision.decision === 'ask') {
        const review: HITLRequest = {
          actionRequests: [
            {
              name: toolCall.name,
              args: asArgs(toolCall.args),
              description:
                decision.evaluationId === undefined
                  ? `Arbiter asks before this call runs (${decision.code ?? 'ASK'}): ${decision.reason}`
                  : `Arbiter escalated this call (${decision.code ?? 'ESCALATE'}): ${decision.reason}`,
            },
          ],
          reviewConfigs: [{ actionName: toolCall.name, allowedDecisions: ['approve', 'reject'] }],
        };
        const answer = interrupt(review) as HITLResponse | undefined;
        decisions.delete(id);
        const verdict = answer?.decisions?.[0];
        if (verdict?.type !== 'approve') {
          const message =
            verdict?.type === 'reject' && verdict.message ? verdict.message : 'a human did not approve';
          return refuse(decision.evaluationId === undefined ? 'NOT_APPROVED' : 'ESCALATION_DENIED', message);
        }
      } else {
        decisions.delete(id);
      }
      return handler(request);
    },
  });
}
