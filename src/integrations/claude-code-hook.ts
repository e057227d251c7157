import path from 'node:path';
import {
  type Arbiter,
  ArbiterError,
  type GuardDecision,
  type MappedCall,
  resolveRelativePaths,
} from '@arbiter/sdk';

/**
 * What a Claude Code `PreToolUse` hook prints on stdout: a permission decision, or only a message
 * for the user (`systemMessage`), in which case Claude Code's own permission rules decide.
 */
export interface PreToolUseOutput {
  hookSpecificOutput?: {
    hookEventName: 'PreToolUse';
    permissionDecision: 'allow' | 'deny' | 'ask';
    permissionDecisionReason: string;
  };
  systemMessage?: string;
}

export interface PreToolUseOptions {
  /**
   * Answer `allow` for a call Arbiter judges safe and recognises, which skips Claude Code's own
   * permission prompts. By default such a call gets no decision, and those prompts apply.
   */
  allowSafe?: boolean;
}

const str = (value: unknown): string => (typeof value === 'string' ? value : '');

/** Claude Code's built-in tools, by name; any other tool (MCP tools included) goes to the judgment engine. */
export function mapClaudeCodeTool(toolName: string, input: Record<string, unknown>): MappedCall {
  switch (toolName) {
    case 'Bash':
      return { kind: 'verdict', action: 'shell.exec', payload: { command: str(input.command) } };
    case 'Read':
      return { kind: 'verdict', action: 'fs.read', payload: { path: str(input.file_path) } };
    case 'Write':
      return {
        kind: 'verdict',
        action: 'fs.write',
        payload: { path: str(input.file_path), content: str(input.content) },
      };
    case 'Edit':
      return {
        kind: 'verdict',
        action: 'fs.write',
        payload: { path: str(input.file_path), content: str(input.new_string) },
      };
    case 'MultiEdit': {
      const edits = Array.isArray(input.edits) ? input.edits : [];
      const content = edits.map((e) => str((e as { new_string?: unknown } | null)?.new_string)).join('\n');
      return { kind: 'verdict', action: 'fs.write', payload: { path: str(input.file_path), content } };
    }
    case 'WebFetch':
      return { kind: 'verdict', action: 'http.request', payload: { url: str(input.url) } };
    default:
      return { kind: 'judgment', action_type: toolName, payload: input };
  }
}

function output(decision: GuardDecision['decision'], reason: string): PreToolUseOutput {
  return {
    hookSpecificOutput: {
      hookEventName: 'PreToolUse',
      permissionDecision: decision,
      permissionDecisionReason: reason,
    },
  };
}

/**
 * Decides one `PreToolUse` event: deny an unsafe verdict or a BLOCKED judgment; ask the person on
 * ESCALATE and on a call Arbiter does not recognise; no decision (undefined) on the rest, so that
 * Claude Code's own permission rules apply, or `allow` with `allowSafe`. Arbiter loosens nothing
 * by itself: monitor mode and a fail-open outage only tell the user (`systemMessage`). Unreadable
 * input is denied: a hook that cannot tell must not let it through. Relative paths are judged from
 * the event's `cwd` (this process's when it has none).
 */
export async function decidePreToolUse(
  arbiter: Arbiter,
  stdin: string,
  options: PreToolUseOptions = {},
): Promise<PreToolUseOutput | undefined> {
  let event: { tool_name?: unknown; tool_input?: unknown; cwd?: unknown };
  try {
    event = JSON.parse(stdin) as typeof event;
  } catch {
    return output('deny', 'Arbiter: the hook input is not JSON');
  }
  if (typeof event?.tool_name !== 'string' || event.tool_name === '') {
    return output('deny', 'Arbiter: the hook input has no tool_name');
  }
  const input =
    event.tool_input && typeof event.tool_input === 'object'
      ? (event.tool_input as Record<string, unknown>)
      : {};
  // Claude Code's tools read relative paths from the session's directory, which the event carries
  // (the hook itself runs there too): Arbiter judges them there, not in a workspace of its own.
  const cwd = path.resolve(typeof event.cwd === 'string' ? event.cwd : '');
  const mapped = resolveRelativePaths(mapClaudeCodeTool(event.tool_name, input), cwd);
  let decision: GuardDecision;
  try {
    // The session's directory is where the agent works: Arbiter judges paths relative to it.
    const context = typeof event.cwd === 'string' ? { workspace: cwd } : undefined;
    decision = await arbiter.check({ name: event.tool_name, args: input }, mapped, context);
  } catch (err) {
    // The service answered with an error (a revoked key, a refused request): not a safe answer.
    const what = err instanceof ArbiterError ? `${err.code}: ${err.message}` : String(err);
    return output('deny', `Arbiter: ${what}`);
  }
  const what = mapped.kind === 'verdict' ? mapped.action : `${mapped.action_type} (judgment)`;
  if (decision.decision !== 'allow')
    return output(decision.decision, `Arbiter on ${what}: ${said(decision)}`);
  // Monitor mode: what enforcement would have decided is only told.
  const enforced = decision.enforced;
  if (enforced !== undefined && enforced.decision !== 'allow') {
    return {
      systemMessage: `Arbiter (monitor mode) would ${enforced.decision} ${event.tool_name}: ${said(enforced)}`,
    };
  }
  if (decision.code === 'UNREACHABLE') {
    return {
      systemMessage: `Arbiter on ${what}: ${said(decision)}: Claude Code's own permission rules decide`,
    };
  }
  return options.allowSafe ? output('allow', `Arbiter on ${what}: ${said(decision)}`) : undefined;
}

function said(decision: Pick<GuardDecision, 'code' | 'reason'>): string {
  return decision.code ? `${decision.code}: ${decision.reason}` : decision.reason;
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** `arbiter hook claude-code`: reads the event on stdin, prints the decision (or nothing), exits 0. */
export async function runClaudeCodeHook(options: {
  failOpen?: boolean;
  monitor?: boolean;
  allowSafe?: boolean;
  actor: string;
}): Promise<void> {
  const { arbiterFromEnv } = await import('./client-from-env.ts');
  const arbiter = arbiterFromEnv(process.env, {
    failMode: options.failOpen ? 'open' : 'closed',
    mode: options.monitor ? 'monitor' : 'enforce',
    actor: options.actor,
    timeoutMs: 5000,
    retries: 1,
  });
  const answer = await decidePreToolUse(arbiter, await readStdin(), {
    allowSafe: options.allowSafe === true,
  });
  if (answer !== undefined) process.stdout.write(`${JSON.stringify(answer)}\n`);
}
