import type { Logger } from 'pino';
import type { Config } from './config.ts';
import { createConsoleRepo } from './console/repo.ts';
import { createConsoleSessions } from './console/sessions.ts';
import { type Db, isReady, migrateToLatest, openDatabase } from './db/database.ts';
import { KEY_ROLES_MIGRATION } from './db/migrations/202611281000_key_roles.ts';
import { createAccountsRepo } from './domains/accounts/repo.ts';
import { createAccountsService } from './domains/accounts/service.ts';
import { KeyCache } from './domains/api-keys/key-cache.ts';
import { createApiKeysRepo } from './domains/api-keys/repo.ts';
import { createRedisRevocationBus } from './domains/api-keys/revocation-bus.ts';
import { createApiKeysService } from './domains/api-keys/service.ts';
import { createAuditRepo } from './domains/audit/repo.ts';
import { AuditLog } from './domains/audit/service.ts';
import { createStripeClient, localProvider, stripeProvider } from './domains/billing/providers.ts';
import { createBillingRepo } from './domains/billing/repo.ts';
import { createBillingService } from './domains/billing/service.ts';
import { createGdprRepo } from './domains/gdpr/repo.ts';
import { createGdprService } from './domains/gdpr/service.ts';
import { createJudgmentRepo } from './domains/judgment/repo.ts';
import { createJudgmentService } from './domains/judgment/service.ts';
import { verdictSettingsReader } from './domains/judgment/verdict-settings.ts';
import { ledgerEnginePorts } from './domains/ledger/engine-ports.ts';
import { createLedger } from './domains/ledger/setup.ts';
import type { Plan } from './domains/plans/catalog.ts';
import { keyLimitGuard } from './domains/plans/limits.ts';
import { createPlansRepo } from './domains/plans/repo.ts';
import { createPoliciesRepo } from './domains/policies/repo.ts';
import { createPoliciesService } from './domains/policies/service.ts';
import { UsageMeter } from './domains/usage/meter.ts';
import { QuotaGuard } from './domains/usage/quota.ts';
import { createQuotaCounter } from './domains/usage/quota-counters.ts';
import { createRedisQuotaStore } from './domains/usage/quota-redis.ts';
import { createUsageRepo } from './domains/usage/repo.ts';
import { createRedisLoopStore, type LoopStore, MemoryLoopStore } from './domains/verdict/loop-detector.ts';
import {
  createPostgresPolicyBus,
  createRedisPolicyBus,
  type PolicyChangeBus,
} from './domains/verdict/policy-bus.ts';
import { createVerdictRepo } from './domains/verdict/repo.ts';
import { createVerdictService } from './domains/verdict/service.ts';
import { webhookEvents } from './domains/webhooks/outbox.ts';
import { createWebhooksRepo } from './domains/webhooks/repo.ts';
import { createWebhooksService } from './domains/webhooks/service.ts';
import { WebhookWorker } from './domains/webhooks/worker.ts';
import { secretBoxFor } from './lib/secret-box.ts';
import { startWriterThread } from './writer-thread/index.ts';
import { createJobRunner } from './writer-thread/jobs.ts';

/** How long an instance may serve an account policy it read (PolicyCache, PolicyChangeBus). */
const POLICY_MAX_AGE_MS = 1000;

