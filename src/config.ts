import path from 'node:path';
import Type, { type Static } from 'typebox';
import { Value } from 'typebox/value';
import { isWellFormedKey } from './lib/key-shape.ts';
import { loadPlans, type Plan } from './lib/plan-catalogue.ts';
import { parseSecretKey } from './lib/secret-box.ts';

/**
 * Every setting the service reads from its environment, parsed once at start. Nothing else in
 * `src/` reads `process.env`: `buildApp` and the services receive the frozen result.
 */
const EnvSchema = Type.Object({
  PORT: Type.Integer({ minimum: 0, maximum: 65535, default: 8080 }),
  HOST: Type.String({ minLength: 1, default: '127.0.0.1' }),
  ARBITER_DATA_DIR: Type.String({ minLength: 1, default: './data' }),
  DATABASE_URL: Type.Optional(Type.String({ pattern: '^postgres(ql)?://' })),
  REDIS_URL: Type.Optional(Type.String({ pattern: '^rediss?://' })),
  ARBITER_BOOTSTRAP_KEY: Type.Optional(Type.String()),
  ARBITER_ADMIN_TOKEN: Type.Optional(Type.String({ minLength: 16 })),
  ARBITER_METRICS_TOKEN: Type.Optional(Type.String({ minLength: 16 })),
  ARBITER_SECRETS_KEY: Type.Optional(Type.String()),
  ARBITER_SECRETS_KEY_PREVIOUS: Type.Optional(Type.String()),
  ARBITER_LOG_LEVEL: Type.Union(
    ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].map((l) => Type.Literal(l)),
    { default: 'info' },
  ),
  ARBITER_BODY_LIMIT: Type.Integer({ minimum: 1024, default: 1_048_576 }),
  ARBITER_USAGE_FLUSH_MS: Type.Integer({ minimum: 10, default: 1000 }),
  ARBITER_KEY_CACHE_MS: Type.Integer({ minimum: 0, maximum: 1000, default: 500 }),
  ARBITER_VECTOR_CACHE_MB: Type.Integer({ minimum: 16, default: 512 }),
  ARBITER_HEAP_GROWTH_PERCENT: Type.Integer({ minimum: 0, maximum: 300, default: 50 }),
  ARBITER_PLANS_FILE: Type.Optional(Type.String({ minLength: 1 })),
  ARBITER_BILLING: Type.Union([Type.Literal('local'), Type.Literal('stripe')], { default: 'local' }),
  ARBITER_PUBLIC_URL: Type.Optional(Type.String({ pattern: '^https?://[^/?#]+/?$' })),
  STRIPE_SECRET_KEY: Type.Optional(Type.String({ pattern: '^(sk|rk)_' })),
  STRIPE_WEBHOOK_SECRET: Type.Optional(Type.String({ pattern: '^whsec_' })),
  STRIPE_API_URL: Type.Optional(Type.String({ pattern: '^https?://[^/?#]+/?$' })),
  ARBITER_WEBHOOK_ALLOW_LOOPBACK: Type.Boolean({ default: false }),
  ARBITER_WEBHOOK_POLL_MS: Type.Integer({ minimum: 10, default: 1000 }),
  ARBITER_WEBHOOK_RETRY_BASE_MS: Type.Integer({ minimum: 1, default: 10_000 }),
  ARBITER_WEBHOOK_TIMEOUT_MS: Type.Integer({ minimum: 100, maximum: 60_000, default: 10_000 }),
  ARBITER_WEBHOOK_MAX_ATTEMPTS: Type.Integer({ minimum: 1, maximum: 30, default: 10 }),
  ARBITER_WEBHOOK_DISABLE_AFTER: Type.Integer({ minimum: 1, default: 30 }),
  ARBITER_WEBHOOK_DISABLE_AFTER_MS: Type.Integer({ minimum: 0, default: 86_400_000 }),
  ARBITER_ESCALATION_TTL_MS: Type.Integer({ minimum: 1000, default: 86_400_000 }),
  ARBITER_ESCALATION_SWEEP_MS: Type.Integer({ minimum: 100, default: 60_000 }),
  ARBITER_EMBEDDER: Type.Union(
    [
      Type.Literal('local'),
      Type.Literal('openai'),
      Type.Literal('hash'),
      Type.String({
        pattern: '^onnx:.+',
        description: 'onnx:<folder> with model.onnx, tokenizer.json, config.json',
      }),
    ],
    { default: 'local' },
  ),
  ARBITER_OPENAI_BASE_URL: Type.Optional(Type.String({ pattern: '^https?://' })),
  ARBITER_OPENAI_API_KEY: Type.Optional(Type.String({ minLength: 1 })),
  ARBITER_OPENAI_MODEL: Type.Optional(Type.String({ minLength: 1 })),
  ARBITER_RELEVANCE_FLOOR: Type.Optional(Type.Number({ exclusiveMinimum: 0, exclusiveMaximum: 1 })),
  ARBITER_RERANKER: Type.Optional(Type.String({ pattern: '^((tei|cohere):https?://|onnx:.)' })),
  ARBITER_RERANKER_API_KEY: Type.Optional(Type.String({ minLength: 1 })),
  ARBITER_RERANKER_MODEL: Type.Optional(Type.String({ minLength: 1 })),
});

