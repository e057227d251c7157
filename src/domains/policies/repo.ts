import type { Kysely, Transaction } from 'kysely';
import type { DialectName } from '../../db/database.ts';
import type { Database } from '../../db/schema.ts';

export interface PolicyVersionRow {
  account_id: string;
  version: number;
  text: string;
  created_at: string;
  created_by: string;
}

/** The only place that reads and writes policy documents. */
export function createPoliciesRepo(db: Kysely<Database>, dialect: DialectName) {
  // Every judgment reads the current version (so a new policy applies on the next evaluation on
  // every instance): compiled once, only the parameter changes per call.
  const versionQuery = db
    .selectFrom('judgment_policy_heads')
    .select('version')
    .where('account_id', '=', '')
    .compile();

  return {
    /** 0 when the account never uploaded a document (the built-in default applies). */
    async currentVersion(accountId: string): Promise<number> {
      const { rows } = await db.executeQuery<{ version: number | string }>({
        ...versionQuery,
        parameters: [accountId],
      });
      const row = rows[0];
      return row === undefined ? 0 : Number(row.version);
    },

    async find(accountId: string, version: number): Promise<PolicyVersionRow | undefined> {
      const row = await db
        .selectFrom('judgment_policies')
        .selectAll()
        .where('account_id', '=', accountId)
        .where('version', '=', version)
        .executeTakeFirst();
      return row && { ...row, version: Number(row.version) };
    },

    /** Appends the next version inside `trx`; two uploads at once get consecutive versions. */
    async appendIn(
      trx: Transaction<Database>,
      row: Omit<PolicyVersionRow, 'version'>,
    ): Promise<PolicyVersionRow> {
      await trx
        .insertInto('judgment_policy_heads')
        .values({ account_id: row.account_id, version: 0 })
        .onConflict((oc) => oc.column('account_id').doNothing())
        .execute();
      let q = trx
        .selectFrom('judgment_policy_heads')
        .select('version')
        .where('account_id', '=', row.account_id);
      if (dialect === 'postgres') q = q.forUpdate();
      const head = await q.executeTakeFirstOrThrow();
      const version = Number(head.version) + 1;
      await trx
        .insertInto('judgment_policies')
        .values({ ...row, version })
        .execute();
      await trx
        .updateTable('judgment_policy_heads')
        .set({ version })
        .where('account_id', '=', row.account_id)
        .execute();
      return { ...row, version };
    },
  };
}

export type PoliciesRepo = ReturnType<typeof createPoliciesRepo>;
