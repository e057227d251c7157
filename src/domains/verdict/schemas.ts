import { Type } from 'typebox';
import { ExpectedStateHash } from '../../lib/state-precondition.ts';
import { AGENT_OS, CONTEXT_LIMITS } from './agent-context.ts';
import { BUILT_IN_ACTIONS } from './catalog.ts';
import { EFFECT_KINDS, type EffectKind } from './effects.ts';
import {
  ACTION_NAME_PATTERN,
  LOOP_LIMITS,
  MAX_ACCOUNT_RULES,
  MAX_DOMAINS,
  MAX_PROTECTED_NAME,
  MAX_PROTECTED_PER_KIND,
} from './policy.ts';

const ContextPath = Type.String({
  minLength: 1,
  maxLength: CONTEXT_LIMITS.path,
  description: "An absolute path as the agent's OS writes it (/…, ~/…, C:\\…)",
});
const AgentOs = Type.Union(
  AGENT_OS.map((os) => Type.Literal(os)),
  { description: 'The operating system the agent runs on: where homes are (/home, /Users, C:\\Users)' },
);
const ContextFields = {
  workspace: Type.Optional(
    Type.Union([ContextPath, Type.Array(ContextPath, { minItems: 1, maxItems: CONTEXT_LIMITS.workspaces })], {
      description:
        "The agent's workspace roots; the first is where relative paths resolve. Inside them files are the agent's own, except credential stores, start-up files and system trees",
    }),
  ),
  user: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: CONTEXT_LIMITS.user,
      pattern: '^[A-Za-z0-9_.][A-Za-z0-9_.@$-]*$',
      description: 'The account the agent runs as (root: its home is /root)',
    }),
  ),
  home: Type.Optional(ContextPath),
  os: Type.Optional(AgentOs),
};

/** Where the agent works, beside `action` and `payload` (docs/verdict-codes.md, "Where the agent works"). */
export const AgentContextSchema = Type.Object(ContextFields, {
  additionalProperties: false,
  description:
    "Where the agent works: paths are judged relative to it. Part of the verdict hash when present; a request without it hashes as before. The account's defaults (GET /v1/settings/context) fill what it leaves out",
});

/**
 * What `POST /v1/evaluate` expects. Documentation only: the route reads any JSON body itself,
 * because a body that misses this shape is answered with a SCHEMA_MISMATCH verdict, not a 400.
 */
export const EvaluateBody = Type.Object(
  {
    action: Type.String({
      description: `A built-in action (${BUILT_IN_ACTIONS.join(', ')}) or one of the account's`,
    }),
    payload: Type.Record(Type.String(), Type.Unknown(), { description: "The action's parameters" }),
    expected_state_hash: Type.Optional(ExpectedStateHash),
    context: Type.Optional(AgentContextSchema),
  },
  { additionalProperties: false },
);

export const EffectSchema = Type.Object({
  kind: Type.Unsafe<EffectKind>({ type: 'string', enum: [...EFFECT_KINDS] }),
  target: Type.Optional(Type.String()),
});

export const VerdictSchema = Type.Object(
  {
    is_safe: Type.Boolean(),
    latency_ms: Type.Number({ description: 'Time spent judging, in milliseconds' }),
    hash: Type.String({
      description:
        'SHA-256 of canonical {action, payload, code, policy_version}, and context when the request carries one',
    }),
    state_hash: Type.String({ description: 'The ledger state hash the verdict was made against' }),
    recognised: Type.Boolean({
      description:
        'False when any step could not be reduced to known effects (an unknown program, an unmodelled subcommand, a custom action): a person should decide',
    }),
    effects: Type.Array(EffectSchema, { description: 'What Arbiter understood the action would do' }),
    unrecognised: Type.Optional(
      Type.Array(Type.String(), { description: 'What was not understood, when recognised is false' }),
    ),
    error: Type.Optional(
      Type.Object({
        code: Type.Union([
          Type.Literal('SCHEMA_MISMATCH'),
          Type.Literal('POLICY_VIOLATION'),
          Type.Literal('DEST_MUTATION'),
          Type.Literal('RATE_LIMIT_EXCEEDED'),
          Type.Literal('EXFILTRATION_BLOCKED'),
          Type.Literal('FILESYSTEM_DENIED'),
          Type.Literal('CONFLICT_DETECTED'),
          Type.Literal('STATE_DRIFT'),
        ]),
        message: Type.String(),
      }),
    ),
    attack: Type.Optional(
      Type.Array(Type.String({ pattern: '^T\\d{4}(\\.\\d{3})?$' }), {
        description:
          'MITRE ATT&CK techniques of the rule that refused the action, when it maps to any (GET /v1/catalogue/coverage)',
      }),
    ),
  },
  { description: 'A verdict: the body of every answer of POST /v1/evaluate but transport errors' },
);

export const ActionParams = Type.Object({
  action: Type.String({ pattern: ACTION_NAME_PATTERN, description: 'Action name' }),
});

/** A JSON Schema for an action payload; checked by the service, which says why one is refused. */
export const ActionSchemaBody = Type.Record(Type.String(), Type.Unknown(), {
  description: 'A JSON Schema (draft-07) describing the payload object',
});

export const ActionSchema = Type.Object({
  name: Type.String(),
  builtin: Type.Boolean(),
  schema: Type.Record(Type.String(), Type.Unknown()),
  created_at: Type.Optional(Type.String({ format: 'date-time' })),
  updated_at: Type.Optional(Type.String({ format: 'date-time' })),
});

