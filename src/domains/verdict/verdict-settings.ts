import type { Kysely } from 'kysely';
import type { Static } from 'typebox';
import type { Database } from '../../db/schema.ts';
import { Errors } from '../../errors.ts';
import type { AuditRepo } from '../audit/index.ts';
import { type ContextSettings, readContextSettings } from './agent-context.ts';
import { DEFAULT_EGRESS_SETTINGS, type EgressSettings } from './analyzers/egress.ts';
import { BUILT_IN_ACTIONS, BUILT_IN_SCHEMAS, compileActionSchema, isBuiltInAction } from './catalog.ts';
import { EMPTY_PROTECTED_RESOURCES } from './catalogue/index.ts';
import { DEFAULT_EXECUTION_SETTINGS } from './execution.ts';
import {
  type AccountPolicy,
  DEFAULT_LOOP_SETTINGS,
  digestOf,
  guardActionSchema,
  type LoopSettings,
  MAX_CUSTOM_ACTIONS,
  MAX_DOMAINS,
  normalizeDomain,
} from './policy.ts';
import type { CustomActionRow, VerdictRepo, VerdictSettingsRow } from './repo.ts';
import type { ActionSchema } from './schemas.ts';
import type { Caller } from './verdict-envelope.ts';

export type ActionView = Static<typeof ActionSchema>;

/**
 * The account's verdict settings (egress, context, loop) and custom actions: validated writes,
 * each audited in its transaction and then announced, and the views of them.
 */
