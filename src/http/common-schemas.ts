import { Type } from 'typebox';

/** The DESIGN error body, referenced by every route's error responses for OpenAPI. */
export const ErrorBodySchema = Type.Object(
  {
    success: Type.Literal(false),
    error: Type.Object({
      code: Type.String(),
      message: Type.String(),
      details: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
    }),
    request_id: Type.String(),
  },
  { $id: 'ErrorBody', description: 'Every error but a verdict has this body' },
);

export const errorResponses = {
  400: Type.Ref('ErrorBody'),
  401: Type.Ref('ErrorBody'),
  404: Type.Ref('ErrorBody'),
  413: Type.Ref('ErrorBody'),
  415: Type.Ref('ErrorBody'),
  429: Type.Ref('ErrorBody'),
} as const;

export const SuccessSchema = Type.Object({ success: Type.Boolean() });

export const Uuid = Type.String({ format: 'uuid' });
