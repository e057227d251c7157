import type { Migration } from 'kysely';
import * as accountsAndKeys from './202611221600_accounts_and_keys.ts';
import * as auditLog from './202611221700_audit_log.ts';
import * as verdicts from './202611221800_verdicts.ts';
import * as billingAndWebhooks from './202611221900_billing_and_webhooks.ts';
import * as claimLedger from './202611222000_claim_ledger.ts';
import * as judgment from './202611222100_judgment.ts';
import * as verdictCatalogue from './202611230900_verdict_catalogue.ts';
import * as consoleSessions from './202611231500_console_sessions.ts';
import * as ledgerSettings from './202611231700_ledger_settings.ts';
import * as evaluationsByStatus from './202611231800_evaluations_by_status.ts';
import * as quotaCounters from './202611261030_quota_counters.ts';
import * as claimsTsvPseudonyms from './202611261130_claims_tsv_pseudonyms.ts';
import * as claimsTsvFastupdateOff from './202611261500_claims_tsv_fastupdate_off.ts';
import * as keyRoles from './202611281000_key_roles.ts';
import * as webhookFailingSince from './202611281100_webhook_failing_since.ts';
import * as unrecognisedPosture from './202611281200_unrecognised_posture.ts';
import * as ledgerNamesSetting from './202611281300_ledger_names_setting.ts';
import * as ledgerNames from './202611281400_ledger_names.ts';
import * as verdictContext from './202611281500_verdict_context.ts';

/**
 * Every migration, in order. A static list (rather than a folder scan) keeps migrations working
 * the same under tsx, in tests and in a bundled build. Names are `YYYYMMDDHHmm_slug`.
 */
export const migrations: Record<string, Migration> = {
  '202611221600_accounts_and_keys': accountsAndKeys,
  '202611221700_audit_log': auditLog,
  '202611221800_verdicts': verdicts,
  '202611221900_billing_and_webhooks': billingAndWebhooks,
  '202611222000_claim_ledger': claimLedger,
  '202611222100_judgment': judgment,
  '202611230900_verdict_catalogue': verdictCatalogue,
  '202611231700_ledger_settings': ledgerSettings,
  '202611231500_console_sessions': consoleSessions,
  '202611231800_evaluations_by_status': evaluationsByStatus,
  '202611261030_quota_counters': quotaCounters,
  '202611261130_claims_tsv_pseudonyms': claimsTsvPseudonyms,
  '202611261500_claims_tsv_fastupdate_off': claimsTsvFastupdateOff,
  '202611281000_key_roles': keyRoles,
  '202611281100_webhook_failing_since': webhookFailingSince,
  '202611281200_unrecognised_posture': unrecognisedPosture,
  '202611281300_ledger_names_setting': ledgerNamesSetting,
  '202611281400_ledger_names': ledgerNames,
  '202611281500_verdict_context': verdictContext,
};
