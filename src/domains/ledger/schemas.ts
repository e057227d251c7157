import { Type } from 'typebox';
import { ExpectedStateHash } from '../../lib/state-precondition.ts';

const Confidence = Type.Number({ minimum: 0, maximum: 1, description: 'How sure the source is, in [0, 1]' });
const ClaimText = Type.String({ minLength: 1, maxLength: 10_000, description: 'The statement' });
const Source = Type.String({ minLength: 1, maxLength: 1000, description: 'Where the claim comes from' });
const StateHash = Type.String({ pattern: '^[0-9a-f]{64}$' });
export const OnConflictSchema = Type.Union(
  [Type.Literal('keep'), Type.Literal('reject'), Type.Literal('supersede')],
  {
    description:
      'keep (default): store and report conflicts; reject: 409, nothing stored; supersede: older conflicting claims leave search',
  },
);
const TopK = Type.Integer({ minimum: 1, maximum: 100, default: 5 });
const Query = Type.String({ minLength: 1, maxLength: 2000 });

/** What one claim to store is, in `/v2/vault/store` and in each item of `/v2/vault/store_batch`. */
const claimToStore = {
  claim: ClaimText,
  source: Source,
  confidence: Confidence,
  on_conflict: Type.Optional(OnConflictSchema),
};

export const StoreBody = Type.Object(
  { ...claimToStore, expected_state_hash: Type.Optional(ExpectedStateHash) },
  { additionalProperties: false },
);

/** Most claims one `/v2/vault/store_batch` call may carry (one transaction). */
export const STORE_BATCH_MAX = 1000;

export const StoreBatchBody = Type.Object(
  {
    claims: Type.Array(Type.Object(claimToStore, { additionalProperties: false }), {
      minItems: 1,
      maxItems: STORE_BATCH_MAX,
      description: `1 to ${STORE_BATCH_MAX} claims, stored in this order; each is checked against the stored claims and the batch's earlier ones`,
    }),
    expected_state_hash: Type.Optional(ExpectedStateHash),
  },
  { additionalProperties: false },
);

export const ProposeBody = Type.Object(
  {
    claim: ClaimText,
    confidence: Confidence,
    source: Type.Optional(Source),
    on_conflict: Type.Optional(OnConflictSchema),
    expected_state_hash: Type.Optional(ExpectedStateHash),
  },
  { additionalProperties: false },
);

export const SearchBody = Type.Object(
  { query: Query, top_k: Type.Optional(TopK) },
  { additionalProperties: false },
);

export const ConflictSchema = Type.Object({
  id: Type.String(),
  short_id: Type.String(),
  claim: Type.String(),
  confidence: Type.Number(),
  similarity: Type.Number(),
  kind: Type.String({ description: 'negation | antonym | value_mismatch | entity_mismatch' }),
  reason: Type.String(),
});

export const FactSchema = Type.Union(
  [
    Type.Object({
      subject: Type.String(),
      relation: Type.String(),
      object: Type.String(),
      negated: Type.Boolean(),
      time: Type.Optional(Type.String({ description: 'past, future and/or a time phrase ("in 2019")' })),
      scope: Type.Optional(Type.String({ description: 'a restriction ("for students")' })),
    }),
    Type.Null(),
  ],
  {
    description:
      'The claim read as subject, relation and object; null when it is not a short statement of a known shape. Conflicts and supersede compare claims about the same subject and relation only',
  },
);

const Scrubbed = Type.Record(Type.String(), Type.Integer(), {
  description: 'Personal data replaced before storage, by type and count (never the values)',
});

export const StoreResponse = Type.Object({
  id: Type.String({ format: 'uuid' }),
  short_id: Type.String(),
  version: Type.Integer({ minimum: 1 }),
  claim: Type.String({ description: 'The claim as stored, after scrubbing' }),
  // Optional only for idempotent answers remembered before claims had a reading.
  fact: Type.Optional(FactSchema),
  conflicts: Type.Array(ConflictSchema),
  superseded: Type.Array(Type.String()),
  state_hash: StateHash,
  scrubbed: Scrubbed,
});

export const StoreBatchResponse = Type.Object({
  results: Type.Array(StoreResponse, {
    description:
      "One per claim, in the request's order; each state_hash is the ledger's state after that claim",
  }),
  state_hash: Type.String({
    pattern: '^[0-9a-f]{64}$',
    description: "The ledger's state after the whole batch",
  }),
});

