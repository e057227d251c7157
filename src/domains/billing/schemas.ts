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

const Period = Type.Object({
  start: Type.String({ format: 'date-time' }),
  end: Type.String({ format: 'date-time' }),
});

const UsagePeriod = Type.Object(
  {
    start: Type.String({ format: 'date-time' }),
    end: Type.String({ format: 'date-time' }),
    basis: Type.Literal('calendar_month_utc'),
    note: Type.String(),
  },
  {
    description:
      'The period API calls are counted in: the calendar month in UTC, whatever the dates of the subscription period.',
  },
);

const SubscriptionPeriod = Type.Union([Period, Type.Null()], {
  description:
    'The current period of the paid subscription, as the provider renews and invoices it (it can start on any day, e.g. the 23rd); null without an active subscription.',
});

export const StatusResponse = Type.Object({
  success: Type.Literal(true),
  plan: Type.String(),
  status: Type.Union([Type.Literal('active'), Type.Literal('past_due'), Type.Literal('canceled')]),
  provider: Type.String({ description: 'local, stripe, or none (never subscribed)' }),
  plan_details: PlanDetails,
  billing_period: Type.Object(Period.properties, {
    description: 'subscription_period when there is an active subscription, else the calendar month (UTC)',
  }),
  subscription_period: SubscriptionPeriod,
  usage_period: UsagePeriod,
  subscribed_since: Nullable(Type.String()),
});

export const UsageResponse = Type.Object({
  success: Type.Literal(true),
  plan: Type.String(),
  period: Type.Object(
    { start: Type.String(), end: Type.String() },
    { description: 'The usage period (see usage_period): the calendar month in UTC' },
  ),
  usage_period: UsagePeriod,
  subscription_period: SubscriptionPeriod,
  total_api_calls: Type.Integer({ description: 'Calls in the usage period' }),
  total_cost_usd: Type.Number({
    description:
      "The plan's price for the usage period, prorated when the plan became active during it (see cost)",
  }),
  cost: Type.Object(
    {
      amount_usd: Type.Number({ description: 'Equal to total_cost_usd' }),
      price_usd_month: Type.Number(),
      prorated: Type.Boolean({
        description: 'True when the plan was active for only part of the usage period',
      }),
      charged_from: Type.String({
        format: 'date-time',
        description: 'The start of the usage period, or when the plan became active if later',
      }),
      share_of_month: Type.Number({ minimum: 0, maximum: 1 }),
      explanation: Type.String(),
    },
    { description: 'How total_cost_usd was computed' },
  ),
  monthly_call_allowance: Nullable(Type.Integer()),
  remaining_calls: Nullable(Type.Integer()),
  by_endpoint: Type.Array(Type.Object({ endpoint: Type.String(), calls: Type.Integer() })),
  by_day: Type.Array(Type.Object({ day: Type.String(), calls: Type.Integer() })),
  by_key: Type.Array(
    Type.Object({ key_id: Type.String(), name: Nullable(Type.String()), calls: Type.Integer() }),
  ),
});

export const TokenParams = Type.Object({ token: Type.String({ minLength: 1, maxLength: 200 }) });
