import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { type Static, Type } from 'typebox';
import { principalOf } from '../../http/auth.ts';
import { errorResponses } from '../../http/common-schemas.ts';
import { expectedStateHash } from '../../lib/state-precondition.ts';
import { once } from './idempotency.ts';
import { PiiSettingsBody, PiiSettingsResponse, type PiiSettingsStore } from './pii/settings.ts';
import type { LedgerRepo } from './repo.ts';
import {
  ClaimDetail,
  ClaimListQuery,
  ClaimListResponse,
  ClaimParams,
  DeleteResponse,
  ForgetSubjectBody,
  ForgetSubjectResponse,
  LedgerSearchResponse,
  ProposeBody,
  ProposeResponse,
  SearchBody,
  StateResponse,
  StoreBatchBody,
  StoreBatchResponse,
  StoreBody,
  StoreResponse,
  VaultSearchResponse,
  VerifyResponse,
} from './schemas.ts';
import type { LedgerService, StoreInput, StoreResult } from './service.ts';

const DEFAULT_TOP_K = 5;
const writeErrors = { ...errorResponses, 409: Type.Ref('ErrorBody'), 412: Type.Ref('ErrorBody') };

/** The write's precondition: `expected_state_hash` in the body, or `If-Match` (see `lib/state-precondition.ts`). */
function expectedState(request: FastifyRequest, fromBody: string | undefined): string | undefined {
  return expectedStateHash({
    fields: [['expected_state_hash', fromBody]],
    ifMatch: request.headers['if-match'],
  });
}

function idempotencyKey(request: FastifyRequest): string | undefined {
  const key = request.headers['idempotency-key'];
  return typeof key === 'string' ? key : undefined;
}