type Env = Static<typeof EnvSchema>;

export interface Config {
  /** How claims are embedded (DESIGN "Embeddings"): in-process model, OpenAI-compatible endpoint, or lexical hash. */
  readonly embedder:
    | { readonly kind: 'local' }
    | { readonly kind: 'hash' }
    | { readonly kind: 'onnx'; readonly folder: string }
    | {
        readonly kind: 'openai';
        readonly baseUrl: string;
        readonly model: string;
        readonly apiKey: string | undefined;
      };
  /** Search's statement cosine floor for another model than the shipped one (`eval:vault -- --floor`). */
  readonly relevanceFloor: number | undefined;
  /** An optional cross-encoder reranker (`ARBITER_RERANKER=tei:<url>`, `cohere:<url>` or `onnx:<folder>`). */
  readonly reranker:
    | {
        readonly api: 'tei' | 'cohere';
        readonly url: string;
        readonly apiKey: string | undefined;
        readonly model: string | undefined;
      }
    | { readonly api: 'onnx'; readonly folder: string }
    | undefined;
  readonly port: number;
  readonly host: string;
  readonly dataDir: string;
  readonly database:
    | { readonly kind: 'sqlite'; readonly file: string }
    | { readonly kind: 'postgres'; readonly url: string };
  readonly redisUrl: string | undefined;
  readonly bootstrapKey: string | undefined;
  readonly adminToken: string | undefined;
  /** Bearer token `/metrics` asks for; without one it is served only on a loopback address. */
  readonly metricsToken: string | undefined;
  /**
   * The key stored secrets (webhook signing secrets) are encrypted with, and the one it replaced,
   * still read during a rotation. Without a key, one is generated in the data directory.
   */
  readonly secrets: { readonly key: Buffer | undefined; readonly previousKey: Buffer | undefined };
  readonly logLevel: string;
  /** Largest accepted request body in bytes; larger ones get 413. */
  readonly bodyLimit: number;
  /** How often batched usage counts are written to the database. */
  readonly usageFlushMs: number;
  /**
   * How long a verified key stays trusted in memory. Bounded by 1000 ms so that a key revoked on
   * one instance stops working on every other instance sharing the database within a second.
   */
  readonly keyCacheMs: number;
  /** Bytes of claim vectors the in-process k-NN scans keep, over all accounts (least recently used out). */
  readonly vectorCacheBytes: number;
  /** How far the V8 heap may grow past its live part before a full collection, in percent (0: V8 decides). */
  readonly heapGrowthPercent: number;
  /** The plan catalogue: the defaults with `ARBITER_PLANS_FILE` laid over them. */
  readonly plans: readonly Plan[];
  readonly billing:
    | { readonly provider: 'local' }
    | {
        readonly provider: 'stripe';
        readonly secretKey: string;
        readonly webhookSecret: string;
        /** Where the SDK sends API requests; Stripe itself when unset. */
        readonly apiUrl: string | undefined;
      };
  /** Base of links Arbiter hands out (checkout pages); taken from the request's Host when unset. */
  readonly publicUrl: string | undefined;
  readonly webhooks: {
    /** Lets endpoints on loopback addresses through the SSRF guard: for local receivers and tests only. */
    readonly allowLoopback: boolean;
    readonly pollMs: number;
    readonly retryBaseMs: number;
    readonly timeoutMs: number;
    readonly maxAttempts: number;
    /**
     * An endpoint is disabled once it has failed `disableAfter` attempts in a row and its first
     * failure of that run is at least `disableAfterMs` old: a burst alone never disables it.
     */
    readonly disableAfter: number;
    readonly disableAfterMs: number;
  };
  readonly judgment: {
    /** How long an ESCALATE evaluation waits for a human before it expires (and counts as denied). */
    readonly escalationTtlMs: number;
    /** How often expired escalations are swept; reads apply expiry on their own as well. */
    readonly sweepMs: number;
  };
}

