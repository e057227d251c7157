import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { DEFAULT_EGRESS_SETTINGS } from '../verdict/analyzers/egress.ts';
import { compileActionSchema } from '../verdict/catalog.ts';
import {
  type AccountPolicy,
  type CustomAction,
  DEFAULT_LOOP_SETTINGS,
  DEFAULT_POLICY_VERSION,
  digestOf,
  policyVersion,
} from '../verdict/policy.ts';
import { PolicyCache } from '../verdict/policy-cache.ts';
import { createVerdictRepo } from '../verdict/repo.ts';

/**
 * Adapter over the verdict domain's per-account settings (egress, loop limits, custom actions).
 * The verdict service keeps its loaded settings private, so this reads the same tables through
 * the verdict repo and caches them with the verdict domain's own `PolicyCache` (≤ 1 s), which
 * makes a settings change reach the judgment engine on every instance within a second.
 */
export function createVerdictSettingsReader(db: Kysely<Database>, maxAgeMs = 1000) {
  const repo = createVerdictRepo(db);

  async function load(accountId: string): Promise<AccountPolicy> {
    const [settings, rows] = await Promise.all([repo.findSettings(accountId), repo.listActions(accountId)]);
    const list = (json: string): string[] => {
      const value: unknown = JSON.parse(json);
      return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
    };
    const egress = settings
      ? {
          mode: settings.egress_mode === 'allowlist' ? ('allowlist' as const) : ('denylist' as const),
          trusted_domains: list(settings.trusted_domains),
          blocked_domains: list(settings.blocked_domains),
        }
      : DEFAULT_EGRESS_SETTINGS;
    const actions = new Map<string, CustomAction>();
    for (const row of rows) {
      const schema = JSON.parse(row.schema) as Record<string, unknown>;
      const compiled = compileActionSchema(schema);
      // A stored schema that no longer compiles leaves the action unknown: SCHEMA_MISMATCH.
      if (compiled.ok) {
        actions.set(row.name, {
          name: row.name,
          schema,
          validate: compiled.validate,
          digest: digestOf(schema),
          created_at: row.created_at,
          updated_at: row.updated_at,
        });
      }
    }
    return {
      egress,
      loop: settings
        ? { threshold: settings.loop_threshold, window_seconds: Math.round(settings.loop_window_ms / 1000) }
        : DEFAULT_LOOP_SETTINGS,
      actions,
      version: settings ? policyVersion(egress) : DEFAULT_POLICY_VERSION,
    };
  }

  const cache = new PolicyCache(load, maxAgeMs);
  return {
    forAccount(accountId: string): AccountPolicy | Promise<AccountPolicy> {
      return cache.get(accountId);
    },
  };
}

export type VerdictSettingsReader = ReturnType<typeof createVerdictSettingsReader>;
