import type { Static } from 'typebox';
import { Errors } from '../../errors.ts';
import { factView } from './conflicts/fact.ts';
import type { LedgerRepo } from './repo.ts';
import { CLAIM_LIST_DEFAULT_LIMIT, type ClaimListQuery, type ClaimListResponse } from './schemas.ts';

/** Opaque to clients: the position of the last claim of a page in the listing order. */
export function encodeClaimCursor(rowkey: number): string {
  return Buffer.from(JSON.stringify([rowkey])).toString('base64url');
}

export function decodeClaimCursor(cursor: string): number {
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (Array.isArray(value) && value.length === 1 && Number.isSafeInteger(value[0]) && value[0] >= 0) {
      return value[0] as number;
    }
  } catch {
    // falls through to the 400 below
  }
  throw Errors.validation('querystring/cursor is not a cursor this service handed out');
}

/** An ISO timestamp as the claims table stores it (UTC, milliseconds), so text comparison orders it. */
function storedInstant(since: string): string {
  const at = new Date(since);
  if (Number.isNaN(at.getTime())) {
    throw Errors.validation('querystring/since is not an instant this service can read', { since });
  }
  return at.toISOString();
}

/**
 * The account's claims in the order they were first stored, one page at a time. Deleted claims
 * are never listed; superseded ones only on request. A new version keeps its claim's place, so a
 * walk of the pages never meets a claim twice, even while claims are being written.
 */
export async function listClaims(
  repo: Pick<LedgerRepo, 'listClaims'>,
  accountId: string,
  query: Static<typeof ClaimListQuery>,
): Promise<Static<typeof ClaimListResponse>> {
  const limit = query.limit ?? CLAIM_LIST_DEFAULT_LIMIT;
  const rows = await repo.listClaims(accountId, {
    afterRowkey: query.cursor === undefined ? 0 : decodeClaimCursor(query.cursor),
    limit: limit + 1,
    statuses: query.include_superseded ? ['active', 'superseded'] : ['active'],
    source: query.source,
    since: query.since === undefined ? undefined : storedInstant(query.since),
  });
  const page = rows.slice(0, limit);
  return {
    claims: page.map((row) => ({
      id: row.id,
      short_id: row.short_id,
      claim: row.claim,
      fact: factView(row.claim),
      source: row.source,
      confidence: row.confidence,
      version: row.version,
      status: row.status as 'active' | 'superseded',
      created_at: row.created_at,
      updated_at: row.updated_at,
    })),
    next_cursor: rows.length > limit ? encodeClaimCursor(page.at(-1)!.rowkey) : null,
  };
}
