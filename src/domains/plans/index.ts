/** What other code may use of plans: the catalogue (config loads it; billing and webhooks read limits). */
export { FALLBACK_PLAN, findPlan, loadPlans, type Plan } from './catalog.ts';
