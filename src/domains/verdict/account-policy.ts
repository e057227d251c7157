import type { Logger } from 'pino';
import { type ContextSettings, NO_CONTEXT_SETTINGS, readContextSettings } from './agent-context.ts';
import { DEFAULT_EGRESS_SETTINGS, type EgressSettings } from './analyzers/egress.ts';
import { compileActionSchema } from './catalog.ts';
import { EMPTY_PROTECTED_RESOURCES } from './catalogue/index.ts';
import { DEFAULT_EXECUTION_SETTINGS, type ExecutionSettings } from './execution.ts';
import {
  type AccountPolicy,
  type AccountRules,
  type CustomAction,
  DEFAULT_LOOP_SETTINGS,
  DEFAULT_POLICY_VERSION,
  digestOf,
  type LoopSettings,
  NO_ACCOUNT_RULES,
  parseProtected,
  policyVersion,
} from './policy.ts';
import type { CatalogueRulesRow, CustomActionRow, VerdictRepo } from './repo.ts';

/** The stored context settings; a row written by a newer schema that no longer reads is none. */
function parseContextSettings(json: string): ContextSettings | undefined {
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    return undefined;
  }
  const checked = readContextSettings(value);
  return checked.ok ? checked.value : undefined;
}

function parseList(json: string): string[] {
  const value = JSON.parse(json) as unknown;
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

export function toCustomAction(row: CustomActionRow): CustomAction | undefined {
  const schema = JSON.parse(row.schema) as Record<string, unknown>;
  const compiled = compileActionSchema(schema);
  if (!compiled.ok) return undefined;
  return {
    name: row.name,
    schema,
    validate: compiled.validate,
    digest: digestOf(schema),
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

/**
 * An account's policy read from its stored settings, custom actions and catalogue rules (what
 * the policy cache holds); defaults where the account stored nothing.
 */
export async function loadAccountPolicy(
  deps: {
    repo: Pick<VerdictRepo, 'findSettings' | 'listActions' | 'findRules'>;
    log: Pick<Logger, 'warn'>;
    storedRules(accountId: string, row: CatalogueRulesRow): AccountRules;
  },
  accountId: string,
): Promise<AccountPolicy> {
  const [settings, rows, ruleRow] = await Promise.all([
    deps.repo.findSettings(accountId),
    deps.repo.listActions(accountId),
    deps.repo.findRules(accountId),
  ]);
  const egress: EgressSettings = settings
    ? {
        mode: settings.egress_mode === 'allowlist' ? 'allowlist' : 'denylist',
        trusted_domains: parseList(settings.trusted_domains),
        blocked_domains: parseList(settings.blocked_domains),
      }
    : DEFAULT_EGRESS_SETTINGS;
  const loop: LoopSettings = settings
    ? { threshold: settings.loop_threshold, window_seconds: Math.round(settings.loop_window_ms / 1000) }
    : DEFAULT_LOOP_SETTINGS;
  const actions = new Map<string, CustomAction>();
  for (const row of rows) {
    const action = toCustomAction(row);
    if (action) actions.set(row.name, action);
    else
      deps.log.warn(
        { account: accountId, action: row.name },
        'stored custom action schema no longer compiles',
      );
  }
  const protectedResources = settings
    ? parseProtected(settings.protected_resources)
    : EMPTY_PROTECTED_RESOURCES;
  const execution: ExecutionSettings = settings
    ? {
        allow_opaque: settings.allow_opaque === 1,
        unrecognised: settings.unrecognised === 'refuse' ? 'refuse' : 'allow',
      }
    : DEFAULT_EXECUTION_SETTINGS;
  const rules = ruleRow ? deps.storedRules(accountId, ruleRow) : NO_ACCOUNT_RULES;
  let context = NO_CONTEXT_SETTINGS;
  if (settings && settings.context !== '{}') {
    const stored = parseContextSettings(settings.context);
    if (stored) context = stored;
    else deps.log.warn({ account: accountId }, 'stored context settings no longer read; using none');
  }
  return {
    // The named local origins ride with the egress settings, which http.request is judged by.
    egress: context.local_origins.length > 0 ? { ...egress, local_origins: context.local_origins } : egress,
    context,
    loop,
    actions,
    catalogue: { protected: protectedResources, accountRules: rules.rules },
    execution,
    rules,
    version:
      settings || ruleRow
        ? policyVersion({
            egress,
            protected: protectedResources,
            execution,
            rulesDigest: rules.rules.length > 0 ? rules.digest : '',
            context,
          })
        : DEFAULT_POLICY_VERSION,
  };
}
