import createClient, { type Client } from 'openapi-fetch';
import { ArbiterError, errorFromBody } from './errors.ts';
import type { paths } from './generated/openapi.ts';
import { type MappedCall, mapToolCall, type ToolCall } from './tool-calls.ts';
import { createTransport } from './transport.ts';

type JsonBody<T> = T extends { content: { 'application/json': infer B } } ? B : never;

export type Verdict = JsonBody<paths['/v1/evaluate']['post']['responses'][200]>;
/** Where the agent works (`workspace`, `user`, `home`, `os`): paths are judged relative to it. */
export type AgentContext = NonNullable<
  JsonBody<NonNullable<paths['/v1/evaluate']['post']['requestBody']>>['context']
>;
/** One thing a verdict understood the action would do: `{kind: 'execute', target: 'frobctl'}`. */
export type Effect = Verdict['effects'][number];
export type JudgeInput = JsonBody<NonNullable<paths['/v2/actions/evaluate']['post']['requestBody']>>;
export type Judgment = JsonBody<paths['/v2/actions/evaluate']['post']['responses'][200]>;
export type Evaluation = JsonBody<paths['/v2/actions/evaluations/{id}']['get']['responses'][200]>;
export type RememberInput = JsonBody<NonNullable<paths['/v2/vault/store']['post']['requestBody']>>;
export type Remembered = JsonBody<paths['/v2/vault/store']['post']['responses'][201]>;
export type Fact = JsonBody<paths['/v2/vault/search']['post']['responses'][200]>['results'][number];

/** What the ledger knows about a query: the relevant facts, or explicitly nothing. */
export type Recall = { status: 'known'; facts: Fact[] } | { status: 'unknown'; facts: [] };

export type FailMode = 'closed' | 'open';
export type Mode = 'enforce' | 'monitor';

/**
 * What to do with a tool call: run it, refuse it, or ask a human first. `ask` comes from an
 * escalation of the judgment engine (`evaluationId` set: a person decides it in Arbiter) or from a
 * verdict that is safe as far as Arbiter can tell but not recognised (code `UNRECOGNISED`, no
 * `evaluationId`: the person at hand decides, through the host's own approval).
 */
export interface GuardDecision {
  decision: 'allow' | 'deny' | 'ask';
  /**
   * The verdict or gate code behind a refusal or a question (DEST_MUTATION, FILESYSTEM_DENIED,
   * ESCALATION_REQUIRED, UNRECOGNISED, …), or UNREACHABLE.
   */
  code: string | undefined;
  reason: string;
  /** The judgment evaluation, when the judgment engine decided; an escalation is decided on it. */
  evaluationId: string | undefined;
  /**
   * On a verdict: whether Arbiter understood every step of the call. Undefined when the judgment
   * engine decided (its gates' reasons say what it did not understand) or Arbiter was not reached.
   */
  recognised: boolean | undefined;
  /** On a verdict: what Arbiter understood the call would do. */
  effects: Effect[] | undefined;
  /** On a verdict not recognised: what was not understood, in words (`unknown program "frobctl"`). */
  unrecognised: string[] | undefined;
  /** How the call was judged. */
  judgedAs: MappedCall;
  /** In monitor mode the decision is always `allow`; this is what enforcement would have decided. */
  enforced: Omit<GuardDecision, 'enforced' | 'judgedAs'> | undefined;
}

export interface ArbiterOptions {
  /** Where the service listens, e.g. http://127.0.0.1:8080. */
  baseUrl: string;
  apiKey: string;
  /**
   * The agent's workspace root (or roots), sent with every verdict as `context.workspace`:
   * inside it files are the agent's own (a `/root` workspace frees `/root`, never its keys).
   * `evaluate(…, context)` overrides it for one call.
   */
  workspace?: string | string[];
  /** Per attempt, in milliseconds (default 5000). */
  timeoutMs?: number;
  /** Further attempts after the first (default 2). */
  retries?: number;
  /** Longest `Retry-After` waited for before giving up (default 5000 ms). */
  maxRetryDelayMs?: number;
  /** When the service cannot be reached: refuse the tool call (`closed`, the default) or let it run. */
  failMode?: FailMode;
  /** `monitor` never blocks a tool call; it only records what would have happened. Default `enforce`. */
  mode?: Mode;
  /** Who proposes the actions sent to the judgment engine (default `agent`), and with which role. */
  actor?: string;
  actorRole?: JudgeInput['actor_role'];
  /** Impact scope of tool calls sent to the judgment engine (default `internal`). */
  impactScope?: JudgeInput['impact_scope'];
  /** Called with every decision of `check`, in both modes. */
  onDecision?: (decision: GuardDecision, call: ToolCall) => void;
  fetch?: typeof fetch;
}

export interface WaitOptions {
  /** Give up after this long and return the evaluation still pending (default 5 minutes). */
  timeoutMs?: number;
  /** Time between two looks (default 1000 ms). */
  intervalMs?: number;
  signal?: AbortSignal;
}

