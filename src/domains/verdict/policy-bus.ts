import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import pg from 'pg';
import type { Logger } from 'pino';
import { connectOrCarryOn, logRedisErrors } from '../../lib/redis-errors.ts';

/** What a bus drives in the instance it runs in: the verdict domain's policy cache. */
export interface PolicyCacheControl {
  invalidate(accountId: string): void;
  /** The bus cannot deliver: serve nothing from memory. */
  suspend(): void;
  /** Delivering again: forget everything remembered and cache again. */
  resume(): void;
}

/**
 * Tells every instance sharing the database that an account's verdict policy changed.
 *
 * `announce` resolves once no instance can serve a copy of the policy read before it was called:
 * either every instance that listens has confirmed that it dropped its copy, or `maxAgeMs` (the
 * policy cache's lifetime) has passed, after which no copy read earlier is served anywhere. The
 * write path awaits it, so a change it reports done is in force on the next evaluation on every
 * instance. Evaluations pay nothing for this: the cost is on the (rare) writes.
 */
export interface PolicyChangeBus {
  /** Called by the verdict service with its cache, once. */
  listen(cache: PolicyCacheControl): void;
  announce(accountId: string): Promise<void>;
  close(): Promise<void>;
}

/** The default Redis channel; confirmations go to `<channel>:acks`. */
const REDIS_CHANNEL = 'arbiter:policy';
/** How an instance's listening connection names itself to PostgreSQL, so writers can count them. */
const PG_LISTENER_NAME = 'arbiter-policy-bus';
const PG_CHANGES = 'arbiter_policy';
const PG_ACKS = 'arbiter_policy_acks';

/** Announcements waiting for their confirmations, by nonce. */
class Confirmations {
  private readonly pending = new Map<string, { seen: number; expected: number; done: () => void }>();

  /** Registered before the announcement goes out, so no confirmation is missed. */
  expect(nonce: string, maxWaitMs: number): { until(expected: number): Promise<void> } {
    let resolve!: () => void;
    const settled = new Promise<void>((r) => {
      resolve = r;
    });
    const timer = setTimeout(() => finish(), maxWaitMs);
    const finish = () => {
      clearTimeout(timer);
      this.pending.delete(nonce);
      resolve();
    };
    const entry = { seen: 0, expected: Number.POSITIVE_INFINITY, done: finish };
    this.pending.set(nonce, entry);
    return {
      until: (expected) => {
        entry.expected = expected;
        if (entry.seen >= expected) finish();
        return settled;
      },
    };
  }

  confirm(nonce: string): void {
    const entry = this.pending.get(nonce);
    if (entry === undefined) return;
    entry.seen++;
    if (entry.seen >= entry.expected) entry.done();
  }
}

function parseChange(message: string): { nonce: string; accountId: string } | undefined {
  const space = message.indexOf(' ');
  if (space <= 0 || space === message.length - 1) return undefined;
  return { nonce: message.slice(0, space), accountId: message.slice(space + 1) };
}

/**
 * Redis pub/sub: PUBLISH answers how many connections received the change, and each instance
 * publishes a confirmation once it has dropped its copy; the writer waits for that many.
 */
export async function createRedisPolicyBus(
  url: string,
  maxAgeMs: number,
  log: Pick<Logger, 'warn'>,
  /** Deployments that share one Redis may keep their announcements apart. */
  channel = REDIS_CHANNEL,
): Promise<PolicyChangeBus> {
  const acks = `${channel}:acks`;
  const publisher = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 2 });
  const subscriber = new Redis(url, { lazyConnect: true });
  logRedisErrors(publisher, log, 'policy publisher');
  logRedisErrors(subscriber, log, 'policy subscriber');
  const confirmations = new Confirmations();
  let cache: PolicyCacheControl | undefined;
  let connected = false;

  const [, reachable] = await Promise.all([
    connectOrCarryOn(publisher, log, 'policy publisher'),
    connectOrCarryOn(subscriber, log, 'policy subscriber'),
  ]);
  if (reachable) {
    await subscriber.subscribe(channel, acks);
    connected = true;
  }
  subscriber.on('message', (from: string, message: string) => {
    if (from === acks) {
      confirmations.confirm(message);
      return;
    }
    const change = parseChange(message);
    if (change === undefined) return;
    cache?.invalidate(change.accountId);
    publisher.publish(acks, change.nonce).catch((err: unknown) => {
      log.warn({ err }, 'could not confirm a policy change; its writer waits out the cache lifetime');
    });
  });
  subscriber.on('close', () => {
    if (!connected) return;
    connected = false;
    cache?.suspend();
  });
  subscriber.on('ready', () => {
    if (connected) return;
    // Subscribed again before anything is cached again (subscribing twice is harmless).
    subscriber.subscribe(channel, acks).then(
      () => {
        connected = true;
        cache?.resume();
      },
      (err: unknown) => log.warn({ err }, 'could not subscribe to policy changes again'),
    );
  });

  return {
    listen(control) {
      cache = control;
      // Started without Redis: nothing is cached until the subscription is in place.
      if (!connected) cache.suspend();
    },
    async announce(accountId) {
      const nonce = randomUUID();
      const waiting = confirmations.expect(nonce, maxAgeMs);
      let receivers = Number.POSITIVE_INFINITY;
      try {
        receivers = await publisher.publish(channel, `${nonce} ${accountId}`);
      } catch (err) {
        log.warn({ err }, 'could not announce a policy change; waiting out the policy cache lifetime');
      }
      await waiting.until(receivers);
    },
    async close() {
      connected = false;
      subscriber.disconnect();
      publisher.disconnect();
    },
  };
}

