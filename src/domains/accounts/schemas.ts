import { Type } from 'typebox';
import { Uuid } from '../../http/common-schemas.ts';

export const CreateAccountBody = Type.Object(
  {
    email: Type.String({ format: 'email', maxLength: 254 }),
    name: Type.String({ minLength: 1, maxLength: 200 }),
    plan: Type.Optional(Type.String({ minLength: 1, maxLength: 50 })),
  },
  { additionalProperties: false },
);

export const CreatedAccountSchema = Type.Object({
  success: Type.Literal(true),
  account: Type.Object({
    id: Uuid,
    email: Type.String(),
    name: Type.String(),
    plan: Type.String(),
    created_at: Type.String({ format: 'date-time' }),
  }),
  api_key: Type.Object({
    id: Uuid,
    key: Type.String({ description: 'The secret key. Shown once.' }),
    name: Type.String(),
    created_at: Type.String({ format: 'date-time' }),
  }),
});
