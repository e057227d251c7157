/** What other code may use of usage: billing periods, the meter and the quota guard (auth, keys, billing). */
export type { UsageMeter } from './meter.ts';
export { dayOf } from './periods.ts';
export type { QuotaDecision, QuotaGuard } from './quota.ts';
export type { UsageRepo } from './repo.ts';
