import type { Kysely } from 'kysely';
import type { Static } from 'typebox';
import type { Database } from '../../db/schema.ts';
import { AppError, Errors } from '../../errors.ts';
import type { AuditRepo } from '../audit/index.ts';
import { type CompiledPolicy, type CompiledPolicyInfo, compilePolicyDocument } from './compiler.ts';
import { DEFAULT_POLICY } from './default-policy.ts';
import type { PoliciesRepo } from './repo.ts';
import type { PolicyDocumentSchema } from './schemas.ts';

/** A version of the account's policy document (`policies` is its Cedar text); the route adds the Cedar `schema`. */
export type PolicyDocument = Omit<Static<typeof PolicyDocumentSchema>, 'schema'>;

export interface CurrentPolicy {
  version: number;
  policy: CompiledPolicy;
}

const COMPILED_LIMIT = 1000;
const VERSIONS_LIMIT = 100_000;

let defaultCompiled: CompiledPolicy | undefined;
function compiledDefault(): CompiledPolicy {
  if (defaultCompiled === undefined) {
    const result = compilePolicyDocument(DEFAULT_POLICY);
    if (!result.ok) throw new Error(`the built-in policy does not compile: ${result.problems[0]?.message}`);
    defaultCompiled = result.policy;
  }
  return defaultCompiled;
}

/**
 * Per-account Cedar policy documents. Every upload is validated and compiled before it is
 * stored, so a stored version always compiles. Evaluations read the account's current version
 * (one primary-key lookup) and reuse the compiled set for that version, so a change on one
 * instance is in force on the next evaluation on every instance.
 */
export function createPoliciesService(deps: {
  db: Kysely<Database>;
  repo: PoliciesRepo;
  audit: Pick<AuditRepo, 'appendIn'>;
  /**
   * This process is the database's only server (SQLite, embedded): every upload goes through
   * this service, so it remembers each account's current version and moves it on upload,
   * instead of reading it on every evaluation. Shared databases (PostgreSQL) leave it unset.
   */
  soleServer?: boolean;
  now?: () => Date;
}) {
  const now = deps.now ?? (() => new Date());
  const compiled = new Map<string, CompiledPolicy>();
  const versions = new Map<string, number>();

  /** Versions only grow: a read that raced an upload never moves the remembered one back. */
  function remember(accountId: string, version: number): number {
    const known = versions.get(accountId);
    if (known !== undefined && known >= version) return known;
    if (versions.size >= VERSIONS_LIMIT) versions.clear();
    versions.set(accountId, version);
    return version;
  }

  async function currentVersion(accountId: string): Promise<number> {
    if (!deps.soleServer) return deps.repo.currentVersion(accountId);
    return versions.get(accountId) ?? remember(accountId, await deps.repo.currentVersion(accountId));
  }

  async function compiledVersion(accountId: string, version: number): Promise<CompiledPolicy> {
    if (version === 0) return compiledDefault();
    const key = `${accountId}:${version}`;
    const hit = compiled.get(key);
    if (hit !== undefined) return hit;
    const row = await deps.repo.find(accountId, version);
    if (row === undefined) throw Errors.internal();
    const result = compilePolicyDocument(row.text);
    if (!result.ok) throw Errors.internal();
    if (compiled.size >= COMPILED_LIMIT) compiled.clear();
    compiled.set(key, result.policy);
    return result.policy;
  }

  return {
    async current(accountId: string): Promise<CurrentPolicy> {
      const version = await currentVersion(accountId);
      return { version, policy: await compiledVersion(accountId, version) };
    },

    async get(accountId: string, version?: number): Promise<PolicyDocument> {
      const wanted = version ?? (await deps.repo.currentVersion(accountId));
      if (wanted === 0) {
        return { version: 0, policies: DEFAULT_POLICY, is_default: true, created_at: null, created_by: null };
      }
      const row = await deps.repo.find(accountId, wanted);
      if (row === undefined) throw Errors.notFound(`Policy version ${wanted}`);
      return {
        version: row.version,
        policies: row.text,
        is_default: false,
        created_at: row.created_at,
        created_by: row.created_by,
      };
    },

    async put(
      accountId: string,
      text: string,
      keyId: string,
    ): Promise<PolicyDocument & { compiled: CompiledPolicyInfo[] }> {
      const result = compilePolicyDocument(text);
      if (!result.ok) {
        const first = result.problems[0]!;
        throw new AppError(
          'VALIDATION_ERROR',
          `Policy refused at line ${first.line}, column ${first.column}: ${first.message}`,
          { details: { problems: result.problems } },
        );
      }
      const at = now().toISOString();
      const row = await deps.db.transaction().execute(async (trx) => {
        const saved = await deps.repo.appendIn(trx, {
          account_id: accountId,
          text,
          created_at: at,
          created_by: keyId,
        });
        await deps.audit.appendIn(trx, [
          {
            accountId,
            actor: keyId,
            action: 'policy.updated',
            target: `policy:${saved.version}`,
            details: { version: saved.version, policies: result.policy.policies.length },
            at,
          },
        ]);
        return saved;
      });
      compiled.set(`${accountId}:${row.version}`, result.policy);
      if (deps.soleServer) remember(accountId, row.version);
      return {
        version: row.version,
        policies: text,
        is_default: false,
        created_at: at,
        created_by: keyId,
        compiled: result.policy.policies,
      };
    },
  };
}

export type PoliciesService = ReturnType<typeof createPoliciesService>;
