import { Type } from 'typebox';

const EndpointId = Type.String({ minLength: 1, maxLength: 100 });

export const CreateWebhookBody = Type.Object(
  {
    url: Type.String({ minLength: 1, maxLength: 2000, description: 'HTTPS URL that receives the events' }),
    description: Type.Optional(Type.String({ maxLength: 500 })),
    event_types: Type.Optional(
      Type.Array(Type.String({ minLength: 1, maxLength: 100 }), {
        maxItems: 50,
        description: 'Types to receive (GET /webhooks/event-types); omitted or empty = all',
      }),
    ),
  },
  { additionalProperties: false },
);

const endpointFields = {
  id: Type.String(),
  url: Type.String(),
  description: Type.String(),
  event_types: Type.Array(Type.String()),
  status: Type.Union([Type.Literal('enabled'), Type.Literal('disabled')]),
  disabled_reason: Type.Union([Type.String(), Type.Null()]),
  created_at: Type.String({ format: 'date-time' }),
  updated_at: Type.String({ format: 'date-time' }),
};

export const EndpointSchema = Type.Object(endpointFields);

export const CreatedEndpointSchema = Type.Object({
  success: Type.Literal(true),
  ...endpointFields,
  secret: Type.String({
    description: 'Signing secret (Standard Webhooks, whsec_…). Shown once; store it now.',
  }),
});

export const EndpointResponse = Type.Object({ success: Type.Literal(true), webhook: EndpointSchema });
export const EndpointListResponse = Type.Object({
  success: Type.Literal(true),
  webhooks: Type.Array(EndpointSchema),
});

export const EventTypesResponse = Type.Object({
  success: Type.Literal(true),
  signing: Type.String(),
  event_types: Type.Array(Type.Object({ type: Type.String(), description: Type.String() })),
});

export const WebhookParams = Type.Object({ webhook_id: EndpointId });
export const DeliveryParams = Type.Object({
  webhook_id: EndpointId,
  delivery_id: Type.String({ minLength: 1, maxLength: 100 }),
});

export const DeliveriesQuery = Type.Object(
  {
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })),
    cursor: Type.Optional(Type.String({ minLength: 1, maxLength: 300 })),
  },
  { additionalProperties: false },
);

const Nullable = <T extends ReturnType<typeof Type.String> | ReturnType<typeof Type.Integer>>(t: T) =>
  Type.Union([t, Type.Null()]);

export const DeliveriesResponse = Type.Object({
  success: Type.Literal(true),
  deliveries: Type.Array(
    Type.Object({
      id: Type.String(),
      event_id: Type.String(),
      event_type: Type.String(),
      status: Type.String({ description: 'pending, delivering, succeeded or failed' }),
      attempts: Type.Integer(),
      next_attempt_at: Nullable(Type.String()),
      last_status_code: Nullable(Type.Integer()),
      last_error: Nullable(Type.String()),
      created_at: Type.String(),
      completed_at: Nullable(Type.String()),
      attempt_log: Type.Array(
        Type.Object({
          attempt: Type.Integer(),
          at: Type.String(),
          status_code: Nullable(Type.Integer()),
          error: Nullable(Type.String()),
          duration_ms: Type.Integer(),
        }),
      ),
    }),
  ),
  next_cursor: Nullable(Type.String()),
});

export const RedeliverResponse = Type.Object({
  success: Type.Literal(true),
  delivery_id: Type.String(),
  event_id: Type.String(),
});
