import { randomUUID } from 'node:crypto';
import type { Static } from 'typebox';
import type { Account } from '../../db/schema.ts';
import { Errors } from '../../errors.ts';
import type { ApiKeysService, CreatedKey } from '../api-keys/index.ts';
import type { AccountsRepo } from './repo.ts';
import type { CreateAccountBody } from './schemas.ts';

/** The operator's own account: created on first start, on the unlimited `owner` plan. */
export const OWNER_EMAIL = 'owner@localhost';
export const OWNER_PLAN = 'owner';
export const DEFAULT_PLAN = 'free';

export interface AccountWithKey {
  account: Account;
  key: CreatedKey;
}

export function createAccountsService(deps: {
  repo: AccountsRepo;
  apiKeys: Pick<ApiKeysService, 'create'>;
  knownPlans: () => readonly string[];
  now?: () => Date;
}) {
  const now = deps.now ?? (() => new Date());

  return {
    /** A new account and its first key (the secret is shown to the caller once). */
    async create(
      input: Static<typeof CreateAccountBody>,
      options: { secret?: string; actor?: string } = {},
    ): Promise<AccountWithKey> {
      const plan = input.plan ?? DEFAULT_PLAN;
      if (!deps.knownPlans().includes(plan)) {
        throw Errors.validation(`Unknown plan '${plan}'`, { known_plans: deps.knownPlans() });
      }
      const email = input.email.trim().toLowerCase();
      if (await deps.repo.findByEmail(email))
        throw Errors.conflict(`An account with email ${email} already exists`);
      const account: Account = {
        id: randomUUID(),
        email,
        name: input.name,
        plan,
        created_at: now().toISOString(),
      };
      try {
        await deps.repo.insert(account);
      } catch (err) {
        // Two concurrent creations of the same email: the unique index decides, the loser is told.
        if (await deps.repo.findByEmail(email))
          throw Errors.conflict(`An account with email ${email} already exists`);
        throw err;
      }
      // The owner's first key is the one that can make the others, so it is an admin key.
      const key = await deps.apiKeys.create(account.id, 'default', { ...options, role: 'admin' });
      return { account, key };
    },

    findById: (id: string) => deps.repo.findById(id),

    list: () => deps.repo.list(),

    async findByIdOrEmail(ref: string): Promise<Account | undefined> {
      return (await deps.repo.findById(ref)) ?? deps.repo.findByEmail(ref.trim().toLowerCase());
    },

    /**
     * On an empty database, creates the owner account with `bootstrapKey` or a fresh key and
     * returns it so the caller can show it once. Returns undefined when any account exists.
     */
    async ensureOwner(bootstrapKey: string | undefined): Promise<AccountWithKey | undefined> {
      if ((await deps.repo.count()) > 0) return undefined;
      try {
        return await this.create(
          { email: OWNER_EMAIL, name: 'Owner', plan: OWNER_PLAN },
          bootstrapKey === undefined ? {} : { secret: bootstrapKey },
        );
      } catch (err) {
        // Another instance starting on the same empty database won the race.
        if (err instanceof Error && 'code' in err && err.code === 'CONFLICT') return undefined;
        throw err;
      }
    },
  };
}

export type AccountsService = ReturnType<typeof createAccountsService>;
