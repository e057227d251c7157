/** What the plans domain adds to the catalogue: finding a plan and the one accounts fall back to. */
import type { Plan } from '../../lib/plan-catalogue.ts';

export { DEFAULT_PLANS, loadPlans, type Plan } from '../../lib/plan-catalogue.ts';

/** The plan an account falls back to when a paid subscription ends. */
export const FALLBACK_PLAN = 'free';

export function findPlan(plans: readonly Plan[], id: string): Plan | undefined {
  return plans.find((p) => p.id === id);
}
