import { Type } from 'typebox';

export const AuditListQuery = Type.Object(
  {
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 500, default: 100 })),
    cursor: Type.Optional(
      Type.String({ pattern: '^[0-9]{1,15}$', description: 'next_cursor of the previous page' }),
    ),
  },
  { additionalProperties: false },
);

export const AuditEntrySchema = Type.Object({
  id: Type.String(),
  seq: Type.Integer(),
  at: Type.String({ format: 'date-time' }),
  actor: Type.String({ description: 'An API key id, operator, system, checkout or stripe' }),
  action: Type.String(),
  target: Type.Union([Type.String(), Type.Null()]),
  details: Type.Record(Type.String(), Type.Unknown()),
  prev_hash: Type.String(),
  hash: Type.String(),
});

export const AuditListResponse = Type.Object({
  success: Type.Literal(true),
  entries: Type.Array(AuditEntrySchema),
  next_cursor: Type.Union([Type.String(), Type.Null()]),
});

export const AuditVerifyResponse = Type.Object({
  success: Type.Literal(true),
  valid: Type.Boolean(),
  entries: Type.Integer(),
  first_bad_seq: Type.Optional(Type.Integer()),
  first_bad_id: Type.Optional(Type.String()),
  reason: Type.Optional(Type.String()),
});
