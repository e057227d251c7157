import canonicalize from 'canonicalize';
import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { Static } from 'typebox';
import type { Database } from '../../db/schema.ts';
import { Errors } from '../../errors.ts';
import type { AuditRepo } from '../audit/index.ts';
import {
  type CatalogueRule,
  type ProtectedResources,
  parseAccountRules,
  RULES_DIR,
} from './catalogue/index.ts';
import { readRuleFiles } from './catalogue/load.ts';
import { FORMAT_VERSION, type RuleFile } from './catalogue/schema.ts';
import { DEFAULT_EXECUTION_SETTINGS, type ExecutionSettings } from './execution.ts';
import {
  type AccountPolicy,
  type AccountRules,
  digestOf,
  MAX_ACCOUNT_RULES,
  MAX_RULES_BYTES,
  NO_ACCOUNT_RULES,
  normalizeProtected,
} from './policy.ts';
import type { CatalogueRulesRow, VerdictRepo, VerdictSettingsRow } from './repo.ts';
import type { AccountRulesSchema, CatalogueSchema } from './schemas.ts';

interface Caller {
  accountId: string;
  keyId: string;
}

export type CatalogueView = Static<typeof CatalogueSchema>;

export type RulesView = Static<typeof AccountRulesSchema>;

/** The rules as submitted: objects, since `putRules` stores no list with a rule that fails the rule schema. */
type SubmittedRules = RulesView['rules'];

const MAX_REMEMBERED_RULE_LISTS = 10_000;

/**
 * The account's part of the destructive-operation catalogue (its own rules, its protected
 * resources) and its execution settings: validated writes, audited in their transaction and
 * announced through the verdict service, and the views of them. The verdict service owns the
 * policy they become part of.
 */
