import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { type KeyRole, keyRoleOf } from '../domains/api-keys/index.ts';
import { sha256 } from '../lib/sha256.ts';

/** How long a console session lasts from sign-in, whatever happens in it. */
export const SESSION_TTL_MS = 8 * 60 * 60 * 1000;

export interface ConsoleSession {
  accountId: string;
  /** The account's name, which the console shows where it would otherwise show the id. */
  accountName: string;
  keyId: string;
  plan: string;
  /** The role of the key the session was opened with: operator or admin. */
  role: KeyRole;
  expiresAt: string;
  /** The token the browser must send back with every state-changing request. */
  csrf: string;
}

/**
 * The anti-forgery token of a session: derived from the session token with a purpose prefix, so
 * it needs no storage and cannot be computed from what the database holds (the token's hash).
 */
export function csrfTokenFor(sessionToken: string): string {
  return sha256(`arbiter-console-csrf\0${sessionToken}`);
}

/** Constant-time comparison of two tokens of any length. */
export function sameToken(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/**
 * Console sessions, kept in the database (hashed) so every instance sees them. A session is good
 * while it has not expired, its key is not revoked and its account exists: the lookup joins all
 * three, so revoking a key ends its sessions on every instance at once.
 */
export function createConsoleSessions(db: Kysely<Database>, now: () => Date = () => new Date()) {
  return {
    async open(principal: {
      accountId: string;
      keyId: string;
    }): Promise<{ token: string; expiresAt: string }> {
      const token = randomBytes(32).toString('base64url');
      const at = now();
      const expiresAt = new Date(at.getTime() + SESSION_TTL_MS).toISOString();
      await db.transaction().execute(async (trx) => {
        // Sign-in is when an account's dead sessions are swept.
        await trx
          .deleteFrom('console_sessions')
          .where('account_id', '=', principal.accountId)
          .where('expires_at', '<=', at.toISOString())
          .execute();
        await trx
          .insertInto('console_sessions')
          .values({
            token_hash: sha256(token),
            account_id: principal.accountId,
            key_id: principal.keyId,
            created_at: at.toISOString(),
            expires_at: expiresAt,
          })
          .execute();
      });
      return { token, expiresAt };
    },

    async find(token: string): Promise<ConsoleSession | undefined> {
      const row = await db
        .selectFrom('console_sessions as s')
        .innerJoin('api_keys as k', 'k.id', 's.key_id')
        .innerJoin('accounts as a', 'a.id', 's.account_id')
        .select(['s.account_id', 's.key_id', 's.expires_at', 'a.plan', 'a.name as account_name', 'k.role'])
        .where('s.token_hash', '=', sha256(token))
        .where('s.expires_at', '>', now().toISOString())
        .where('k.revoked_at', 'is', null)
        .whereRef('k.account_id', '=', 's.account_id')
        .executeTakeFirst();
      if (row === undefined) return undefined;
      return {
        accountId: row.account_id,
        accountName: row.account_name,
        keyId: row.key_id,
        plan: row.plan,
        role: keyRoleOf(row.role),
        expiresAt: row.expires_at,
        csrf: csrfTokenFor(token),
      };
    },

    async close(token: string): Promise<void> {
      await db.deleteFrom('console_sessions').where('token_hash', '=', sha256(token)).execute();
    },

    /** Ends every session opened with a key (the key was revoked). */
    async closeForKey(accountId: string, keyId: string): Promise<void> {
      await db
        .deleteFrom('console_sessions')
        .where('account_id', '=', accountId)
        .where('key_id', '=', keyId)
        .execute();
    },
  };
}

export type ConsoleSessions = ReturnType<typeof createConsoleSessions>;