export class ConfigError extends Error {}

/** Parses the environment into a frozen `Config`; throws `ConfigError` with one readable line. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const known = Object.keys(EnvSchema.properties);
  const input: Record<string, unknown> = {};
  for (const name of known) {
    const raw = env[name];
    if (raw === undefined || raw === '') continue;
    // Conversion would read "80.5" as 80: a whole number is asked for, and anything else refused.
    const schema = EnvSchema.properties[name as keyof typeof EnvSchema.properties] as { type?: unknown };
    if (schema.type === 'integer' && !/^[+-]?\d+$/.test(raw.trim())) {
      throw new ConfigError(
        `Invalid configuration: ${name} must be a whole number (got ${JSON.stringify(raw)})`,
      );
    }
    input[name] = raw;
  }
  const withDefaults = Value.Default(EnvSchema, Value.Convert(EnvSchema, input));
  const errors = [...Value.Errors(EnvSchema, withDefaults)];
  if (errors.length > 0) {
    const first = errors[0]!;
    const name = first.instancePath.replace(/^\//, '') || first.schemaPath;
    throw new ConfigError(
      `Invalid configuration: ${name} ${first.message} (got ${JSON.stringify(input[name])})`,
    );
  }
  const parsed = withDefaults as Env;
  if (parsed.ARBITER_BOOTSTRAP_KEY !== undefined && !isWellFormedKey(parsed.ARBITER_BOOTSTRAP_KEY)) {
    throw new ConfigError(
      'Invalid configuration: ARBITER_BOOTSTRAP_KEY must look like arbiter_sk_ followed by at least 32 letters or digits',
    );
  }
  if (
    parsed.ARBITER_BILLING === 'stripe' &&
    (parsed.STRIPE_SECRET_KEY === undefined || parsed.STRIPE_WEBHOOK_SECRET === undefined)
  ) {
    throw new ConfigError(
      'Invalid configuration: ARBITER_BILLING=stripe needs STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET',
    );
  }
  const secretKey = (name: 'ARBITER_SECRETS_KEY' | 'ARBITER_SECRETS_KEY_PREVIOUS'): Buffer | undefined => {
    const text = parsed[name];
    if (text === undefined) return undefined;
    const key = parseSecretKey(text);
    if (typeof key === 'string') throw new ConfigError(`Invalid configuration: ${name} ${key}`);
    return key;
  };
  const secrets = Object.freeze({
    key: secretKey('ARBITER_SECRETS_KEY'),
    previousKey: secretKey('ARBITER_SECRETS_KEY_PREVIOUS'),
  });
  if (secrets.previousKey !== undefined && secrets.key === undefined) {
    throw new ConfigError(
      'Invalid configuration: ARBITER_SECRETS_KEY_PREVIOUS is only read during a rotation, next to a new ARBITER_SECRETS_KEY',
    );
  }
  let plans: readonly Plan[];
  try {
    plans = loadPlans(parsed.ARBITER_PLANS_FILE);
  } catch (err) {
    throw new ConfigError(`Invalid configuration: ARBITER_PLANS_FILE ${(err as Error).message}`);
  }
  if (
    parsed.ARBITER_EMBEDDER === 'openai' &&
    (!parsed.ARBITER_OPENAI_BASE_URL || !parsed.ARBITER_OPENAI_MODEL)
  ) {
    throw new ConfigError(
      'Invalid configuration: ARBITER_EMBEDDER=openai needs ARBITER_OPENAI_BASE_URL and ARBITER_OPENAI_MODEL',
    );
  }
  const dataDir = path.resolve(parsed.ARBITER_DATA_DIR);
  return Object.freeze({
    embedder:
      parsed.ARBITER_EMBEDDER === 'openai'
        ? Object.freeze({
            kind: 'openai' as const,
            baseUrl: parsed.ARBITER_OPENAI_BASE_URL!,
            model: parsed.ARBITER_OPENAI_MODEL!,
            apiKey: parsed.ARBITER_OPENAI_API_KEY,
          })
        : parsed.ARBITER_EMBEDDER.startsWith('onnx:')
          ? Object.freeze({
              kind: 'onnx' as const,
              folder: path.resolve(parsed.ARBITER_EMBEDDER.slice('onnx:'.length)),
            })
          : Object.freeze({ kind: parsed.ARBITER_EMBEDDER as 'local' | 'hash' }),
    relevanceFloor: parsed.ARBITER_RELEVANCE_FLOOR,
    reranker: rerankerOf(parsed),
    port: parsed.PORT,
    host: parsed.HOST,
    dataDir,
    database: parsed.DATABASE_URL
      ? Object.freeze({ kind: 'postgres' as const, url: parsed.DATABASE_URL })
      : Object.freeze({ kind: 'sqlite' as const, file: path.join(dataDir, 'arbiter.db') }),
    redisUrl: parsed.REDIS_URL,
    bootstrapKey: parsed.ARBITER_BOOTSTRAP_KEY,
    adminToken: parsed.ARBITER_ADMIN_TOKEN,
    metricsToken: parsed.ARBITER_METRICS_TOKEN,
    secrets,
    logLevel: parsed.ARBITER_LOG_LEVEL,
    bodyLimit: parsed.ARBITER_BODY_LIMIT,
    usageFlushMs: parsed.ARBITER_USAGE_FLUSH_MS,
    keyCacheMs: parsed.ARBITER_KEY_CACHE_MS,
    vectorCacheBytes: parsed.ARBITER_VECTOR_CACHE_MB * 1024 * 1024,
    heapGrowthPercent: parsed.ARBITER_HEAP_GROWTH_PERCENT,
    plans,
    billing:
      parsed.ARBITER_BILLING === 'stripe'
        ? Object.freeze({
            provider: 'stripe' as const,
            secretKey: parsed.STRIPE_SECRET_KEY!,
            webhookSecret: parsed.STRIPE_WEBHOOK_SECRET!,
            apiUrl: parsed.STRIPE_API_URL,
          })
        : Object.freeze({ provider: 'local' as const }),
    publicUrl: parsed.ARBITER_PUBLIC_URL?.replace(/\/$/, ''),
    webhooks: Object.freeze({
      allowLoopback: parsed.ARBITER_WEBHOOK_ALLOW_LOOPBACK,
      pollMs: parsed.ARBITER_WEBHOOK_POLL_MS,
      retryBaseMs: parsed.ARBITER_WEBHOOK_RETRY_BASE_MS,
      timeoutMs: parsed.ARBITER_WEBHOOK_TIMEOUT_MS,
      maxAttempts: parsed.ARBITER_WEBHOOK_MAX_ATTEMPTS,
      disableAfter: parsed.ARBITER_WEBHOOK_DISABLE_AFTER,
      disableAfterMs: parsed.ARBITER_WEBHOOK_DISABLE_AFTER_MS,
    }),
    judgment: Object.freeze({
      escalationTtlMs: parsed.ARBITER_ESCALATION_TTL_MS,
      sweepMs: parsed.ARBITER_ESCALATION_SWEEP_MS,
    }),
  });
}

function rerankerOf(parsed: Env): Config['reranker'] {
  const spec = parsed.ARBITER_RERANKER;
  if (spec === undefined) return undefined;
  const at = spec.indexOf(':');
  if (spec.startsWith('onnx:'))
    return Object.freeze({ api: 'onnx' as const, folder: path.resolve(spec.slice(at + 1)) });
  const api = spec.slice(0, at) as 'tei' | 'cohere';
  if (api === 'cohere' && !parsed.ARBITER_RERANKER_MODEL) {
    throw new ConfigError(
      'Invalid configuration: ARBITER_RERANKER=cohere:<url> needs ARBITER_RERANKER_MODEL',
    );
  }
  return Object.freeze({
    api,
    url: spec.slice(at + 1),
    apiKey: parsed.ARBITER_RERANKER_API_KEY,
    model: parsed.ARBITER_RERANKER_MODEL,
  });
}