export function createCatalogueSettings(deps: {
  db: Kysely<Database>;
  repo: Pick<VerdictRepo, 'findRules' | 'replaceRules'>;
  audit: Pick<AuditRepo, 'appendIn'>;
  log: Pick<Logger, 'warn'>;
  policyFor(accountId: string): AccountPolicy | Promise<AccountPolicy>;
  /** Writes verdict settings columns with their audit entry, then announces the change. */
  saveSettings(
    caller: Caller,
    auditAction: string,
    changes: Partial<Omit<VerdictSettingsRow, 'account_id' | 'updated_at'>>,
    details: Record<string, unknown>,
  ): Promise<void>;
  /** In force here at once, and on every other instance by the time it resolves. */
  changed(accountId: string): Promise<void>;
  now: () => Date;
}) {
  // The last rules read per account: a reload of an unchanged list reuses the parsed list, and so
  // the catalogue's index compiled for it (kept by list identity).
  const parsedRules = new Map<string, { text: string; rules: CatalogueRule[] }>();

  /** The rules as they were submitted (the policy holds them parsed). */
  async function readRules(accountId: string): Promise<RulesView> {
    const row = await deps.repo.findRules(accountId);
    if (!row) return rulesView({ ...NO_ACCOUNT_RULES, rules: [] });
    return rulesView({ ...row, rules: JSON.parse(row.rules) as SubmittedRules });
  }

  return {
    /** Stored rules passed `parseAccountRules` when written; one that no longer does is left out. */
    storedRules(accountId: string, row: CatalogueRulesRow): AccountRules {
      const known = parsedRules.get(accountId);
      if (known !== undefined && known.text === row.rules) {
        return { rules: known.rules, digest: row.digest, version: row.version, updated_at: row.updated_at };
      }
      const parsed = parseAccountRules(JSON.parse(row.rules) as unknown);
      if (!parsed.ok) {
        deps.log.warn(
          { account: accountId, errors: parsed.errors.slice(0, 5) },
          'stored catalogue rules no longer pass the rule schema; judging without them',
        );
        return { rules: [], digest: row.digest, version: row.version, updated_at: row.updated_at };
      }
      if (parsedRules.size >= MAX_REMEMBERED_RULE_LISTS) parsedRules.clear();
      parsedRules.set(accountId, { text: row.rules, rules: parsed.rules });
      return { rules: parsed.rules, digest: row.digest, version: row.version, updated_at: row.updated_at };
    },

    async describeCatalogue(accountId: string): Promise<CatalogueView> {
      return { ...builtInCatalogue(), account: await readRules(accountId) };
    },

    getRules: readRules,

    /** Replaces the account's own catalogue rules (an empty list removes them all). */
    async putRules(caller: Caller, input: unknown[]): Promise<RulesView> {
      if (input.length > MAX_ACCOUNT_RULES)
        throw Errors.validation(`An account can have at most ${MAX_ACCOUNT_RULES} catalogue rules`);
      let rules: CatalogueRule[] = [];
      if (input.length > 0) {
        // Checked against the rule schema first: what passes is bounded in depth and holds only
        // numbers JSON can write, so it has a canonical form.
        const parsed = parseAccountRules(input);
        if (!parsed.ok) {
          throw Errors.validation(
            `The catalogue rules are refused: ${parsed.errors[0] ?? 'they do not match the rule schema'}`,
            { errors: parsed.errors.slice(0, 50) },
          );
        }
        rules = parsed.rules;
      }
      const text = canonicalize(input) ?? '[]';
      if (Buffer.byteLength(text) > MAX_RULES_BYTES)
        throw Errors.validation(`The rules take more than ${MAX_RULES_BYTES} bytes as JSON`);
      const digest = digestOf(input);
      const at = deps.now().toISOString();
      const row = await deps.db.transaction().execute(async (trx) => {
        const saved = await deps.repo.replaceRules(trx, caller.accountId, { rules: text, digest }, at);
        await deps.audit.appendIn(trx, [
          {
            accountId: caller.accountId,
            actor: caller.keyId,
            action: rules.length > 0 ? 'catalogue.rules.replaced' : 'catalogue.rules.deleted',
            details: { rules: rules.length, digest, version: saved.version },
            at,
          },
        ]);
        return saved;
      });
      await deps.changed(caller.accountId);
      return rulesView({
        rules: input as SubmittedRules,
        digest,
        version: row.version,
        updated_at: row.updated_at,
      });
    },

    async getProtected(accountId: string): Promise<ProtectedResources> {
      return (await deps.policyFor(accountId)).catalogue.protected;
    },

    async putProtected(
      caller: Caller,
      input: Partial<Record<keyof ProtectedResources, string[]>>,
    ): Promise<ProtectedResources> {
      const checked = normalizeProtected(input);
      if (!checked.ok) {
        throw Errors.validation(checked.reason, {
          field: checked.field,
          ...(checked.index === undefined ? {} : { index: checked.index }),
        });
      }
      const resources = checked.resources;
      await deps.saveSettings(
        caller,
        'settings.protected.updated',
        { protected_resources: JSON.stringify(resources) },
        Object.fromEntries(Object.entries(resources).map(([kind, names]) => [kind, names.length])),
      );
      return resources;
    },

    async getExecution(accountId: string): Promise<ExecutionSettings> {
      return (await deps.policyFor(accountId)).execution;
    },

    async putExecution(
      caller: Caller,
      input: { allow_opaque: boolean; unrecognised?: ExecutionSettings['unrecognised'] | undefined },
    ): Promise<ExecutionSettings> {
      // PUT replaces: a posture left out is the default one.
      const settings: ExecutionSettings = {
        allow_opaque: input.allow_opaque,
        unrecognised: input.unrecognised ?? DEFAULT_EXECUTION_SETTINGS.unrecognised,
      };
      await deps.saveSettings(
        caller,
        'settings.execution.updated',
        { allow_opaque: settings.allow_opaque ? 1 : 0, unrecognised: settings.unrecognised },
        { ...settings },
      );
      return settings;
    },
  };
}

let builtIn: Omit<CatalogueView, 'account'> | undefined;

/**
 * The built-in rule files in brief, read once: they do not change while the process runs, and
 * the catalogue refused to start had any of them been invalid.
 */
function builtInCatalogue(): Omit<CatalogueView, 'account'> {
  if (builtIn !== undefined) return builtIn;
  const families: CatalogueView['built_in']['families'] = [];
  for (const { data } of readRuleFiles(RULES_DIR)) {
    const file = data as Partial<RuleFile> | undefined;
    if (file?.family === undefined || !Array.isArray(file.rules)) continue;
    const rules = file.rules.map((rule) => rule.id);
    families.push({
      family: file.family,
      ...(file.description ? { description: file.description } : {}),
      count: rules.length,
      rules,
    });
  }
  families.sort((a, b) => a.family.localeCompare(b.family));
  builtIn = {
    format_version: FORMAT_VERSION,
    built_in: { count: families.reduce((n, f) => n + f.count, 0), families },
  };
  return builtIn;
}

function rulesView(rules: Omit<AccountRules, 'rules'> & { rules: SubmittedRules }): RulesView {
  return {
    rules: rules.rules,
    count: rules.rules.length,
    version: rules.version,
    digest: rules.rules.length > 0 ? rules.digest : '',
    ...(rules.updated_at ? { updated_at: rules.updated_at } : {}),
  };
}
