import { randomUUID } from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import type { Static } from 'typebox';
import type { Database } from '../../db/schema.ts';
import { AppError, Errors } from '../../errors.ts';
import { monthOf } from '../../lib/utc-month.ts';
import type { AuditRepo } from '../audit/index.ts';
import type { UsageMeter } from '../usage/index.ts';
import { emitEvent } from '../webhooks/index.ts';
import type { KeyCache } from './key-cache.ts';
import { generateKey, hashKey, isWellFormedKey, maskKey } from './key-format.ts';
import type { Principal } from './principal.ts';
import type { ApiKeysRepo } from './repo.ts';
import { DEFAULT_KEY_ROLE, type KeyRole, keyRoleOf, roleAllows } from './roles.ts';
import type { CreatedKeySchema, ListedKeySchema } from './schemas.ts';

/** The new key with its secret; the route adds `success`. */
export type CreatedKey = Omit<Static<typeof CreatedKeySchema>, 'success'>;

export type ListedKey = Static<typeof ListedKeySchema>;

/** Tells other instances that a key or a whole account stopped working (Redis pub/sub when configured). */
export interface RevocationBus {
  publishKey(keyId: string): Promise<void>;
  publishAccount(accountId: string): Promise<void>;
}

export function createApiKeysService(deps: {
  db: Kysely<Database>;
  repo: ApiKeysRepo;
  audit: Pick<AuditRepo, 'appendIn'>;
  cache: KeyCache;
  meter: Pick<UsageMeter, 'pendingForKey'>;
  bus: RevocationBus | undefined;
  /** Refuses a key the account's plan does not allow (runs in the creation transaction). */
  keyLimit?: (trx: Transaction<Database>, accountId: string) => Promise<void>;
  now?: () => Date;
}) {
  const now = deps.now ?? (() => new Date());

  return {
    /**
     * Creates a key; the returned secret is never retrievable again. `actor` is who asked (a key
     * id, `operator`, `system`); `actorRole`, where the actor is a key, caps the role it can give.
     */
    async create(
      accountId: string,
      name: string,
      options: { secret?: string; actor?: string; role?: KeyRole; actorRole?: KeyRole } = {},
    ): Promise<CreatedKey> {
      const role = options.role ?? DEFAULT_KEY_ROLE;
      if (options.actorRole !== undefined && !roleAllows(options.actorRole, role)) {
        throw Errors.forbidden(`A key of role ${options.actorRole} cannot create a key of role ${role}`);
      }
      const secret = options.secret ?? generateKey();
      if (!isWellFormedKey(secret)) throw Errors.validation('The key does not have the arbiter_sk_ format');
      const row = {
        id: randomUUID(),
        account_id: accountId,
        name,
        key_hash: hashKey(secret),
        key_last4: secret.slice(-4),
        role,
        created_at: now().toISOString(),
        revoked_at: null,
      };
      await deps.db.transaction().execute(async (trx) => {
        await deps.keyLimit?.(trx, accountId);
        await deps.repo.insert(trx, row);
        await deps.audit.appendIn(trx, [
          {
            accountId,
            actor: options.actor ?? 'system',
            action: 'api_key.created',
            target: row.id,
            details: { name, role },
            at: row.created_at,
          },
        ]);
      });
      return { id: row.id, key: secret, name: row.name, role, created_at: row.created_at };
    },

    async list(accountId: string): Promise<ListedKey[]> {
      const month = monthOf(now());
      const rows = await deps.repo.listWithUsage(accountId, month);
      return rows.map((row) => ({
        id: row.id,
        key: maskKey(row.key_last4),
        name: row.name,
        role: keyRoleOf(row.role),
        created_at: row.created_at,
        revoked_at: row.revoked_at,
        status: row.revoked_at === null ? 'active' : 'revoked',
        calls_this_month: row.calls_this_month + deps.meter.pendingForKey(row.id, month),
      }));
    },

    /** Permanent. Revoking an already revoked key succeeds again; another account's key is "not found". */
    async revoke(accountId: string, keyId: string, actor = 'system'): Promise<void> {
      const key = await deps.repo.findForAccount(accountId, keyId);
      if (!key) throw Errors.notFound('API key');
      // One meaning for a repeated DELETE, as for a claim deleted twice: nothing is left to delete.
      if (key.revoked_at !== null) {
        throw new AppError('NOT_FOUND', `API key ${keyId} was already revoked at ${key.revoked_at}`);
      }
      const at = now().toISOString();
      await deps.db.transaction().execute(async (trx) => {
        await deps.repo.revoke(trx, accountId, keyId, at);
        await deps.audit.appendIn(trx, [
          { accountId, actor, action: 'api_key.revoked', target: keyId, details: {}, at },
        ]);
        await emitEvent(trx, accountId, 'api_key.revoked', { key_id: keyId, revoked_at: at }, new Date(at));
      });
      deps.cache.forgetKey(keyId);
      await deps.bus?.publishKey(keyId);
    },

    /**
     * The principal behind a bearer secret when it was verified moments ago, without waiting on
     * anything; undefined means "ask `authenticate`". Keeps the common case off the promise path.
     */
    authenticateCached(secret: string | undefined): Principal | undefined {
      if (secret === undefined || !isWellFormedKey(secret)) return undefined;
      return deps.cache.get(hashKey(secret));
    },

    /** The principal behind a bearer secret, or an UNAUTHENTICATED error. */
    async authenticate(secret: string | undefined): Promise<Principal> {
      if (secret === undefined || !isWellFormedKey(secret)) throw Errors.unauthenticated();
      const keyHash = hashKey(secret);
      const cached = deps.cache.get(keyHash);
      if (cached) return cached;
      const found = await deps.repo.findActiveByHash(keyHash);
      if (!found) throw new AppError('UNAUTHENTICATED', 'The API key is unknown or has been revoked');
      const principal: Principal = { ...found, role: keyRoleOf(found.role) };
      deps.cache.set(keyHash, principal);
      return principal;
    },
  };
}

export type ApiKeysService = ReturnType<typeof createApiKeysService>;