export interface Arbiter {
  /** The typed client for every route of the API. */
  readonly api: Client<paths>;
  readonly options: Readonly<Required<Omit<ArbiterOptions, 'onDecision' | 'fetch' | 'workspace'>>> & {
    readonly workspace: string | string[] | undefined;
  };
  /**
   * A verdict on a proposed action (`/v1/evaluate`). Unsafe is a verdict, not an error. `context`
   * says where the agent works; by default the `workspace` option.
   */
  evaluate(action: string, payload: Record<string, unknown>, context?: AgentContext): Promise<Verdict>;
  /**
   * The judgment engine's decision (`/v2/actions/evaluate`): ALLOWED, BLOCKED or ESCALATE with its
   * gates. `input.context` says where the agent works; by default the `workspace` option.
   */
  judge(input: JudgeInput): Promise<Judgment>;
  /** Waits until a human approves or denies an escalation, it expires, or `timeoutMs` passes. */
  waitForDecision(evaluationId: string, options?: WaitOptions): Promise<Evaluation>;
  /** Stores a claim in the ledger; retried writes are stored once. */
  remember(input: RememberInput): Promise<Remembered>;
  /** The facts relevant to a query, or `unknown` when nothing relevant is known. */
  recall(query: string, topK?: number): Promise<Recall>;
  /**
   * Judges a tool call and applies `failMode` and `mode`: the one decision a guard needs. Without
   * `mapped`, the call is mapped by `mapToolCall`, relative paths against this process's directory.
   * `context` says where the agent works for this call (a hook's `cwd`, a client's MCP roots); by
   * default the `workspace` option.
   */
  check(call: ToolCall, mapped?: MappedCall, context?: AgentContext): Promise<GuardDecision>;
}

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => {
      clearTimeout(timer);
      reject(signal.reason);
    });
  });

/** The code of a safe verdict that Arbiter did not recognise: a person should decide. */
export const UNRECOGNISED = 'UNRECOGNISED';

/** At most this many effects are named in a reason; `effects` has them all. */
const NAMED_EFFECTS = 5;

/** `Arbiter does not know what this does: unknown program "frobctl"; it may execute frobctl`. */
function unrecognisedReason(verdict: Verdict): string {
  const what = verdict.unrecognised?.length ? verdict.unrecognised.join('; ') : 'some step of it';
  const effects = verdict.effects
    .slice(0, NAMED_EFFECTS)
    .map((e) => (e.target ? `${e.kind} ${e.target}` : e.kind));
  if (verdict.effects.length > NAMED_EFFECTS) effects.push('…');
  return `Arbiter does not know what this does: ${what}${effects.length > 0 ? `; it may ${effects.join(', ')}` : ''}`;
}

function fromVerdict(verdict: Verdict): Omit<GuardDecision, 'enforced' | 'judgedAs'> {
  const understood = {
    evaluationId: undefined,
    recognised: verdict.recognised,
    effects: verdict.effects,
    unrecognised: verdict.recognised ? undefined : (verdict.unrecognised ?? []),
  };
  if (!verdict.is_safe) {
    return {
      decision: 'deny',
      code: verdict.error?.code,
      reason: verdict.error?.message ?? 'unsafe',
      ...understood,
    };
  }
  if (!verdict.recognised) {
    return { decision: 'ask', code: UNRECOGNISED, reason: unrecognisedReason(verdict), ...understood };
  }
  return { decision: 'allow', code: undefined, reason: 'safe', ...understood };
}

const NOT_A_VERDICT = { recognised: undefined, effects: undefined, unrecognised: undefined } as const;

function gateCode(judgment: Judgment): string | undefined {
  for (const gate of Object.values(judgment.gates)) {
    if (gate.outcome !== 'pass' && gate.code) return gate.code;
  }
  return undefined;
}