export const ActionListSchema = Type.Object({ actions: Type.Array(ActionSchema) });

const DomainList = Type.Array(Type.String({ minLength: 1, maxLength: 300 }), { maxItems: MAX_DOMAINS });

export const EgressBody = Type.Object(
  {
    mode: Type.Union([Type.Literal('denylist'), Type.Literal('allowlist')]),
    trusted_domains: Type.Optional(DomainList),
    blocked_domains: Type.Optional(DomainList),
  },
  { additionalProperties: false },
);

export const EgressSchema = Type.Object({
  mode: Type.Union([Type.Literal('denylist'), Type.Literal('allowlist')]),
  trusted_domains: Type.Array(Type.String()),
  blocked_domains: Type.Array(Type.String()),
});

export const LoopBody = Type.Object(
  {
    threshold: Type.Integer({
      minimum: LOOP_LIMITS.threshold.min,
      maximum: LOOP_LIMITS.threshold.max,
      description: 'Identical failing calls allowed within the window',
    }),
    window_seconds: Type.Integer({
      minimum: LOOP_LIMITS.window_seconds.min,
      maximum: LOOP_LIMITS.window_seconds.max,
    }),
  },
  { additionalProperties: false },
);

export const LoopSchema = Type.Object({ threshold: Type.Integer(), window_seconds: Type.Integer() });

// ------------------------------------------------------------------------- catalogue and protected resources

const AccountRulesFields = {
  rules: Type.Array(Type.Record(Type.String(), Type.Unknown()), {
    description: 'Rules in the catalogue format (docs: src/domains/verdict/catalogue/README.md)',
  }),
  count: Type.Integer(),
  version: Type.Integer({ description: 'Grows by one on every replacement; 0 before the first' }),
  digest: Type.String({ description: 'Part of the policy version of every verdict; empty when none' }),
  updated_at: Type.Optional(Type.String({ format: 'date-time' })),
};

export const AccountRulesSchema = Type.Object(AccountRulesFields);

export const AccountRulesBody = Type.Object(
  {
    rules: Type.Array(Type.Unknown(), {
      maxItems: MAX_ACCOUNT_RULES,
      description: `At most ${MAX_ACCOUNT_RULES} rules; each is checked against the rule schema, and every problem is listed in error.details.errors`,
    }),
  },
  { additionalProperties: false },
);

export const CatalogueSchema = Type.Object({
  format_version: Type.Integer({ description: 'Version of the rule format' }),
  built_in: Type.Object({
    count: Type.Integer({ description: 'Built-in rules in all families' }),
    families: Type.Array(
      Type.Object({
        family: Type.String(),
        description: Type.Optional(Type.String()),
        count: Type.Integer(),
        rules: Type.Array(Type.String(), { description: 'Rule ids' }),
      }),
    ),
  }),
  account: AccountRulesSchema,
});

const ProtectedName = Type.String({
  minLength: 1,
  maxLength: MAX_PROTECTED_NAME,
  description: 'Exact, case-sensitive name; a trailing * matches any suffix (release-*)',
});
const ProtectedList = Type.Array(ProtectedName, { maxItems: MAX_PROTECTED_PER_KIND });

export const ProtectedBody = Type.Object(
  {
    branches: Type.Optional(ProtectedList),
    namespaces: Type.Optional(ProtectedList),
    databases: Type.Optional(ProtectedList),
    buckets: Type.Optional(ProtectedList),
    projects: Type.Optional(ProtectedList),
  },
  { additionalProperties: false },
);

export const ProtectedSchema = Type.Object({
  branches: Type.Array(Type.String()),
  namespaces: Type.Array(Type.String()),
  databases: Type.Array(Type.String()),
  buckets: Type.Array(Type.String()),
  projects: Type.Array(Type.String()),
});

const UnrecognisedPosture = Type.Union([Type.Literal('allow'), Type.Literal('refuse')], {
  description:
    'An action Arbiter does not understand: allow (the default) answers is_safe true with recognised false, for the integration to ask a person; refuse answers POLICY_VIOLATION naming what was not understood',
});

export const ExecutionBody = Type.Object(
  {
    allow_opaque: Type.Boolean({
      description:
        'Allow code a shell, eval or an interpreter would run but that cannot be resolved statically (refused with POLICY_VIOLATION by default)',
    }),
    unrecognised: Type.Optional(UnrecognisedPosture),
  },
  { additionalProperties: false },
);

export const ExecutionSchema = Type.Object({
  allow_opaque: Type.Boolean(),
  unrecognised: UnrecognisedPosture,
});

// ------------------------------------------------------------------------- agent context

const LocalOrigins = Type.Array(Type.String({ minLength: 1, maxLength: 300 }), {
  maxItems: CONTEXT_LIMITS.localOrigins,
  description:
    'Loopback origins (http://localhost:3000) an http.request may reach: a fetch from the server refuses loopback otherwise. Never the Docker or kubelet APIs',
});

export const ContextSettingsBody = Type.Object(
  { ...ContextFields, local_origins: Type.Optional(LocalOrigins) },
  { additionalProperties: false },
);

export const ContextSettingsSchema = Type.Object({
  workspace: Type.Optional(Type.Array(Type.String(), { description: 'Normalised workspace roots' })),
  user: Type.Optional(Type.String()),
  home: Type.Optional(Type.String({ description: 'Normalised home' })),
  os: Type.Optional(AgentOs),
  local_origins: Type.Array(Type.String()),
});