export function createVerdictSettings(deps: {
  db: Kysely<Database>;
  repo: VerdictRepo;
  audit: Pick<AuditRepo, 'appendIn'>;
  policyFor(accountId: string): AccountPolicy | Promise<AccountPolicy>;
  /** In force here at once, and on every other instance by the time it resolves. */
  changed(accountId: string): Promise<void>;
  now: () => Date;
}) {
  const { now, changed } = deps;

  async function saveSettings(
    caller: Caller,
    auditAction: string,
    changes: Partial<Omit<VerdictSettingsRow, 'account_id' | 'updated_at'>>,
    details: Record<string, unknown>,
  ): Promise<void> {
    const at = now().toISOString();
    const defaults: VerdictSettingsRow = {
      account_id: caller.accountId,
      egress_mode: DEFAULT_EGRESS_SETTINGS.mode,
      trusted_domains: '[]',
      blocked_domains: '[]',
      loop_threshold: DEFAULT_LOOP_SETTINGS.threshold,
      loop_window_ms: DEFAULT_LOOP_SETTINGS.window_seconds * 1000,
      protected_resources: JSON.stringify(EMPTY_PROTECTED_RESOURCES),
      allow_opaque: DEFAULT_EXECUTION_SETTINGS.allow_opaque ? 1 : 0,
      unrecognised: DEFAULT_EXECUTION_SETTINGS.unrecognised,
      context: '{}',
      updated_at: at,
    };
    await deps.db.transaction().execute(async (trx) => {
      await deps.repo.upsertSettings(trx, { ...defaults, ...changes }, { ...changes, updated_at: at });
      await deps.audit.appendIn(trx, [
        { accountId: caller.accountId, actor: caller.keyId, action: auditAction, details, at },
      ]);
    });
    await changed(caller.accountId);
  }

  return {
    saveSettings,

    async getEgress(accountId: string): Promise<EgressSettings> {
      return (await deps.policyFor(accountId)).egress;
    },

    async putEgress(
      caller: Caller,
      input: { mode: 'denylist' | 'allowlist'; trusted_domains?: string[]; blocked_domains?: string[] },
    ): Promise<EgressSettings> {
      const clean = (list: string[] | undefined, field: 'trusted_domains' | 'blocked_domains') => {
        const out = new Set<string>();
        for (const [index, value] of (list ?? []).entries()) {
          const checked = normalizeDomain(value, field === 'trusted_domains' ? 'trusted' : 'blocked');
          if (!checked.ok) {
            throw Errors.validation(`${field}[${index}] "${value.slice(0, 100)}" ${checked.reason}`, {
              field,
              index,
            });
          }
          out.add(checked.domain);
        }
        if (out.size > MAX_DOMAINS)
          throw Errors.validation(`${field} holds more than ${MAX_DOMAINS} domains`);
        return [...out].sort();
      };
      const egress: EgressSettings = {
        mode: input.mode,
        trusted_domains: clean(input.trusted_domains, 'trusted_domains'),
        blocked_domains: clean(input.blocked_domains, 'blocked_domains'),
      };
      await saveSettings(
        caller,
        'settings.egress.updated',
        {
          egress_mode: egress.mode,
          trusted_domains: JSON.stringify(egress.trusted_domains),
          blocked_domains: JSON.stringify(egress.blocked_domains),
        },
        { mode: egress.mode, trusted: egress.trusted_domains.length, blocked: egress.blocked_domains.length },
      );
      return egress;
    },

    async getContext(accountId: string): Promise<ContextSettings> {
      return (await deps.policyFor(accountId)).context;
    },

    /** Replaces the account's default context and named local origins (omitted fields are unset). */
    async putContext(caller: Caller, input: unknown): Promise<ContextSettings> {
      const checked = readContextSettings(input);
      if (!checked.ok) throw Errors.validation(checked.message, { field: checked.field });
      const context = checked.value;
      await saveSettings(
        caller,
        'settings.context.updated',
        { context: JSON.stringify(context) },
        {
          workspaces: context.workspace?.length ?? 0,
          user: context.user !== undefined,
          home: context.home !== undefined,
          os: context.os ?? null,
          local_origins: context.local_origins.length,
        },
      );
      return context;
    },

    async getLoop(accountId: string): Promise<LoopSettings> {
      return (await deps.policyFor(accountId)).loop;
    },

    async putLoop(caller: Caller, loop: LoopSettings): Promise<LoopSettings> {
      await saveSettings(
        caller,
        'settings.loop.updated',
        { loop_threshold: loop.threshold, loop_window_ms: loop.window_seconds * 1000 },
        { ...loop },
      );
      return { threshold: loop.threshold, window_seconds: loop.window_seconds };
    },

    // ------------------------------------------------------------------ custom actions

    async listActions(accountId: string): Promise<ActionView[]> {
      const builtIns: ActionView[] = BUILT_IN_ACTIONS.map((name) => ({
        name,
        builtin: true,
        schema: BUILT_IN_SCHEMAS[name] as Record<string, unknown>,
      }));
      const custom = (await deps.repo.listActions(accountId)).map(rowView);
      return [...builtIns, ...custom];
    },

    async getAction(accountId: string, name: string): Promise<ActionView> {
      if (isBuiltInAction(name)) {
        return { name, builtin: true, schema: BUILT_IN_SCHEMAS[name] as Record<string, unknown> };
      }
      const row = await deps.repo.findAction(accountId, name);
      if (!row) throw Errors.notFound(`Action ${name}`);
      return rowView(row);
    },

    /** Registers or replaces a custom action; `created` tells which. */
    async putAction(
      caller: Caller,
      name: string,
      schema: Record<string, unknown>,
    ): Promise<{ action: ActionView; created: boolean }> {
      refuseBuiltIn(name);
      const why = guardActionSchema(schema);
      if (why) throw Errors.validation(`The action schema is refused: ${why}`);
      const compiled = compileActionSchema(schema);
      if (!compiled.ok) throw Errors.validation(`The action schema is refused: ${compiled.error}`);
      const at = now().toISOString();
      const created = await deps.db.transaction().execute(async (trx) => {
        const existing = await deps.repo.findAction(caller.accountId, name, trx);
        if (!existing && (await deps.repo.countActions(trx, caller.accountId)) >= MAX_CUSTOM_ACTIONS) {
          throw Errors.conflict(`An account can register at most ${MAX_CUSTOM_ACTIONS} custom actions`);
        }
        await deps.repo.saveAction(trx, {
          account_id: caller.accountId,
          name,
          schema: JSON.stringify(schema),
          created_at: existing?.created_at ?? at,
          updated_at: at,
        });
        await deps.audit.appendIn(trx, [
          {
            accountId: caller.accountId,
            actor: caller.keyId,
            action: existing ? 'verdict_action.updated' : 'verdict_action.created',
            target: name,
            details: { schema_digest: digestOf(schema) },
            at,
          },
        ]);
        return existing === undefined;
      });
      await changed(caller.accountId);
      const row = await deps.repo.findAction(caller.accountId, name);
      return { action: rowView(row!), created };
    },

    async deleteAction(caller: Caller, name: string): Promise<void> {
      refuseBuiltIn(name);
      const at = now().toISOString();
      await deps.db.transaction().execute(async (trx) => {
        if (!(await deps.repo.deleteAction(trx, caller.accountId, name))) {
          throw Errors.notFound(`Action ${name}`);
        }
        await deps.audit.appendIn(trx, [
          {
            accountId: caller.accountId,
            actor: caller.keyId,
            action: 'verdict_action.deleted',
            target: name,
            at,
          },
        ]);
      });
      await changed(caller.accountId);
    },
  };
}

function refuseBuiltIn(name: string): void {
  if (isBuiltInAction(name)) {
    throw Errors.conflict(`${name} is a built-in action; it cannot be replaced or removed`);
  }
}

function rowView(row: CustomActionRow): ActionView {
  return {
    name: row.name,
    builtin: false,
    schema: JSON.parse(row.schema) as Record<string, unknown>,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}
