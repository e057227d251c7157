import { Type } from 'typebox';
import { Uuid } from '../../http/common-schemas.ts';

export const KeyName = Type.String({ minLength: 1, maxLength: 100, description: 'A label for the key' });

export const CreateKeyBody = Type.Object({ name: KeyName }, { additionalProperties: false });

export const CreatedKeySchema = Type.Object({
  success: Type.Literal(true),
  id: Uuid,
  key: Type.String({ description: 'The secret key. Shown once; store it now.' }),
  name: Type.String(),
  created_at: Type.String({ format: 'date-time' }),
});

/** Response schemas list the fields that may leave the service: a key hash never can. */
export const ListedKeySchema = Type.Object({
  id: Uuid,
  key: Type.String({ description: 'Masked: arbiter_sk_…last4' }),
  name: Type.String(),
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
});
