import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
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
import { ACTOR_ROLES, IMPACT_SCOPES } from '../shared/action-vocabulary.ts';
import { toolError } from './mcp-server.ts';

/**
 * The guard's configuration file. `tools` maps a tool name to a verdict action, with the payload
 * fields taken from the named arguments, or to the judgment engine under an action type of its own.
 */
export const GuardConfigSchema = z
  .object({
    actor: z.string().min(1).max(200).optional(),
    actor_role: z.enum(ACTOR_ROLES).optional(),
    impact_scope: z.enum(IMPACT_SCOPES).optional(),
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

/** What the person at the client answered when asked whether to run a call once. */
export type PersonAnswer = { allowed: true } | { allowed: false; why: string };

export interface GuardOptions {
  config: GuardConfig;
  /** The wrapped server's working directory, where its relative paths point (default: the guard's). */
  cwd?: string;
  /** The client's MCP roots, as paths: where the agent works, sent to Arbiter as the workspace. */
  roots?: readonly string[];
  /** How long an escalation, or a question to the person, waits before the call is refused. */
  approvalTimeoutMs: number;
  approvalIntervalMs?: number;
  /**
   * Asks the person at the client (MCP elicitation) whether to run a call Arbiter does not
   * recognise, once. Without it, such a call is refused.
   */
  askPerson?: (message: string) => Promise<PersonAnswer>;
}

type Decided = { forward: true } | { forward: false; result: ReturnType<typeof toolError> };

/** At most this many characters of a call's arguments are shown to the person asked. */
const SHOWN_ARGUMENTS = 500;

function question(name: string, args: Record<string, unknown>, reason: string): string {
  const shown = JSON.stringify(args);
  const call = `${name} ${shown.length > SHOWN_ARGUMENTS ? `${shown.slice(0, SHOWN_ARGUMENTS)}…` : shown}`;
  return `${reason}.\n\n${call}\n\nRun this call once?`;
}

/**
 * A call that is safe as far as Arbiter can tell but that it does not recognise: the person at
 * the client decides, where the client can ask (elicitation); otherwise it is refused, with what
 * was not understood and what it may do.
 */
async function askAboutUnrecognised(
  options: GuardOptions,
  name: string,
  args: Record<string, unknown>,
  decision: GuardDecision,
): Promise<Decided> {
  const code = decision.code ?? 'UNRECOGNISED';
  if (options.askPerson === undefined) {
    return {
      forward: false,
      result: toolError(
        code,
        `${decision.reason}; refused, as this MCP client cannot ask a person (it does not offer elicitation)`,
      ),
    };
  }
  const answer = await options.askPerson(question(name, args, decision.reason));
  if (answer.allowed) return { forward: true };
  return { forward: false, result: toolError(code, `${decision.reason}; ${answer.why}`) };
}

/** Decides one tools/call: forward it to the server, or answer it with a tool error. */
export async function decideToolCall(
  arbiter: Arbiter,
  options: GuardOptions,
  name: string,
  args: Record<string, unknown>,
): Promise<Decided> {
  let decision: GuardDecision;
  try {
    const mapped = mapGuardedCall(options.config, name, args, options.cwd);
    const context = options.roots?.length ? { workspace: options.roots.slice(0, 8) } : undefined;
    decision = await arbiter.check({ name, args }, mapped, context);
  } catch (err) {
    return { forward: false, result: toolError('ARBITER_ERROR', (err as Error).message) };
  }
  if (decision.decision === 'allow') return { forward: true };
  if (decision.decision === 'deny') {
    return { forward: false, result: toolError(decision.code ?? 'DENIED', decision.reason) };
  }
  // Not an escalation in Arbiter: a verdict that did not recognise the call.
  if (decision.evaluationId === undefined) return askAboutUnrecognised(options, name, args, decision);
  let evaluation: Awaited<ReturnType<Arbiter['waitForDecision']>>;
  try {
    evaluation = await arbiter.waitForDecision(decision.evaluationId, {
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

/** The form of an elicitation: one yes/no field, off unless the person turns it on. */
const ALLOW_ONCE_SCHEMA = {
  type: 'object',
  properties: {
    allow: {
      type: 'boolean',
      title: 'Run this call once',
      description: 'Arbiter does not know what this call does; it runs only if you allow it',
      default: false,
    },
  },
  required: ['allow'],
} as const;

/** Form-mode elicitation: declared with `form`, or with neither mode (what older clients send). */
function offersFormElicitation(initialize: unknown): boolean {
  const elicitation = (initialize as { params?: { capabilities?: { elicitation?: unknown } } })?.params
    ?.capabilities?.elicitation;
  if (elicitation === null || typeof elicitation !== 'object') return false;
  const modes = elicitation as { form?: unknown; url?: unknown };
  return modes.form !== undefined || modes.url === undefined;
}

/** The file roots a `roots/list` answer names, as paths (other schemes name no directory here). */
function rootPaths(reply: { result?: unknown }): string[] {
  const roots = (reply.result as { roots?: unknown } | undefined)?.roots;
  if (!Array.isArray(roots)) return [];
  return roots.flatMap((root) => {
    const uri = (root as { uri?: unknown } | null)?.uri;
    if (typeof uri !== 'string' || !uri.startsWith('file:')) return [];
    try {
      return [fileURLToPath(uri)];
    } catch {
      return [];
    }
  });
}

function personAnswer(reply: { result?: unknown; error?: { message?: unknown } }): PersonAnswer {
  if (reply.error !== undefined) {
    return { allowed: false, why: `the client could not ask a person: ${String(reply.error.message)}` };
  }
  const result = reply.result as { action?: unknown; content?: { allow?: unknown } } | undefined;
  if (result?.action === 'accept' && result.content?.allow === true) return { allowed: true };
  return {
    allowed: false,
    why:
      result?.action === 'accept'
        ? 'the person did not allow it'
        : `the person did not allow it (${String(result?.action ?? 'no answer')})`,
  };
}

/**
 * Relays JSON-RPC between a client and a server, holding every `tools/call` until Arbiter allows
 * it. A refused call is answered by the guard itself: the server never receives it. A call Arbiter
 * does not recognise is put to the person at the client (`elicitation/create`) when the client
 * offered elicitation in its `initialize`; the answer is the guard's, never forwarded. When either
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

  // The guard's own requests to the client (elicitations), by id; the server's use other ids.
  let canElicit = false;
  let asked = 0;
  const questions = new Map<string, (reply: { result?: unknown; error?: { message?: unknown } }) => void>();
  const askPerson = (message: string): Promise<PersonAnswer> =>
    new Promise((resolve) => {
      const id = `arbiter-elicitation-${++asked}`;
      const timer = setTimeout(() => {
        questions.delete(id);
        resolve({
          allowed: false,
          why: `the person did not answer within ${Math.round(options.approvalTimeoutMs / 1000)} s`,
        });
      }, options.approvalTimeoutMs);
      questions.set(id, (reply) => {
        clearTimeout(timer);
        questions.delete(id);
        resolve(personAnswer(reply));
      });
      client
        .send({
          jsonrpc: '2.0',
          id,
          method: 'elicitation/create',
          params: { message, requestedSchema: ALLOW_ONCE_SCHEMA },
        } as JSONRPCMessage)
        .catch((err: Error) =>
          questions.get(id)?.({ error: { message: `the question could not be sent: ${err.message}` } }),
        );
    });

  // The client's roots are where the agent works: asked once it is initialised, again when they change.
  let listsRoots = false;
  let roots: string[] = [];
  const listRoots = () => {
    const id = `arbiter-roots-${++asked}`;
    questions.set(id, (reply) => {
      questions.delete(id);
      roots = rootPaths(reply);
    });
    client
      .send({ jsonrpc: '2.0', id, method: 'roots/list' } as JSONRPCMessage)
      .catch(() => questions.delete(id));
  };

  client.onmessage = (message) => {
    const request = message as {
      method?: string;
      id?: string | number;
      params?: { name?: unknown; arguments?: unknown };
    };
    if (request.method === undefined && typeof request.id === 'string' && questions.has(request.id)) {
      questions.get(request.id)!(message as { result?: unknown; error?: { message?: unknown } });
      return;
    }
    if (request.method === 'initialize') {
      canElicit = offersFormElicitation(message);
      listsRoots =
        (message as { params?: { capabilities?: { roots?: unknown } } }).params?.capabilities?.roots != null;
    }
    if (request.method !== 'tools/call' || request.id === undefined) {
      void forward(message);
      if (listsRoots && /^notifications\/(?:initialized|roots\/list_changed)$/.test(request.method ?? ''))
        listRoots();
      return;
    }
    const name = typeof request.params?.name === 'string' ? request.params.name : '';
    const args =
      request.params?.arguments && typeof request.params.arguments === 'object'
        ? (request.params.arguments as Record<string, unknown>)
        : {};
    const asking = canElicit ? { ...options, askPerson } : options;
    void decideToolCall(arbiter, roots.length > 0 ? { ...asking, roots } : asking, name, args).then(
      (decided) =>
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
