import type { AccountPolicy, VerdictService } from '../verdict/index.ts';

/**
 * What the judgment engine reads of the verdict domain's per-account settings: egress, loop
 * limits, custom actions, catalogue rules, protected resources and execution settings. It is the
 * verdict service's own policy port and cache, so a settings change is in force for both engines
 * at the same moment, on every instance (see PolicyChangeBus).
 */
export interface VerdictSettingsReader {
  forAccount(accountId: string): AccountPolicy | Promise<AccountPolicy>;
}

export function verdictSettingsReader(verdicts: Pick<VerdictService, 'policyFor'>): VerdictSettingsReader {
  return { forAccount: (accountId) => verdicts.policyFor(accountId) };
}
