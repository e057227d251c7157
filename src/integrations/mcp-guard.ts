import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import {
  type Arbiter,
  ArbiterError,
  type GuardDecision,
  type MappedCall,
  mapToolCall,
  resolveRelativePaths,
} from '@arbiter/sdk';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { toolError } from './mcp-server.ts';

/**
 * The guard's configuration file. `tools` maps a tool name to a verdict action, with the payload
 * fields taken from the named arguments, or to the judgment engine under an action type of its own.
 */
export const GuardConfigSchema = z
  .object({
    actor: z.string().min(1).max(200).optional(),
    actor_role: z.enum(['user', 'admin', 'assistant']).optional(),
    impact_scope: z.enum(['internal', 'external', 'critical']).optional(),
    tools: z
      .record(
        z.string(),
        z.union([
          z
            .object({
              action: z.string().min(1),
              /** payload field → argument name; without it the arguments are the payload. */
              payload: z.record(z.string(), z.string()).optional(),
            })
            .strict(),
          z.object({ action_type: z.string().min(1).max(200) }).strict(),
        ]),
      )
      .default({}),
  })
  .strict();

export type GuardConfig = z.infer<typeof GuardConfigSchema>;

export function readGuardConfig(file: string): GuardConfig {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new Error(`cannot read the guard configuration ${file}: ${(err as Error).message}`);
  }
  const parsed = GuardConfigSchema.safeParse(raw);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`);
    throw new Error(`invalid guard configuration ${file}: ${problems.join('; ')}`);
  }
  return parsed.data;
}

/**
 * How a tool call is judged: the configuration's mapping first, then the argument names. Relative
 * paths are resolved against `cwd`, the wrapped server's working directory (see `resolveRelativePaths`
 * of @arbiter/sdk): the server reads `../../etc/shadow` from there, not from Arbiter's workspace.
 */
export function mapGuardedCall(
  config: GuardConfig,
  name: string,
  args: Record<string, unknown>,
  cwd: string = process.cwd(),
): MappedCall {
  return resolveRelativePaths(mapByConfig(config, name, args, cwd), cwd);
}

function mapByConfig(
  config: GuardConfig,
  name: string,
  args: Record<string, unknown>,
  cwd: string,
): MappedCall {
  const rule = config.tools[name];
  if (rule && 'action_type' in rule)
    return { kind: 'judgment', action_type: rule.action_type, payload: args };
  if (rule) {
    const payload = rule.payload
      ? Object.fromEntries(
          Object.entries(rule.payload)
            .filter(([, arg]) => args[arg] !== undefined)
            .map(([field, arg]) => [field, args[arg]]),
        )
      : args;
    // A configured action is judged by the verdict engine, whatever its name.
    return { kind: 'verdict', action: rule.action as never, payload };
  }
  return mapToolCall({ name, args }, { cwd });
}

export interface GuardOptions {
  config: GuardConfig;
  /** The wrapped server's working directory, where its relative paths point (default: the guard's). */
  cwd?: string;
  /** How long an escalation waits for a human before the call is refused. */
  approvalTimeoutMs: number;
  approvalIntervalMs?: number;
}

type Decided = { forward: true } | { forward: false; result: ReturnType<typeof toolError> };

/** Decides one tools/call: forward it to the server, or answer it with a tool error. */
export async function decideToolCall(
  arbiter: Arbiter,
  options: GuardOptions,
  name: string,
  args: Record<string, unknown>,
): Promise<Decided> {
  let decision: GuardDecision;
  try {
    decision = await arbiter.check({ name, args }, mapGuardedCall(options.config, name, args, options.cwd));
  } catch (err) {
    return { forward: false, result: toolError('ARBITER_ERROR', (err as Error).message) };
  }
  if (decision.decision === 'allow') return { forward: true };
  if (decision.decision === 'deny') {
    return { forward: false, result: toolError(decision.code ?? 'DENIED', decision.reason) };
  }
  let evaluation: Awaited<ReturnType<Arbiter['waitForDecision']>>;
  try {
    evaluation = await arbiter.waitForDecision(decision.evaluationId!, {
      timeoutMs: options.approvalTimeoutMs,
      ...(options.approvalIntervalMs ? { intervalMs: options.approvalIntervalMs } : {}),
    });
  } catch (err) {
    // Losing Arbiter while a human decides is not an approval.
    const code = err instanceof ArbiterError ? err.code : 'ARBITER_ERROR';
    return {
      forward: false,
      result: toolError(code, `while waiting for a human: ${(err as Error).message}`),
    };
  }
  if (evaluation.outcome === 'ALLOWED') return { forward: true };
  return {
    forward: false,
    result: toolError(
      evaluation.status === 'pending' ? 'ESCALATION_TIMEOUT' : 'ESCALATION_DENIED',
      evaluation.status === 'pending'
        ? `no human decided within ${Math.round(options.approvalTimeoutMs / 1000)} s (${decision.reason})`
        : `the escalation was ${evaluation.status}${evaluation.comment ? `: ${evaluation.comment}` : ''}`,
    ),
  };
}

interface Transport {
  onmessage?: (message: JSONRPCMessage) => void;
  onclose?: () => void;
  send(message: JSONRPCMessage): Promise<void>;
  close(): Promise<void>;
  start(): Promise<void>;
}

/** Who ended a relay: its client, its server, or the guard itself (a signal, a broken pipe). */
export type ClosedBy = 'client' | 'server' | 'guard';

/**
 * Relays JSON-RPC between a client and a server, holding every `tools/call` until Arbiter allows
 * it. A refused call is answered by the guard itself: the server never receives it. When either
 * side closes, both are closed (the server's process ended, see StdioClientTransport.close) and
 * `onClosed` is called once. Returns the function that closes the relay.
 */
export function relay(
  client: Transport,
  server: Transport,
  arbiter: Arbiter,
  options: GuardOptions,
  onClosed?: (by: ClosedBy) => void,
): () => Promise<void> {
  let closing: Promise<void> | undefined;
  const close = (by: ClosedBy): Promise<void> => {
    // Set before either transport closes: each close calls onclose, which lands here again.
    closing ??= Promise.resolve().then(async () => {
      await Promise.allSettled([client.close(), server.close()]);
      onClosed?.(by);
    });
    return closing;
  };
  const forward = (message: JSONRPCMessage) =>
    server.send(message).catch(() => {
      // The server is gone (or going): a request still gets an answer, not silence.
      const id = (message as { id?: string | number }).id;
      if (id !== undefined && 'method' in message && closing === undefined) {
        void client
          .send({
            jsonrpc: '2.0',
            id,
            error: { code: -32603, message: 'the wrapped MCP server is not running' },
          })
          .catch(() => {});
      }
    });

  client.onmessage = (message) => {
    const request = message as {
      method?: string;
      id?: string | number;
      params?: { name?: unknown; arguments?: unknown };
    };
    if (request.method !== 'tools/call' || request.id === undefined) {
      void forward(message);
      return;
    }
    const name = typeof request.params?.name === 'string' ? request.params.name : '';
    const args =
      request.params?.arguments && typeof request.params.arguments === 'object'
        ? (request.params.arguments as Record<string, unknown>)
        : {};
    void decideToolCall(arbiter, options, name, args).then((decided) =>
      decided.forward
        ? forward(message)
        : client.send({ jsonrpc: '2.0', id: request.id!, result: decided.result }).catch(() => {}),
    );
  };
  server.onmessage = (message) => void client.send(message).catch(() => {});
  server.onclose = () => void close('server');
  client.onclose = () => void close('client');
  return () => close('guard');
}

/** Exit codes of a guard stopped by a signal, as a shell reports them. */
const SIGNALS = { SIGINT: 130, SIGTERM: 143, SIGHUP: 129 } as const;

/** `arbiter mcp guard [--config FILE] [--cwd DIR] -- <command> [args…]`. */
export async function runGuard(opts: {
  command: string;
  args: string[];
  config?: string;
  cwd?: string;
  failOpen?: boolean;
  monitor?: boolean;
  approvalTimeout: string;
}): Promise<void> {
  const seconds = Number(opts.approvalTimeout);
  if (!Number.isFinite(seconds) || seconds < 0)
    throw new Error('--approval-timeout must be a number of seconds');
  const config = opts.config ? readGuardConfig(opts.config) : GuardConfigSchema.parse({});
  // The server's relative paths are judged from where it runs: --cwd, or the guard's own directory.
  const cwd = path.resolve(opts.cwd ?? process.cwd());
  if (!statSync(cwd, { throwIfNoEntry: false })?.isDirectory())
    throw new Error(`--cwd ${opts.cwd}: not a directory`);
  const [{ StdioServerTransport }, { StdioClientTransport, getDefaultEnvironment }, { arbiterFromEnv }] =
    await Promise.all([
      import('@modelcontextprotocol/sdk/server/stdio.js'),
      import('@modelcontextprotocol/sdk/client/stdio.js'),
      import('./client-from-env.ts'),
    ]);
  const arbiter = arbiterFromEnv(process.env, {
    failMode: opts.failOpen ? 'open' : 'closed',
    mode: opts.monitor ? 'monitor' : 'enforce',
    ...(config.actor ? { actor: config.actor } : {}),
    ...(config.actor_role ? { actorRole: config.actor_role } : {}),
    ...(config.impact_scope ? { impactScope: config.impact_scope } : {}),
  });
  // The wrapped server gets the guard's environment, but not the key that lets it ask Arbiter.
  const { ARBITER_API_KEY: _key, ...env } = { ...getDefaultEnvironment(), ...process.env };
  const server = new StdioClientTransport({
    command: opts.command,
    args: opts.args,
    env: env as Record<string, string>,
    cwd,
    stderr: 'inherit',
  });
  const client = new StdioServerTransport();

  let exitCode = 0;
  let closed = false;
  const stop = relay(client, server, arbiter, { config, cwd, approvalTimeoutMs: seconds * 1000 }, (by) => {
    closed = true;
    if (by === 'server') process.stderr.write('arbiter: the wrapped MCP server exited\n');
    // Pending escalations and Arbiter's keep-alive sockets would hold the process: it ends here.
    process.exit(by === 'server' ? 1 : exitCode);
  });
  // The SDK's stdio server transport does not notice its client leaving: the end of stdin is that.
  process.stdin.once('end', () => void stop());
  process.stdin.once('close', () => void stop());
  // Nobody reads the answers any more (EPIPE).
  process.stdout.once('error', () => void stop());
  for (const [signal, code] of Object.entries(SIGNALS)) {
    process.once(signal, () => {
      exitCode = code;
      void stop();
    });
  }

  await server.start();
  const child = server.pid;
  // However this process ends (an uncaught error included), the wrapped server does not outlive it.
  process.once('exit', () => {
    if (!closed && child !== null) {
      try {
        process.kill(child, 'SIGKILL');
      } catch {
        // already gone
      }
    }
  });
  await client.start();
}
