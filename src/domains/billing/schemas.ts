import { Type } from 'typebox';

export const CheckoutBody = Type.Object(
  {
    plan_id: Type.String({ minLength: 1, maxLength: 50 }),
    success_url: Type.String({ minLength: 1, maxLength: 2000, description: 'Absolute http(s) URL' }),
    cancel_url: Type.String({ minLength: 1, maxLength: 2000, description: 'Absolute http(s) URL' }),
  },
  { additionalProperties: false },
);

export const CheckoutResponse = Type.Object({
  success: Type.Literal(true),
  checkout_url: Type.String({ description: 'Where a person confirms and pays' }),
  session_id: Type.String(),
  provider: Type.String(),
  expires_at: Type.String({ format: 'date-time' }),
});

const Nullable = <T extends ReturnType<typeof Type.Integer> | ReturnType<typeof Type.String>>(t: T) =>
  Type.Union([t, Type.Null()]);

export const PlanDetails = Type.Object({
  id: Type.String(),
  name: Type.String(),
  price_usd_month: Type.Number(),
  currency: Type.String(),
  monthly_call_allowance: Nullable(Type.Integer()),
  max_api_keys: Nullable(Type.Integer()),
  features: Type.Array(Type.String()),
});

export const PlansResponse = Type.Object({
  success: Type.Literal(true),
  plans: Type.Array(Type.Object({ ...PlanDetails.properties, purchasable: Type.Boolean() })),
});

export const StatusResponse = Type.Object({
  success: Type.Literal(true),
  plan: Type.String(),
  status: Type.Union([Type.Literal('active'), Type.Literal('past_due'), Type.Literal('canceled')]),
  provider: Type.String({ description: 'local, stripe, or none (never subscribed)' }),
  plan_details: PlanDetails,
  billing_period: Type.Object({
    start: Type.String({ format: 'date-time' }),
    end: Type.String({ format: 'date-time' }),
  }),
  subscribed_since: Nullable(Type.String()),
});

export const UsageResponse = Type.Object({
  success: Type.Literal(true),
  plan: Type.String(),
  period: Type.Object({ start: Type.String(), end: Type.String() }),
  total_api_calls: Type.Integer(),
  total_cost_usd: Type.Number(),
  monthly_call_allowance: Nullable(Type.Integer()),
  remaining_calls: Nullable(Type.Integer()),
  by_endpoint: Type.Array(Type.Object({ endpoint: Type.String(), calls: Type.Integer() })),
  by_day: Type.Array(Type.Object({ day: Type.String(), calls: Type.Integer() })),
  by_key: Type.Array(
    Type.Object({ key_id: Type.String(), name: Nullable(Type.String()), calls: Type.Integer() }),
  ),
});

export const TokenParams = Type.Object({ token: Type.String({ minLength: 1, maxLength: 200 }) });
