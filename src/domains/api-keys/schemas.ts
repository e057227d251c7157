import { Type } from 'typebox';
import { Uuid } from '../../http/common-schemas.ts';
import { KEY_ROLES } from './roles.ts';

export const KeyName = Type.String({ minLength: 1, maxLength: 100, description: 'A label for the key' });

export const KeyRoleSchema = Type.Union(
  [Type.Literal(KEY_ROLES[0]), Type.Literal(KEY_ROLES[1]), Type.Literal(KEY_ROLES[2])],
  {
    description:
      'agent: evaluate, judge and memory; operator: + escalation decisions, settings, policies, webhooks, audit, usage; admin: + keys, billing, GDPR',
  },
);

export const CreateKeyBody = Type.Object(
  {
    name: KeyName,
    /** What the key may do (default `agent`); never above the creating key's own role. */
    role: Type.Optional(KeyRoleSchema),
  },
  { additionalProperties: false },
);

export const CreatedKeySchema = Type.Object({
  success: Type.Literal(true),
  id: Uuid,
  key: Type.String({ description: 'The secret key. Shown once; store it now.' }),
  name: Type.String(),
  role: KeyRoleSchema,
  created_at: Type.String({ format: 'date-time' }),
});

/** Response schemas list the fields that may leave the service: a key hash never can. */
export const ListedKeySchema = Type.Object({
  id: Uuid,
  key: Type.String({ description: 'Masked: arbiter_sk_…last4' }),
  name: Type.String(),
  role: KeyRoleSchema,
  created_at: Type.String({ format: 'date-time' }),
  revoked_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  status: Type.Union([Type.Literal('active'), Type.Literal('revoked')]),
  calls_this_month: Type.Integer({ minimum: 0 }),
});

export const KeyIdParams = Type.Object({ key_id: Type.String({ minLength: 1, maxLength: 100 }) });

export const WhoAmISchema = Type.Object({
  account_id: Uuid,
  key_id: Uuid,
  plan: Type.String(),
  role: KeyRoleSchema,
});
