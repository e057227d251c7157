/**
 * Plans as data. `free` and `developer` are the spec's tiers; `owner` is the operator's own
 * unlimited account. Operators will be able to override these (issue: accounts & billing).
 */
export interface Plan {
  id: string;
  name: string;
  price_usd_month: number;
  currency: 'USD';
  /** null = unlimited */
  monthly_call_allowance: number | null;
  /** null = unlimited */
  max_api_keys: number | null;
  features: string[];
}

export const DEFAULT_PLANS: readonly Plan[] = Object.freeze([
  {
    id: 'free',
    name: 'Free',
    price_usd_month: 0,
    currency: 'USD',
    monthly_call_allowance: 1000,
    max_api_keys: 3,
    features: ['verdicts', 'claim_ledger', 'judgment'],
  },
  {
    id: 'developer',
    name: 'Developer',
    price_usd_month: 99,
    currency: 'USD',
    monthly_call_allowance: null,
    max_api_keys: null,
    features: ['verdicts', 'claim_ledger', 'judgment', 'webhooks'],
  },
  {
    id: 'owner',
    name: 'Operator',
    price_usd_month: 0,
    currency: 'USD',
    monthly_call_allowance: null,
    max_api_keys: null,
    features: ['verdicts', 'claim_ledger', 'judgment', 'webhooks'],
  },
]);
