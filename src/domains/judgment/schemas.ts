import { type TLiteral, Type } from 'typebox';
import { Uuid } from '../../http/common-schemas.ts';
import { ExpectedStateHash } from '../../lib/state-precondition.ts';
import { ACTOR_ROLES, IMPACT_SCOPES } from '../../shared/action-vocabulary.ts';
import { AgentContextSchema } from '../verdict/index.ts';
import { GATE_NAMES, type GateName } from './gates.ts';

/** One literal per word, in order (`anyOf` of `const`, as the API has always described them). */
type Literals<T extends readonly string[]> = { -readonly [K in keyof T]: TLiteral<T[K]> };
const Role = Type.Union(ACTOR_ROLES.map((w) => Type.Literal(w)) as Literals<typeof ACTOR_ROLES>);
const Scope = Type.Union(IMPACT_SCOPES.map((w) => Type.Literal(w)) as Literals<typeof IMPACT_SCOPES>);
const DecisionSchema = Type.Union([
  Type.Literal('ALLOWED'),
  Type.Literal('BLOCKED'),
  Type.Literal('ESCALATE'),
]);
export const StatusSchema = Type.Union([
  Type.Literal('allowed'),
  Type.Literal('blocked'),
  Type.Literal('pending'),
  Type.Literal('approved'),
  Type.Literal('denied'),
  Type.Literal('expired'),
]);
const Timestamp = Type.String({ format: 'date-time' });
const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T) => Type.Union([t, Type.Null()]);

export const EvaluateBody = Type.Object(
  {
    action_type: Type.String({
      minLength: 1,
      maxLength: 200,
      description: 'a built-in action (db.query, shell.exec, fs.read, …) or one the account registered',
    }),
    actor: Type.String({
      minLength: 1,
      maxLength: 200,
      description: 'who proposes the action (an agent or user id)',
    }),
    actor_role: Role,
    payload: Type.Record(Type.String(), Type.Unknown(), { description: "the action's parameters" }),
    impact_scope: Scope,
    expected_state_hash: Type.Optional(ExpectedStateHash),
    context: Type.Optional(AgentContextSchema),
  },
  { additionalProperties: false },
);

export const GateSchema = Type.Object({
  passed: Type.Boolean(),
  outcome: Type.Union([Type.Literal('pass'), Type.Literal('block'), Type.Literal('escalate')]),
  code: Type.Optional(Type.String()),
  reason: Type.String(),
  policies: Type.Optional(
    Type.Array(Type.String(), { description: 'Cedar policies that decided this gate' }),
  ),
});

// Typed by gate name, so that `Static` has one property per gate (as `Gates` does), not an index.
export const GatesSchema = Type.Object(
  Object.fromEntries(GATE_NAMES.map((g) => [g, GateSchema])) as Record<GateName, typeof GateSchema>,
);

export const EvaluateResponse = Type.Object({
  decision: DecisionSchema,
  reason: Type.String(),
  evaluation_id: Uuid,
  gates: GatesSchema,
  status: StatusSchema,
  action_kind: Type.String(),
  policy_version: Type.Integer({ minimum: 0 }),
  created_at: Timestamp,
  expires_at: Nullable(Timestamp),
});

export const EvaluationSchema = Type.Object({
  evaluation_id: Uuid,
  decision: DecisionSchema,
  status: StatusSchema,
  outcome: Type.Union([Type.Literal('ALLOWED'), Type.Literal('BLOCKED'), Type.Null()], {
    description: 'what the agent should do now; null while a human has not decided',
  }),
  reason: Type.String(),
  gates: GatesSchema,
  actor: Type.String(),
  actor_role: Type.String(),
  action_type: Type.String(),
  action_kind: Type.String(),
  impact_scope: Type.String(),
  policy_version: Type.Integer({ minimum: 0 }),
  payload: Type.Unknown({ description: 'kept for escalations only, for the human who decides' }),
  payload_sha256: Type.String(),
  created_at: Timestamp,
  expires_at: Nullable(Timestamp),
  decided_at: Nullable(Timestamp),
  decided_by: Nullable(Type.String()),
  comment: Nullable(Type.String()),
});

export const EvaluationParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 100 }) });

export const DecisionBody = Type.Object(
  { comment: Type.Optional(Type.String({ maxLength: 2000 })) },
  { additionalProperties: false },
);

export const ListQuery = Type.Object(
  {
    decision: Type.Optional(DecisionSchema),
    status: Type.Optional(StatusSchema),
    actor: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    from: Type.Optional(Type.String({ format: 'date-time', description: 'created at or after' })),
    to: Type.Optional(Type.String({ format: 'date-time', description: 'created before' })),
    cursor: Type.Optional(Type.String({ minLength: 1, maxLength: 500 })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, default: 50 })),
  },
  { additionalProperties: false },
);

export const ListResponse = Type.Object({
  evaluations: Type.Array(EvaluationSchema),
  next_cursor: Nullable(Type.String()),
});
