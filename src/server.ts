import { setFlagsFromString } from 'node:v8';
import type { FastifyInstance } from 'fastify';
import { buildApp } from './app.ts';
import { type Config, ConfigError } from './config.ts';
import { type Container, createContainer } from './container.ts';
import { lockSqliteFolder, type ServerLock } from './db/server-lock.ts';
import { warmTextCheckHere } from './domains/ledger/index.ts';
import { createLogger } from './logger.ts';

export interface RunningServer {
  app: FastifyInstance;
  container: Container;
  url: string;
  stop(): Promise<void>;
}

/** How long a stop waits for requests in flight before it cuts their connections. */
const DRAIN_MS = 10_000;

/**
 * Said at every start on the default billing provider, which moves an account to any plan at
 * checkout without taking a payment: fine to try billing out, not to sell plans.
 */
const LOCAL_BILLING_NOTICE =
  'billing: local provider — checkout completes without payment; set ARBITER_BILLING=stripe for real payments';

/** What a newcomer reads once, on stderr, after the first start on an empty database. */
function firstKeyMessage(url: string, email: string, key: string): string {
  return [
    '',
    `Arbiter created the owner account ${email} on this empty database.`,
    `Its API key (shown once, store it now): ${key}`,
    '',
    'Try it:',
    `  export ARBITER_API_KEY=${key}`,
    `  curl -s ${url}/v1/evaluate -H "Authorization: Bearer $ARBITER_API_KEY" \\`,
    `    -H 'content-type: application/json' -d '{"action":"shell.exec","payload":{"command":"rm -rf /"}}'`,
    `  Console: ${url}/console (sign in with the key)`,
    'Try billing: create an account on the free plan and move it to another plan at a checkout page',
    '  npx arbiter accounts create --email you@example.com --name You   (same environment; prints its key)',
    `  curl -s ${url}/subscription/checkout -H "Authorization: Bearer <its key>" -H 'content-type: application/json' \\`,
    `    -d '{"plan_id":"developer","success_url":"${url}/console","cancel_url":"${url}/console"}'`,
    '  then open the checkout_url it answers in a browser (ARBITER_BILLING=local: no payment).',
    '',
    '',
  ].join('\n');
}

/** A busy port is the first thing a second checkout or a forgotten server runs into: one line. */
function portInUse(config: Config): ConfigError {
  return new ConfigError(
    `port ${config.port} is in use on ${config.host}; set PORT=<a free port> (e.g. PORT=${config.port + 1} npm start) or stop what listens there`,
  );
}

/**
 * How far the heap may grow past what survived the last full collection before V8 collects again.
 * Left to itself V8 raises that factor with the allocation rate, up to 4: under steady load a
 * 125 MB live heap sat in 550 MB of committed heap, and RSS swung by 300 MB with the collector's
 * cycle, so it said little about what the process holds. At 100 % (a factor of 2) the same soak
 * held 308 MB committed with the same throughput and p99, and at the default of 50 % about 245 MB,
 * still with the same throughput (docs/operations.md). It is read at each full collection, so
 * setting it once at start, before the heap has grown, takes effect. The flag is process-wide, so
 * worker threads follow it too.
 */
function limitHeapGrowth(percent: number): void {
  if (percent > 0) setFlagsFromString(`--heap-growing-percent=${percent}`);
}

/**
 * Opens the database, makes sure an owner exists, and listens. The owner's first key goes to
 * stderr once, outside the structured logs, so log pipelines never receive a secret. On SQLite
 * the data folder is claimed first: a second server on it refuses to start (`FolderInUseError`).
 */
export async function startServer(config: Config): Promise<RunningServer> {
  limitHeapGrowth(config.heapGrowthPercent);
  const folder: ServerLock | undefined =
    config.database.kind === 'sqlite' ? lockSqliteFolder(config.database.file) : undefined;
  const logger = createLogger(config.logLevel);
  let container: Container;
  try {
    container = await createContainer(config, logger);
  } catch (err) {
    folder?.release();
    throw err;
  }
  const owner = await container.services.accounts.ensureOwner(config.bootstrapKey);
  if (owner && config.bootstrapKey) {
    logger.info({ account: owner.account.id }, 'owner account created with ARBITER_BOOTSTRAP_KEY');
  }
  if (config.billing.provider === 'local') logger.warn(LOCAL_BILLING_NOTICE);
  const app = await buildApp(container);
  // The lexicons every store and text check read are loaded here, before the first request (tens
  // of milliseconds: compact files). Long texts are checked on a thread of their own that the
  // first text check starts (the work runs here in slices until it is ready): a server that
  // checks no text does not hold that thread's ~40 MB, nor spend a core loading it at start.
  warmTextCheckHere();
  let url: string;
  try {
    url = await app.listen({ port: config.port, host: config.host });
  } catch (err) {
    await app.close();
    await container.close();
    folder?.release();
    throw (err as NodeJS.ErrnoException).code === 'EADDRINUSE' ? portInUse(config) : err;
  }
  logger.info({ url, database: config.database.kind }, 'arbiter listening');
  if (owner && !config.bootstrapKey)
    process.stderr.write(firstKeyMessage(url, owner.account.email, owner.key.key));
  // Load the embedding model now that the port is open, so the first store or search does not wait for it.
  container.ledger
    .warmUp()
    .catch((err: unknown) => logger.error({ err }, 'the embedding model failed to load'));

  let stopping: Promise<void> | undefined;
  const stop = () => {
    stopping ??= (async () => {
      // Stop accepting, let in-flight requests finish, then flush counters and close the database.
      // A keep-alive connection whose request was in flight would hold the close open until its
      // client let go: connections are closed as soon as they go idle, and after DRAIN_MS
      // whatever is left is cut.
      const closed = app.close();
      const sweep = setInterval(() => app.server.closeIdleConnections(), 50);
      const deadline = setTimeout(() => app.server.closeAllConnections(), DRAIN_MS);
      try {
        await closed;
      } finally {
        clearInterval(sweep);
        clearTimeout(deadline);
      }
      await container.close();
      folder?.release();
    })();
    return stopping;
  };
  return { app, container, url, stop };
}

/** Ends the process cleanly on SIGTERM/SIGINT; a second signal forces the exit. */
export function stopOnSignals(server: RunningServer): void {
  let signalled = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (signalled) process.exit(1);
    signalled = true;
    server.container.logger.info({ signal }, 'shutting down');
    server.stop().then(
      () => process.exit(0),
      (err: unknown) => {
        server.container.logger.error({ err }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
}