/** The composition root: the one place that builds every service and decides what it depends on. */
export async function createContainer(
  config: Config,
  logger: Logger,
  options: { skipEmbedderCheck?: boolean } = {},
) {
  const db: Db = openDatabase(config.database, { log: logger });
  const closers: Array<() => Promise<void>> = [];
  try {
    const applied = await migrateToLatest(db);
    if (applied.includes(`Up ${KEY_ROLES_MIGRATION}`)) {
      // Said once: the migration runs once per database.
      const kept = await createApiKeysRepo(db.kysely).countActive();
      if (kept > 0) {
        logger.warn(
          { keys: kept },
          `${kept} API key(s) made before key roles keep full power as admin keys; give each agent a key of role agent (POST /api-keys {"name": "…", "role": "agent"}) and revoke the admin keys agents hold`,
        );
      }
    }

    const plans: readonly Plan[] = config.plans;
    const usageRepo = createUsageRepo(db.kysely, db.dialect);
    const meter = new UsageMeter(usageRepo, config.usageFlushMs, logger);
    meter.start();
    closers.push(() => meter.stop());

    // Closed last (closers run in reverse): the buffers below flush into it when they stop.
    const writerThread = startWriterThread(config.database, createJobRunner(db), logger);
    closers.push(() => writerThread.close());

    const auditRepo = createAuditRepo(db.kysely, db.dialect);
    const audit = new AuditLog(auditRepo, Math.min(config.usageFlushMs, 100), logger, (events) =>
      writerThread.run({ kind: 'audit.append', events }),
    );
    audit.start();
    closers.push(() => audit.stop());

    const keyCache = new KeyCache(config.keyCacheMs);
    let bus: Awaited<ReturnType<typeof createRedisRevocationBus>> | undefined;
    if (config.redisUrl) {
      bus = await createRedisRevocationBus(config.redisUrl, keyCache, logger);
      closers.push(() => bus!.close());
    }

    const apiKeys = createApiKeysService({
      db: db.kysely,
      repo: createApiKeysRepo(db.kysely),
      audit: auditRepo,
      cache: keyCache,
      meter,
      bus,
      keyLimit: keyLimitGuard(plans, createPlansRepo(db.dialect)),
    });
    const accounts = createAccountsService({
      repo: createAccountsRepo(db.kysely),
      apiKeys,
      knownPlans: () => plans.map((p) => p.id),
    });

    // The server's secret box: webhook signing secrets and the ledger's name mapping are sealed with it.
    const secrets = secretBoxFor(config.secrets, {
      dataDir: config.dataDir,
      sharedDatabase: db.dialect === 'postgres',
      warn: (message) => logger.warn(message),
    });
    const ledger = await createLedger({
      db,
      config,
      audit: auditRepo,
      logger,
      secrets,
      ...(options.skipEmbedderCheck ? { skipEmbedderCheck: true } : {}),
    });
    closers.push(() => ledger.close());
    // What the verdict engine needs from the ledger, and the ledger service that keeps it current.
    const {
      service: ledgerService,
      state: ledgerState,
      text: ledgerText,
    } = ledgerEnginePorts(ledger.service);
    const loops: LoopStore = config.redisUrl
      ? await createRedisLoopStore(config.redisUrl, logger)
      : new MemoryLoopStore();
    closers.push(() => loops.close());
    // Account policies are cached per instance; several instances share a database only on
    // PostgreSQL, and there a change must reach the others' caches before its write returns.
    let policyChanges: PolicyChangeBus | undefined;
    if (config.redisUrl)
      policyChanges = await createRedisPolicyBus(config.redisUrl, POLICY_MAX_AGE_MS, logger);
    else if (config.database.kind === 'postgres')
      policyChanges = await createPostgresPolicyBus(config.database.url, POLICY_MAX_AGE_MS, logger);
    if (policyChanges) closers.push(() => policyChanges.close());
    const verdicts = createVerdictService({
      db: db.kysely,
      repo: createVerdictRepo(db.kysely),
      audit: auditRepo,
      recordAudit: (event) => audit.record(event),
      ledgerState,
      ledgerText,
      loops,
      log: logger,
      policyMaxAgeMs: POLICY_MAX_AGE_MS,
      ...(policyChanges ? { changes: policyChanges } : {}),
    });

    const allowances = new Map(plans.map((p) => [p.id, p.monthly_call_allowance]));
    // Instances share the allowance through Redis when configured; one server (SQLite) has no use for it.
    const quotaRedis =
      config.redisUrl && db.dialect === 'postgres'
        ? await createRedisQuotaStore(config.redisUrl, logger)
        : undefined;
    if (quotaRedis) closers.push(() => quotaRedis.close());
    const quota = new QuotaGuard({
      allowanceOf: (plan) => allowances.get(plan),
      counter: createQuotaCounter({
        dialect: db.dialect,
        repo: usageRepo,
        meter,
        refreshMs: config.usageFlushMs,
        ...(quotaRedis ? { redis: quotaRedis } : {}),
        log: logger,
      }),
    });

    const stripeClient =
      config.billing.provider === 'stripe'
        ? createStripeClient(config.billing.secretKey, config.billing.apiUrl)
        : undefined;
    const billing = createBillingService({
      db: db.kysely,
      repo: createBillingRepo(db.kysely),
      audit: auditRepo,
      plans,
      provider: stripeClient ? stripeProvider(stripeClient) : localProvider(),
      ...(stripeClient && config.billing.provider === 'stripe'
        ? { stripe: { client: stripeClient, webhookSecret: config.billing.webhookSecret } }
        : {}),
      forgetAccount: (accountId) => keyCache.forgetAccount(accountId),
      bus,
      usage: usageRepo,
      meter,
      publicUrl: config.publicUrl,
    });

    const webhooksRepo = createWebhooksRepo(db.kysely, db.dialect);
    const webhooks = createWebhooksService({
      db: db.kysely,
      repo: webhooksRepo,
      audit: auditRepo,
      plans,
      allowLoopback: config.webhooks.allowLoopback,
      secrets,
    });
    // Plaintext secrets from before encryption, and ones under a rotated-out key, are sealed anew.
    const resealed = await webhooks.reencryptSecrets();
    if (resealed.unreadable.length > 0)
      logger.warn(resealed, 'webhook signing secrets under a key that is not configured stay unreadable');
    else if (resealed.reencrypted > 0) logger.info(resealed, 'webhook signing secrets re-encrypted');
    const webhookWorker = new WebhookWorker(webhooksRepo, config.webhooks, logger, secrets);
    webhookWorker.start();
    closers.push(() => webhookWorker.stop());

    const policies = createPoliciesService({
      db: db.kysely,
      repo: createPoliciesRepo(db.kysely, db.dialect),
      audit: auditRepo,
      soleServer: db.dialect === 'sqlite',
    });
    const judgmentRepo = createJudgmentRepo(db.kysely, db.dialect);
    const judgment = createJudgmentService({
      db: db.kysely,
      repo: judgmentRepo,
      policies,
      settings: verdictSettingsReader(verdicts),
      loops,
      audit,
      auditRepo,
      // Escalation decisions have no webhook event type yet; they flow once one is registered.
      events: webhookEvents,
      ledgerState,
      ledgerText,
      escalationTtlMs: config.judgment.escalationTtlMs,
      flushMs: Math.min(config.usageFlushMs, 250),
      persistEvaluations: (rows) => writerThread.run({ kind: 'judgment.evaluations', rows }),
      logger,
    });
    judgment.start(config.judgment.sweepMs);
    closers.push(() => judgment.stop());

    const gdpr = createGdprService({
      db: db.kysely,
      repo: createGdprRepo(db.dialect),
      audit: auditRepo,
      cancelSubscription: (accountId) => billing.cancelBeforeDeletion(accountId),
      namesIn: ledger.service.namesIn,
      async afterDeletion(accountId) {
        keyCache.forgetAccount(accountId);
        meter.forgetAccount(accountId);
        await quota.forgetAccount(accountId);
        await bus?.publishAccount(accountId);
      },
    });

    return {
      config,
      logger,
      db,
      meter,
      audit,
      plans,
      quota,
      webhookWorker,
      /** What the start-up pass re-encrypted (`arbiter secrets reencrypt` reports it). */
      secretsResealed: resealed,
      judgment,
      policies,
      ledgerState,
      ledgerText,
      ledger,
      services: {
        accounts,
        apiKeys,
        usage: usageRepo,
        billing,
        webhooks,
        gdpr,
        verdicts,
        ledger: ledgerService,
      },
      /** The console's own stores: its sessions and the read models of its pages. */
      console: { sessions: createConsoleSessions(db.kysely), repo: createConsoleRepo(db.kysely) },
      ready: () => isReady(db),
      /** Flushes counters and closes connections, in that order. */
      async close(): Promise<void> {
        for (const close of closers.reverse()) await close();
        await db.close();
      },
    };
  } catch (err) {
    for (const close of closers.reverse()) await close().catch(() => undefined);
    await db.close().catch(() => undefined);
    throw err;
  }
}

export type Container = Awaited<ReturnType<typeof createContainer>>;