export const ProposeResponse = Type.Object({
  status: Type.Literal('committed'),
  vector_stored: Type.Boolean(),
  id: Type.String({ description: 'Short id of the claim' }),
  uuid: Type.String({ format: 'uuid' }),
  version: Type.Integer({ minimum: 1 }),
  conflicts: Type.Array(ConflictSchema),
  state_hash: StateHash,
  scrubbed: Scrubbed,
});

export const SearchHitSchema = Type.Object({
  id: Type.String({ format: 'uuid' }),
  claim: Type.String(),
  fact: FactSchema,
  confidence: Type.Number(),
  source: Type.String(),
  version: Type.Integer(),
  relevance: Type.Number({ description: 'Fused rank relevance in (0, 1]' }),
  score: Type.Number({ description: 'relevance × confidence, the order of the results' }),
  timestamp: Type.String({ format: 'date-time' }),
});

export const VaultSearchResponse = Type.Object({ results: Type.Array(SearchHitSchema) });

export const LedgerSearchResponse = Type.Object({
  facts: Type.Array(
    Type.Object({
      id: Type.String(),
      claim: Type.String(),
      confidence: Type.Number(),
      timestamp: Type.String({ format: 'date-time' }),
    }),
  ),
});

export const CLAIM_LIST_DEFAULT_LIMIT = 50;

export const ClaimListQuery = Type.Object(
  {
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, default: CLAIM_LIST_DEFAULT_LIMIT })),
    cursor: Type.Optional(
      Type.String({ minLength: 1, maxLength: 100, description: 'next_cursor of the previous page' }),
    ),
    source: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 1000,
        description: 'Only claims from this source (exact match)',
      }),
    ),
    since: Type.Optional(
      Type.String({
        format: 'date-time',
        description: 'Only claims stored or changed at or after this instant (updated_at ≥ since)',
      }),
    ),
    include_superseded: Type.Optional(
      Type.Boolean({ default: false, description: 'Also list claims that a later claim superseded' }),
    ),
  },
  { additionalProperties: false },
);

const ClaimFields = {
  id: Type.String({ format: 'uuid' }),
  short_id: Type.String(),
  claim: Type.String(),
  fact: FactSchema,
  source: Type.String(),
  confidence: Type.Number(),
  version: Type.Integer(),
  status: Type.Union([Type.Literal('active'), Type.Literal('superseded')]),
  created_at: Type.String({ format: 'date-time' }),
  updated_at: Type.String({ format: 'date-time' }),
};

export const ClaimListResponse = Type.Object({
  claims: Type.Array(Type.Object(ClaimFields)),
  next_cursor: Type.Union([Type.String(), Type.Null()], {
    description: 'Where the next page starts; null on the last page',
  }),
});

export const ClaimParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 100 }) });

export const ClaimDetail = Type.Object({
  ...ClaimFields,
  versions: Type.Array(
    Type.Object({
      version: Type.Integer(),
      claim: Type.String(),
      source: Type.String(),
      confidence: Type.Number(),
      created_at: Type.String({ format: 'date-time' }),
    }),
  ),
});

export const StateResponse = Type.Object({ state_hash: StateHash, entries: Type.Integer({ minimum: 0 }) });

export const DeleteResponse = Type.Object({ success: Type.Literal(true), state_hash: StateHash });

export const VerifyResponse = Type.Object({
  valid: Type.Boolean(),
  entries: Type.Integer({ minimum: 0 }),
  state_hash: Type.Optional(StateHash),
  first_bad_seq: Type.Optional(Type.Integer()),
  reason: Type.Optional(Type.String()),
});

export const ForgetSubjectBody = Type.Object(
  {
    name: Type.String({
      minLength: 2,
      maxLength: 200,
      description: "The person's name as it was written in claims",
    }),
  },
  { additionalProperties: false },
);

export const ForgetSubjectResponse = Type.Object({
  claims: Type.Integer({
    minimum: 0,
    description: 'Claims (any status) that mention the name; they stay, with its pseudonyms',
  }),
  words: Type.Integer({
    minimum: 0,
    description:
      'Words of the name whose mapping was destroyed (0 when it was already forgotten or never stored)',
  }),
});