export function ledgerRoutes(
  ledger: LedgerService,
  repo: LedgerRepo,
  piiSettings?: PiiSettingsStore,
): FastifyPluginAsyncTypebox {
  return async (app) => {
    if (piiSettings) {
      app.get(
        '/v2/vault/settings/pii',
        {
          config: { role: 'operator' },
          schema: {
            tags: ['Vault'],
            summary: 'Scrubbing settings of the account: the default phone region and how names are kept',
            response: { 200: PiiSettingsResponse, ...errorResponses },
          },
        },
        async (request) => piiSettings.get(principalOf(request).accountId),
      );

      app.put(
        '/v2/vault/settings/pii',
        {
          config: { role: 'operator' },
          schema: {
            tags: ['Vault'],
            summary:
              'Change the scrubbing settings: the region whose national phone numbers are read without a country code, and names: pseudonymize | redact | keep',
            body: PiiSettingsBody,
            response: { 200: PiiSettingsResponse, ...errorResponses },
          },
        },
        async (request) => {
          const { accountId, keyId } = principalOf(request);
          return piiSettings.put(accountId, keyId, request.body);
        },
      );
    }

    app.post(
      '/v2/vault/subjects/forget',
      {
        config: { role: 'operator' },
        schema: {
          tags: ['Vault'],
          summary:
            "Forget a person: destroy the mapping from their name's pseudonyms to the name (claims and the chain stay)",
          body: ForgetSubjectBody,
          response: { 200: ForgetSubjectResponse, ...errorResponses },
        },
      },
      async (request) => {
        const { accountId, keyId } = principalOf(request);
        return ledger.forget(accountId, keyId, request.body.name);
      },
    );

    const search = (request: FastifyRequest, body: Static<typeof SearchBody>) =>
      ledger.search(principalOf(request).accountId, body.query, body.top_k ?? DEFAULT_TOP_K);

    async function store(request: FastifyRequest, route: string, input: StoreInput, body: unknown) {
      const principal = principalOf(request);
      const expected = expectedState(request, input.expected_state_hash);
      return once<StoreResult>(
        repo,
        principal.accountId,
        idempotencyKey(request),
        { route, body },
        (remember) =>
          ledger.store(
            principal.accountId,
            principal.keyId,
            { ...input, ...(expected === undefined ? {} : { expected_state_hash: expected }) },
            remember ? { remember } : {},
          ),
      );
    }

    app.post(
      '/v2/vault/store',
      {
        config: { role: 'agent' },
        schema: {
          tags: ['Vault'],
          summary: 'Store a claim: scrubbed, checked for conflicts, embedded, appended to the hash chain',
          body: StoreBody,
          response: { 201: StoreResponse, ...writeErrors },
        },
      },
      async (request, reply) => {
        const { body, replayed } = await store(request, 'vault.store', request.body, request.body);
        if (replayed) reply.header('idempotent-replayed', 'true');
        return reply.status(201).send(body);
      },
    );

    app.post(
      '/v2/vault/store_batch',
      {
        config: { role: 'agent' },
        schema: {
          tags: ['Vault'],
          summary:
            'Store up to 1,000 claims in one transaction, each as /v2/vault/store would; all or nothing',
          body: StoreBatchBody,
          response: { 201: StoreBatchResponse, ...writeErrors },
        },
      },
      async (request, reply) => {
        const principal = principalOf(request);
        const expected = expectedState(request, request.body.expected_state_hash);
        const { body: results, replayed } = await once<StoreResult[]>(
          repo,
          principal.accountId,
          idempotencyKey(request),
          { route: 'vault.store_batch', body: request.body },
          (remember) =>
            ledger.storeMany(principal.accountId, principal.keyId, request.body.claims, {
              ...(expected === undefined ? {} : { expected_state_hash: expected }),
              ...(remember ? { remember } : {}),
            }),
        );
        if (replayed) reply.header('idempotent-replayed', 'true');
        return reply.status(201).send({ results, state_hash: results.at(-1)!.state_hash });
      },
    );

    app.post(
      '/ledger/propose_state',
      {
        config: { role: 'agent' },
        schema: {
          tags: ['Ledger'],
          summary: 'Commit a claim (short form of /v2/vault/store; ids are short ids)',
          body: ProposeBody,
          response: { 201: ProposeResponse, ...writeErrors },
        },
      },
      async (request, reply) => {
        const { source, ...rest } = request.body;
        const { body, replayed } = await store(
          request,
          'ledger.propose',
          { ...rest, source: source ?? 'agent' },
          request.body,
        );
        if (replayed) reply.header('idempotent-replayed', 'true');
        return reply.status(201).send({
          status: 'committed' as const,
          vector_stored: true,
          id: body.short_id,
          uuid: body.id,
          version: body.version,
          conflicts: body.conflicts,
          state_hash: body.state_hash,
          scrubbed: body.scrubbed,
        });
      },
    );

    app.post(
      '/v2/vault/search',
      {
        config: { role: 'agent' },
        schema: {
          tags: ['Vault'],
          summary:
            'Claims relevant to a query, ranked by relevance × confidence; empty when nothing relevant is known',
          body: SearchBody,
          response: { 200: VaultSearchResponse, ...errorResponses },
        },
      },
      // The response schema keeps only the vault fields of each hit.
      async (request) => ({ results: await search(request, request.body) }),
    );

    app.post(
      '/ledger/semantic_search',
      {
        config: { role: 'agent' },
        schema: {
          tags: ['Ledger'],
          summary: 'Facts relevant to a query (short form of /v2/vault/search)',
          body: SearchBody,
          response: { 200: LedgerSearchResponse, ...errorResponses },
        },
      },
      async (request) => ({
        facts: (await search(request, request.body)).map((h) => ({
          id: h.short_id,
          claim: h.claim,
          confidence: h.confidence,
          timestamp: h.timestamp,
        })),
      }),
    );

    app.get(
      '/v2/vault/claims',
      {
        config: { role: 'agent' },
        schema: {
          tags: ['Vault'],
          summary:
            "The account's claims in the order they were first stored, one page at a time; follow next_cursor for more",
          querystring: ClaimListQuery,
          response: { 200: ClaimListResponse, ...errorResponses },
        },
      },
      async (request) => ledger.list(principalOf(request).accountId, request.query),
    );

    app.get(
      '/v2/vault/claims/:id',
      {
        config: { role: 'agent' },
        schema: {
          tags: ['Vault'],
          summary: 'A claim (by uuid or short id) with its version history',
          params: ClaimParams,
          response: { 200: ClaimDetail, ...errorResponses },
        },
      },
      async (request) => {
        const { claim, fact, versions } = await ledger.get(principalOf(request).accountId, request.params.id);
        return {
          id: claim.id,
          short_id: claim.short_id,
          claim: claim.claim,
          fact,
          source: claim.source,
          confidence: claim.confidence,
          version: claim.version,
          status: claim.status as 'active' | 'superseded',
          created_at: claim.created_at,
          updated_at: claim.updated_at,
          versions: versions.map((v) => ({
            version: v.version,
            claim: v.claim,
            source: v.source,
            confidence: v.confidence,
            created_at: v.created_at,
          })),
        };
      },
    );

    app.delete(
      '/v2/vault/claims/:id',
      {
        config: { role: 'operator' },
        schema: {
          tags: ['Vault'],
          summary: 'Delete a claim: it leaves search; the ledger records the deletion',
          params: ClaimParams,
          response: { 200: DeleteResponse, ...writeErrors },
        },
      },
      async (request) => {
        const principal = principalOf(request);
        const result = await ledger.remove(
          principal.accountId,
          principal.keyId,
          request.params.id,
          expectedState(request, undefined),
        );
        return { success: true as const, state_hash: result.state_hash };
      },
    );

    app.get(
      '/v2/vault/state',
      {
        config: { role: 'agent' },
        schema: {
          tags: ['Vault'],
          summary: "The account's current ledger state hash",
          response: { 200: StateResponse, ...errorResponses },
        },
      },
      async (request) => ledger.state(principalOf(request).accountId),
    );

    app.get(
      '/v2/vault/verify',
      {
        config: { role: 'agent' },
        schema: {
          tags: ['Vault'],
          summary: 'Re-walk the hash chain; names the first entry that does not hold',
          response: { 200: VerifyResponse, ...errorResponses },
        },
      },
      async (request) => ledger.verify(principalOf(request).accountId),
    );
  };
}
