import fs from 'node:fs';
import Type, { type Static } from 'typebox';
import { Value } from 'typebox/value';

/**
 * The plan catalogue's file format, parsed with the rest of the configuration at start (so
 * `config.ts` reads it from here and not from the plans domain). Plans as data. `free` and `developer` are the spec's tiers; `owner` is the operator's own
 * unlimited account. An operator replaces or adds plans with a JSON file (`ARBITER_PLANS_FILE`).
 */
const PlanSchema = Type.Object(
  {
    id: Type.String({ pattern: '^[a-z0-9_-]{1,50}$' }),
    name: Type.String({ minLength: 1, maxLength: 100 }),
    price_usd_month: Type.Number({ minimum: 0 }),
    currency: Type.Literal('USD'),
    /** null = unlimited */
    monthly_call_allowance: Type.Union([Type.Integer({ minimum: 0 }), Type.Null()]),
    /** null = unlimited */
    max_api_keys: Type.Union([Type.Integer({ minimum: 1 }), Type.Null()]),
    features: Type.Array(Type.String({ minLength: 1, maxLength: 50 })),
    /** Whether `POST /subscription/checkout` offers the plan. */
    purchasable: Type.Boolean(),
    /** A Stripe Price to bill; without one, Checkout is given the price inline. */
    stripe_price_id: Type.Optional(Type.String({ minLength: 1 })),
  },
  { additionalProperties: false },
);

export type Plan = Static<typeof PlanSchema>;

export const DEFAULT_PLANS: readonly Plan[] = Object.freeze([
  {
    id: 'free',
    name: 'Free',
    price_usd_month: 0,
    currency: 'USD',
    monthly_call_allowance: 1000,
    max_api_keys: 3,
    features: ['verdicts', 'claim_ledger', 'judgment'],
    purchasable: false,
  },
  {
    id: 'developer',
    name: 'Developer',
    price_usd_month: 99,
    currency: 'USD',
    monthly_call_allowance: null,
    max_api_keys: null,
    features: ['verdicts', 'claim_ledger', 'judgment', 'webhooks'],
    purchasable: true,
  },
  {
    id: 'owner',
    name: 'Operator',
    price_usd_month: 0,
    currency: 'USD',
    monthly_call_allowance: null,
    max_api_keys: null,
    features: ['verdicts', 'claim_ledger', 'judgment', 'webhooks'],
    purchasable: false,
  },
]);

/**
 * The default plans with the file's plans laid over them by id: a file may change the free
 * allowance or add a `team` plan without repeating everything else. Throws one readable line.
 */
export function loadPlans(file: string | undefined): readonly Plan[] {
  if (file === undefined) return DEFAULT_PLANS;
  let parsed: unknown;
  try {
    parsed = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (err) {
    throw new Error(`cannot read ${file} as JSON: ${(err as Error).message}`);
  }
  const list = Type.Array(PlanSchema);
  if (!Value.Check(list, parsed)) {
    const first = [...Value.Errors(list, parsed)][0];
    throw new Error(`${file}${first?.instancePath ?? ''} ${first?.message ?? 'is not a list of plans'}`);
  }
  const byId = new Map(DEFAULT_PLANS.map((p) => [p.id, p]));
  for (const plan of parsed) byId.set(plan.id, plan);
  return Object.freeze([...byId.values()].map((p) => Object.freeze({ ...p })));
}
