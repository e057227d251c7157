import type { Kysely } from 'kysely';
import type { Account, Database, NewAccount } from '../../db/schema.ts';

export function createAccountsRepo(db: Kysely<Database>) {
  return {
    async insert(account: NewAccount): Promise<void> {
      await db.insertInto('accounts').values(account).execute();
    },
    findById(id: string): Promise<Account | undefined> {
      return db.selectFrom('accounts').selectAll().where('id', '=', id).executeTakeFirst();
    },
    findByEmail(email: string): Promise<Account | undefined> {
      return db.selectFrom('accounts').selectAll().where('email', '=', email).executeTakeFirst();
    },
    /** Every account, oldest first: an operator's view of a self-hosted instance. */
    list(): Promise<Account[]> {
      return db.selectFrom('accounts').selectAll().orderBy('created_at').orderBy('id').execute();
    },
    async count(): Promise<number> {
      const row = await db
        .selectFrom('accounts')
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },
  };
}

export type AccountsRepo = ReturnType<typeof createAccountsRepo>;