/**
 * PostgreSQL LISTEN/NOTIFY, for several instances on one PostgreSQL without Redis. NOTIFY does
 * not say how many listened, so every instance's listening connection carries one
 * `application_name` and the writer counts those in `pg_stat_activity` before it notifies.
 */
export async function createPostgresPolicyBus(
  connectionString: string,
  maxAgeMs: number,
  log: Pick<Logger, 'warn'>,
): Promise<PolicyChangeBus> {
  const confirmations = new Confirmations();
  let cache: PolicyCacheControl | undefined;
  let listener: pg.Client | undefined;
  let closed = false;
  let retry: NodeJS.Timeout | undefined;

  const connect = async (): Promise<void> => {
    const client = new pg.Client({ connectionString, application_name: PG_LISTENER_NAME });
    client.on('notification', (n) => {
      if (n.channel === PG_ACKS) {
        if (n.payload) confirmations.confirm(n.payload);
        return;
      }
      const change = parseChange(n.payload ?? '');
      if (change === undefined) return;
      cache?.invalidate(change.accountId);
      client.query('SELECT pg_notify($1, $2)', [PG_ACKS, change.nonce]).catch((err: unknown) => {
        log.warn({ err }, 'could not confirm a policy change; its writer waits out the cache lifetime');
      });
    });
    const lost = () => {
      if (listener !== client) return;
      listener = undefined;
      cache?.suspend();
      client.end().catch(() => undefined);
      if (!closed) schedule();
    };
    client.on('error', lost);
    client.on('end', lost);
    await client.connect();
    try {
      await client.query(`LISTEN ${PG_CHANGES}`);
      await client.query(`LISTEN ${PG_ACKS}`);
    } catch (err) {
      await client.end().catch(() => undefined);
      throw err;
    }
    listener = client;
    cache?.resume();
  };
  const schedule = () => {
    retry = setTimeout(() => {
      connect().catch((err: unknown) => {
        log.warn({ err }, 'could not listen for policy changes; retrying, and caching nothing meanwhile');
        if (!closed) schedule();
      });
    }, 1000);
  };

  await connect();

  return {
    listen(control) {
      cache = control;
      if (listener === undefined) control.suspend();
    },
    async announce(accountId) {
      const nonce = randomUUID();
      const waiting = confirmations.expect(nonce, maxAgeMs);
      let receivers = Number.POSITIVE_INFINITY;
      try {
        // On the listening connection: no connection of its own, and it hears its own notice.
        if (listener === undefined) throw new Error('not listening for policy changes');
        const counted = await listener.query<{ n: number }>(
          'SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND application_name = $1',
          [PG_LISTENER_NAME],
        );
        await listener.query('SELECT pg_notify($1, $2)', [PG_CHANGES, `${nonce} ${accountId}`]);
        receivers = counted.rows[0]?.n ?? Number.POSITIVE_INFINITY;
      } catch (err) {
        log.warn({ err }, 'could not announce a policy change; waiting out the policy cache lifetime');
      }
      await waiting.until(receivers);
    },
    async close() {
      closed = true;
      clearTimeout(retry);
      const client = listener;
      listener = undefined;
      await client?.end().catch(() => undefined);
    },
  };
}
