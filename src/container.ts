import type { Logger } from 'pino';
import type { Config } from './config.ts';
import { type Db, isReady, migrateToLatest, openDatabase } from './db/database.ts';
import { createAccountsRepo } from './domains/accounts/repo.ts';
import { createAccountsService } from './domains/accounts/service.ts';
import { KeyCache } from './domains/api-keys/key-cache.ts';
import { createApiKeysRepo } from './domains/api-keys/repo.ts';
import { createRedisRevocationBus } from './domains/api-keys/revocation-bus.ts';
import { createApiKeysService } from './domains/api-keys/service.ts';
import { createAuditRepo } from './domains/audit/repo.ts';
import { AuditLog } from './domains/audit/service.ts';
import { DEFAULT_PLANS, type Plan } from './domains/plans/catalog.ts';
import { UsageMeter } from './domains/usage/meter.ts';
import { createUsageRepo } from './domains/usage/repo.ts';

/** The composition root: the one place that builds every service and decides what it depends on. */
export async function createContainer(config: Config, logger: Logger) {
  const db: Db = openDatabase(config.database);
  const closers: Array<() => Promise<void>> = [];
  try {
    await migrateToLatest(db);

    const plans: readonly Plan[] = DEFAULT_PLANS;
    const usageRepo = createUsageRepo(db.kysely);
    const meter = new UsageMeter(usageRepo, config.usageFlushMs, logger);
    meter.start();
    closers.push(() => meter.stop());

    const auditRepo = createAuditRepo(db.kysely, db.dialect);
    const audit = new AuditLog(auditRepo, config.usageFlushMs, logger);
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
    });
    const accounts = createAccountsService({
      repo: createAccountsRepo(db.kysely),
      apiKeys,
      knownPlans: () => plans.map((p) => p.id),
    });

    return {
      config,
      logger,
      db,
      meter,
      audit,
      plans,
      services: { accounts, apiKeys, usage: usageRepo },
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