export function createArbiter(options: ArbiterOptions): Arbiter {
  const settings = {
    baseUrl: options.baseUrl.replace(/\/+$/, ''),
    apiKey: options.apiKey,
    timeoutMs: options.timeoutMs ?? 5000,
    retries: options.retries ?? 2,
    maxRetryDelayMs: options.maxRetryDelayMs ?? 5000,
    failMode: options.failMode ?? 'closed',
    mode: options.mode ?? 'enforce',
    actor: options.actor ?? 'agent',
    actorRole: options.actorRole ?? 'assistant',
    impactScope: options.impactScope ?? 'internal',
    workspace: options.workspace,
  } as const;
  const transport = createTransport({
    timeoutMs: settings.timeoutMs,
    retries: settings.retries,
    maxRetryDelayMs: settings.maxRetryDelayMs,
    fetch: options.fetch ?? globalThis.fetch,
  });
  const api = createClient<paths>({
    baseUrl: settings.baseUrl,
    headers: { authorization: `Bearer ${settings.apiKey}` },
    fetch: transport.fetch,
  });
  const headers = { authorization: `Bearer ${settings.apiKey}`, 'content-type': 'application/json' };
  const readHeaders = { authorization: `Bearer ${settings.apiKey}` };

  /** The helpers' own path: a string body and no Request objects, so a call costs what a fetch costs. */
  async function call(method: 'GET' | 'POST', path: string, body?: unknown): Promise<Response> {
    return transport.request(
      method,
      settings.baseUrl + path,
      body === undefined ? readHeaders : headers,
      body === undefined ? undefined : JSON.stringify(body),
    );
  }

  async function json<T>(response: Response): Promise<T> {
    const text = await response.text();
    let body: unknown;
    try {
      body = text === '' ? undefined : JSON.parse(text);
    } catch {
      throw new ArbiterError(
        'BAD_RESPONSE',
        `The service answered ${response.status} with a body that is not JSON`,
        {
          status: response.status,
        },
      );
    }
    if (response.ok) return body as T;
    throw errorFromBody(response.status, body);
  }

  function defaultContext(): AgentContext | undefined {
    return settings.workspace === undefined ? undefined : { workspace: settings.workspace };
  }

  async function evaluate(
    action: string,
    payload: Record<string, unknown>,
    context: AgentContext | undefined = defaultContext(),
  ): Promise<Verdict> {
    const response = await call(
      'POST',
      '/v1/evaluate',
      context === undefined ? { action, payload } : { action, payload, context },
    );
    // 409 and 412 answers are verdicts too (CONFLICT_DETECTED, STATE_DRIFT).
    if (response.status === 409 || response.status === 412) {
      const body = (await response.json().catch(() => undefined)) as Verdict | undefined;
      if (body && typeof body.is_safe === 'boolean') return body;
      throw errorFromBody(response.status, body);
    }
    return json<Verdict>(response);
  }

  async function judge(input: JudgeInput): Promise<Judgment> {
    const context = input.context ?? defaultContext();
    const body = context === undefined ? input : { ...input, context };
    return json<Judgment>(await call('POST', '/v2/actions/evaluate', body));
  }

  async function waitForDecision(evaluationId: string, wait: WaitOptions = {}): Promise<Evaluation> {
    const deadline = Date.now() + (wait.timeoutMs ?? 300_000);
    for (;;) {
      const evaluation = await json<Evaluation>(
        await call('GET', `/v2/actions/evaluations/${encodeURIComponent(evaluationId)}`),
      );
      if (evaluation.status !== 'pending') return evaluation;
      const left = deadline - Date.now();
      if (left <= 0) return evaluation;
      await sleep(Math.min(wait.intervalMs ?? 1000, left), wait.signal);
    }
  }

  const remember = async (input: RememberInput) =>
    json<Remembered>(await call('POST', '/v2/vault/store', input));

  async function recall(query: string, topK = 5): Promise<Recall> {
    const { results } = await json<{ results: Fact[] }>(
      await call('POST', '/v2/vault/search', { query, top_k: topK }),
    );
    return results.length === 0 ? { status: 'unknown', facts: [] } : { status: 'known', facts: results };
  }

  async function enforced(
    mapped: MappedCall,
    context: AgentContext | undefined,
  ): Promise<Omit<GuardDecision, 'enforced' | 'judgedAs'>> {
    try {
      if (mapped.kind === 'verdict')
        return fromVerdict(await evaluate(mapped.action, mapped.payload, context ?? defaultContext()));
      const judgment = await judge({
        action_type: mapped.action_type,
        actor: settings.actor,
        actor_role: settings.actorRole,
        payload: mapped.payload,
        impact_scope: settings.impactScope,
      });
      const decision =
        judgment.decision === 'ALLOWED' ? 'allow' : judgment.decision === 'BLOCKED' ? 'deny' : 'ask';
      return {
        decision,
        code: decision === 'allow' ? undefined : (gateCode(judgment) ?? judgment.decision),
        reason: judgment.reason,
        evaluationId: judgment.evaluation_id,
        ...NOT_A_VERDICT,
      };
    } catch (err) {
      if (!(err instanceof ArbiterError) || !err.unreachable) throw err;
      return {
        decision: settings.failMode === 'open' ? 'allow' : 'deny',
        code: 'UNREACHABLE',
        reason: `${err.message}; failing ${settings.failMode}`,
        evaluationId: undefined,
        ...NOT_A_VERDICT,
      };
    }
  }

  async function check(
    call: ToolCall,
    mapped = mapToolCall(call),
    context?: AgentContext,
  ): Promise<GuardDecision> {
    const outcome = await enforced(mapped, context);
    const decision: GuardDecision =
      settings.mode === 'monitor'
        ? {
            decision: 'allow',
            code: undefined,
            reason: `monitor mode: would ${outcome.decision}`,
            evaluationId: outcome.evaluationId,
            recognised: outcome.recognised,
            effects: outcome.effects,
            unrecognised: outcome.unrecognised,
            judgedAs: mapped,
            enforced: outcome,
          }
        : { ...outcome, judgedAs: mapped, enforced: undefined };
    options.onDecision?.(decision, call);
    return decision;
  }

  return { api, options: settings, evaluate, judge, waitForDecision, remember, recall, check };
}
