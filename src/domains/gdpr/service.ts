import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { Errors } from '../../errors.ts';
import type { AuditRepo } from '../audit/index.ts';
import { TABLES, type TableRule } from './registry.ts';
import type { GdprRepo } from './repo.ts';

/** Sections every export has, even before a domain has stored anything there (spec §2 "Data export"). */
const ALWAYS = ['ledger_entries', 'evaluations', 'audit_log', 'api_keys'];
/** Sections holding one object rather than a list. */
const SINGLE = new Set(['profile', 'billing.subscription', 'settings.verdicts', 'ledger.head']);

function setPath(target: Record<string, unknown>, path: string, value: unknown): void {
  const parts = path.split('.');
  let node = target;
  for (const part of parts.slice(0, -1)) {
    node[part] ??= {};
    node = node[part] as Record<string, unknown>;
  }
  node[parts.at(-1)!] = value;
}

/** JSON text as JSON; anything else as it is stored (an export never fails on one odd value). */
function parseOrKeep(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function exportRow(rule: TableRule, row: Record<string, unknown>): Record<string, unknown> {
  if (rule.kind === 'account' && rule.view) return rule.view(row);
  const out: Record<string, unknown> = {};
  const omit = rule.kind === 'account' ? (rule.omit ?? []) : [];
  const json = rule.kind === 'account' || rule.kind === 'retained' ? (rule.json ?? []) : [];
  for (const [column, value] of Object.entries(row)) {
    if (omit.includes(column)) continue;
    out[column] = json.includes(column) && typeof value === 'string' ? parseOrKeep(value) : value;
  }
  return out;
}

export function createGdprService(deps: {
  db: Kysely<Database>;
  repo: GdprRepo;
  audit: Pick<AuditRepo, 'appendIn' | 'append'>;
  /** Makes every key of the account stop at once, here and on every other instance. */
  afterDeletion: (accountId: string) => Promise<void>;
  /** Stops the account's paid subscription at the billing provider; throws when it cannot. */
  cancelSubscription: (accountId: string) => Promise<void>;
  tables?: readonly TableRule[];
  /** The account's names for the pseudonyms in `texts` (the ledger's sealed mapping), for export. */
  namesIn?: (accountId: string, texts: readonly string[]) => Promise<ReadonlyMap<string, string>>;
  now?: () => Date;
}) {
  const tables = deps.tables ?? TABLES;
  const now = deps.now ?? (() => new Date());

  /** Rows with the pseudonyms in `columns` shown as the names the account wrote. */
  async function withNames(
    rows: Record<string, unknown>[],
    columns: readonly string[],
    accountId: string,
  ): Promise<Record<string, unknown>[]> {
    const texts = rows.flatMap((r) =>
      columns.map((c) => r[c]).filter((v): v is string => typeof v === 'string'),
    );
    const words = await deps.namesIn!(accountId, texts);
    if (words.size === 0) return rows;
    return rows.map((r) => {
      const out = { ...r };
      for (const c of columns) {
        const v = out[c];
        if (typeof v === 'string') out[c] = v.replace(/<PERSON[0-9a-f]{8}>/g, (p) => words.get(p) ?? p);
      }
      return out;
    });
  }

  return {
    /** Everything stored about the account (Article 20), secrets left out by the registry. */
    async export(principal: { accountId: string; keyId: string }) {
      const out: Record<string, unknown> = {};
      for (const section of ALWAYS) out[section] = [];
      // Read after the transaction: on SQLite another read would wait for its connection.
      const named: Array<{ rule: string; rows: Record<string, unknown>[]; columns: readonly string[] }> = [];
      await deps.db.transaction().execute(async (trx) => {
        for (const rule of tables) {
          if (rule.kind === 'global' || rule.kind === 'derived' || rule.section === undefined) continue;
          const rows = (await deps.repo.accountRows(trx, rule, principal.accountId)).map((row) =>
            exportRow(rule, row),
          );
          if (rule.kind === 'account' && rule.names)
            named.push({ rule: rule.section, rows, columns: rule.names });
          setPath(out, rule.section, SINGLE.has(rule.section) ? (rows[0] ?? null) : rows);
        }
      });
      if (deps.namesIn) {
        for (const { rule, rows, columns } of named)
          setPath(out, rule, await withNames(rows, columns, principal.accountId));
      }
      await deps.audit.append([
        {
          accountId: principal.accountId,
          actor: principal.keyId,
          action: 'gdpr.exported',
          at: now().toISOString(),
        },
      ]);
      return { exported_at: now().toISOString(), ...out };
    },

    /**
     * Erases the account (Article 17) in one transaction: every registered table's rows go, the
     * audit log stays with a closing entry that names no one. Keys stop working everywhere at once.
     * A paid subscription is cancelled at the provider first; when that fails nothing is deleted,
     * since a deleted account could no longer stop its own charges.
     */
    async deleteAccount(principal: { accountId: string; keyId: string; plan: string }) {
      if (principal.plan === 'owner') {
        throw Errors.forbidden("The operator's own account cannot be deleted through the API");
      }
      await deps.cancelSubscription(principal.accountId);
      const removed: Record<string, number> = {};
      await deps.db.transaction().execute(async (trx) => {
        await deps.repo.lockAccount(trx, principal.accountId);
        for (const rule of tables) {
          if (rule.kind !== 'account') continue;
          removed[rule.table] = await deps.repo.deleteAccountRows(
            trx,
            rule.table,
            rule.column,
            principal.accountId,
          );
        }
        await deps.audit.appendIn(trx, [
          {
            accountId: principal.accountId,
            actor: principal.keyId,
            action: 'account.deleted',
            details: { rows_removed: removed },
            at: now().toISOString(),
          },
        ]);
      });
      await deps.afterDeletion(principal.accountId);
      return removed;
    },
  };
}

export type GdprService = ReturnType<typeof createGdprService>;
