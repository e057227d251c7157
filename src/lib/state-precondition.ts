import { Type } from 'typebox';
import { Errors } from '../errors.ts';

/**
 * The state precondition, with one meaning on every route that takes one (`/v1/evaluate`, the
 * vault and ledger writes, `/v2/actions/evaluate`): the ledger state hash the caller read, from
 * `expected_state_hash` in the body or from `If-Match`.
 *
 * - A state hash is 64 hex characters, either case; it is compared in lower case.
 * - `If-Match` holds one entity tag, `"<hash>"`, `W/"<hash>"` or a bare `<hash>`: a state hash
 *   names one exact state, so a weak tag means the same as a strong one. A list of several tags
 *   is refused, since a write can hold to one state only.
 * - `If-Match: *` sets no condition of its own (an account's ledger always has a state); an
 *   `expected_state_hash` beside it still applies.
 * - When several sources name a hash they must name the same one.
 * - Anything else is malformed and named by its field. Each route answers that in its own form:
 *   `400 VALIDATION_ERROR`, or a `SCHEMA_MISMATCH` verdict from `/v1/evaluate`, whose every readable
 *   request gets a verdict.
 *
 * A state that is not the ledger's current one is always `STATE_DRIFT`.
 */

const STATE_HASH = /^[0-9a-fA-F]{64}$/;
const ENTITY_TAG = /^(?:W\/)?"([0-9a-fA-F]{64})"$/;

/** `expected_state_hash` as a body field, in every schema that takes it. */
export const ExpectedStateHash = Type.String({
  pattern: STATE_HASH.source,
  description:
    'The ledger state hash (64 hex characters) the request relies on; another current state is STATE_DRIFT. If-Match may carry it instead.',
});

export interface PreconditionSources {
  /** Body fields that may carry an expected state hash, by the name a caller knows them by. */
  fields?: ReadonlyArray<readonly [name: string, value: unknown]>;
  /** The raw `If-Match` header. */
  ifMatch?: string | string[] | undefined;
}

export type Precondition =
  | { ok: true; expected: string | undefined }
  | { ok: false; field: string; message: string };

function malformed(field: string, message: string): Precondition {
  return { ok: false, field, message };
}

/** The `If-Match` header as a hash, `'any'` for `*`, or why it cannot be read. */
function readIfMatch(header: string | string[]): string | 'any' | { invalid: string } {
  const tags = (Array.isArray(header) ? header.join(',') : header)
    .split(',')
    .map((tag) => tag.trim())
    .filter((tag) => tag !== '');
  if (tags.length === 0) return { invalid: 'If-Match is empty: send "<state hash>" or *' };
  if (tags.length > 1) return { invalid: 'If-Match must name one state hash (or *), not a list' };
  const tag = tags[0]!;
  if (tag === '*') return 'any';
  const hash = STATE_HASH.test(tag) ? tag : ENTITY_TAG.exec(tag)?.[1];
  if (hash === undefined) {
    return { invalid: 'If-Match must be a state hash (64 hex characters, optionally quoted) or *' };
  }
  return hash.toLowerCase();
}

/** Reads the precondition of a request as a value; `expected` is undefined when nothing is to be checked. */
export function readPrecondition(sources: PreconditionSources): Precondition {
  const named: Array<[field: string, hash: string]> = [];
  for (const [field, value] of sources.fields ?? []) {
    if (value === undefined) continue;
    if (typeof value !== 'string' || !STATE_HASH.test(value)) {
      return malformed(field, `${field} must be a state hash (64 hex characters, a SHA-256)`);
    }
    named.push([field, value.toLowerCase()]);
  }
  if (sources.ifMatch !== undefined) {
    const header = readIfMatch(sources.ifMatch);
    if (typeof header === 'object') return malformed('If-Match', header.invalid);
    if (header !== 'any') named.push(['If-Match', header]);
  }
  const [first, ...rest] = named;
  const other = rest.find(([, hash]) => hash !== first![1]);
  if (other !== undefined) {
    return malformed(other[0], `${first![0]} and ${other[0]} name different state hashes`);
  }
  return { ok: true, expected: first?.[1] };
}

/** The expected state hash of a request, or 400 VALIDATION_ERROR naming the malformed field. */
export function expectedStateHash(sources: PreconditionSources): string | undefined {
  const precondition = readPrecondition(sources);
  if (!precondition.ok) throw Errors.validation(precondition.message, { field: precondition.field });
  return precondition.expected;
}
