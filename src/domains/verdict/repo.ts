import type { Kysely, Transaction } from 'kysely';
import type {
  Database,
  VerdictActionsTable,
  VerdictCatalogueRulesTable,
  VerdictSettingsTable,
} from '../../db/schema.ts';

export type VerdictSettingsRow = VerdictSettingsTable;
export type CustomActionRow = VerdictActionsTable;
export type CatalogueRulesRow = VerdictCatalogueRulesTable;

/**
 * The only place that reads and writes verdict settings, custom actions and catalogue rules.
 * Reads run on `db`; writes take the transaction their service opened (with its audit entry).
 */
export function createVerdictRepo(db: Kysely<Database>) {
  return {
    async findSettings(accountId: string): Promise<VerdictSettingsRow | undefined> {
      const row = await db
        .selectFrom('verdict_settings')
        .selectAll()
        .where('account_id', '=', accountId)
        .executeTakeFirst();
      return (
        row && {
          ...row,
          loop_threshold: Number(row.loop_threshold),
          loop_window_ms: Number(row.loop_window_ms),
          allow_opaque: Number(row.allow_opaque),
          unrecognised: row.unrecognised === 'refuse' ? 'refuse' : 'allow',
          context: row.context ?? '{}',
        }
      );
    },

    async findRules(accountId: string): Promise<CatalogueRulesRow | undefined> {
      const row = await db
        .selectFrom('verdict_catalogue_rules')
        .selectAll()
        .where('account_id', '=', accountId)
        .executeTakeFirst();
      return row && { ...row, version: Number(row.version) };
    },

    /** Replaces the account's rules; the version counter grows by one (from 1 on the first write). */
    async replaceRules(
      trx: Transaction<Database>,
      accountId: string,
      rules: { rules: string; digest: string },
      at: string,
    ): Promise<CatalogueRulesRow> {
      return trx
        .insertInto('verdict_catalogue_rules')
        .values({ account_id: accountId, ...rules, version: 1, created_at: at, updated_at: at })
        .onConflict((oc) =>
          oc.column('account_id').doUpdateSet((eb) => ({
            rules: rules.rules,
            digest: rules.digest,
            version: eb(eb.ref('verdict_catalogue_rules.version'), '+', 1),
            updated_at: at,
          })),
        )
        .returningAll()
        .executeTakeFirstOrThrow()
        .then((row) => ({ ...row, version: Number(row.version) }));
    },

    /** Inserts `row`, or on an existing row updates only the `changes` columns (so concurrent writers of other settings keep theirs). */
    async upsertSettings(
      trx: Transaction<Database>,
      row: VerdictSettingsRow,
      changes: Partial<Omit<VerdictSettingsRow, 'account_id'>>,
    ): Promise<void> {
      await trx
        .insertInto('verdict_settings')
        .values(row)
        .onConflict((oc) => oc.column('account_id').doUpdateSet(changes))
        .execute();
    },

    listActions(accountId: string): Promise<CustomActionRow[]> {
      return db
        .selectFrom('verdict_actions')
        .selectAll()
        .where('account_id', '=', accountId)
        .orderBy('name')
        .execute();
    },

    /** Pass `trx` when inside a transaction: SQLite has one connection, and it is the transaction's. */
    findAction(
      accountId: string,
      name: string,
      trx?: Transaction<Database>,
    ): Promise<CustomActionRow | undefined> {
      return (trx ?? db)
        .selectFrom('verdict_actions')
        .selectAll()
        .where('account_id', '=', accountId)
        .where('name', '=', name)
        .executeTakeFirst();
    },

    async countActions(trx: Transaction<Database>, accountId: string): Promise<number> {
      const row = await trx
        .selectFrom('verdict_actions')
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .where('account_id', '=', accountId)
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },

    async saveAction(trx: Transaction<Database>, row: CustomActionRow): Promise<void> {
      await trx
        .insertInto('verdict_actions')
        .values(row)
        .onConflict((oc) =>
          oc.columns(['account_id', 'name']).doUpdateSet({ schema: row.schema, updated_at: row.updated_at }),
        )
        .execute();
    },

    async deleteAction(trx: Transaction<Database>, accountId: string, name: string): Promise<boolean> {
      const result = await trx
        .deleteFrom('verdict_actions')
        .where('account_id', '=', accountId)
        .where('name', '=', name)
        .executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },
  };
}

export type VerdictRepo = ReturnType<typeof createVerdictRepo>;
