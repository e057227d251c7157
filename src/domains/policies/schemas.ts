import { Type } from 'typebox';

/** Large enough for hundreds of policies; the probe for contradictions runs on every upload. */
export const POLICY_TEXT_LIMIT = 64 * 1024;

export const PutPolicyBody = Type.Object(
  {
    policies: Type.String({
      minLength: 1,
      maxLength: POLICY_TEXT_LIMIT,
      description: 'The whole policy document, in the Cedar language (see `schema` in GET /v2/policies)',
    }),
  },
  { additionalProperties: false },
);

export const PolicyQuery = Type.Object(
  {
    version: Type.Optional(
      Type.Integer({ minimum: 0, maximum: 1_000_000_000, description: 'an older version' }),
    ),
  },
  { additionalProperties: false },
);

const PolicyInfo = Type.Object({
  id: Type.String(),
  effect: Type.Union([Type.Literal('permit'), Type.Literal('forbid')]),
  escalate: Type.Union([Type.String(), Type.Null()], { description: 'the @escalate reason, if any' }),
  line: Type.Integer(),
});

export const PolicyDocumentSchema = Type.Object({
  version: Type.Integer({ minimum: 0, description: '0 is the built-in default' }),
  policies: Type.String({ description: 'Cedar text' }),
  is_default: Type.Boolean(),
  created_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  created_by: Type.Union([Type.String(), Type.Null()], { description: 'the API key id that uploaded it' }),
  schema: Type.String({ description: 'the Cedar schema policies are validated against' }),
});

export const PutPolicyResponse = Type.Object({
  success: Type.Literal(true),
  version: Type.Integer({ minimum: 1 }),
  created_at: Type.String({ format: 'date-time' }),
  policies: Type.Array(PolicyInfo),
});
