import canonicalize from 'canonicalize';
import type { Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { Errors } from '../../errors.ts';
import { sha256 } from '../../lib/sha256.ts';
import type { LedgerRepo } from './repo.ts';

const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;

export interface Outcome<T> {
  body: T;
  /** True when this is the stored answer to an earlier request with the same key. */
  replayed: boolean;
}

/**
 * Runs a write at most once per `Idempotency-Key`: the answer is remembered in the write's own
 * transaction, so a retry after a lost response gets the same answer and never a duplicate.
 * The same key with a different request is refused rather than silently answered.
 */
export async function once<T>(
  repo: Pick<LedgerRepo, 'idempotent' | 'rememberIdempotent'>,
  accountId: string,
  key: string | undefined,
  request: { route: string; body: unknown },
  run: (remember: ((trx: Transaction<Database>, body: T) => Promise<void>) | undefined) => Promise<T>,
): Promise<Outcome<T>> {
  if (key === undefined) return { body: await run(undefined), replayed: false };
  if (!KEY_PATTERN.test(key))
    throw Errors.validation('Idempotency-Key must be 1 to 255 visible ASCII characters');
  const requestHash = sha256(`${request.route}\n${canonicalize(request.body) ?? ''}`);

  const replay = async (): Promise<Outcome<T> | undefined> => {
    const seen = await repo.idempotent(accountId, key);
    if (!seen) return undefined;
    if (seen.request_hash !== requestHash) {
      throw Errors.conflict('This Idempotency-Key was used with a different request');
    }
    return { body: JSON.parse(seen.response) as T, replayed: true };
  };

  const earlier = await replay();
  if (earlier) return earlier;
  try {
    const body = await run(async (trx, result) => {
      await repo.rememberIdempotent(trx, {
        account_id: accountId,
        key,
        request_hash: requestHash,
        status_code: 201,
        response: JSON.stringify(result),
        created_at: new Date().toISOString(),
      });
    });
    return { body, replayed: false };
  } catch (err) {
    // A concurrent request with the same key committed first: ours rolled back; answer as it did.
    const concurrent = await replay();
    if (concurrent) return concurrent;
    throw err;
  }
}
