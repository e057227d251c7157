import { randomBytes } from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import type { Logger } from 'pino';
import { Webhook } from 'standardwebhooks';
import type { SecretBox } from '../../lib/secret-box.ts';
import type { DeliveryRow, WebhooksRepo } from './repo.ts';
import { openSecret } from './signing-secrets.ts';
import { endpointUrlProblem, guardedLookup } from './url-guard.ts';

export interface WorkerSettings {
  allowLoopback: boolean;
  pollMs: number;
  retryBaseMs: number;
  timeoutMs: number;
  maxAttempts: number;
  /** Failed attempts in a row, and for how long (from the first), before an endpoint is disabled. */
  disableAfter: number;
  disableAfterMs: number;
}

const MAX_BACKOFF_MS = 6 * 60 * 60 * 1000;
const BATCH = 20;
const USER_AGENT = 'Arbiter-Webhooks/1';

/** Exponential backoff with "equal jitter": half fixed, half random, so retries of many endpoints spread out. */
export function backoffMs(attempt: number, baseMs: number, random: () => number = Math.random): number {
  const exp = Math.min(MAX_BACKOFF_MS, baseMs * 2 ** Math.max(0, attempt - 1));
  return Math.round(exp / 2 + random() * (exp / 2));
}

interface AttemptResult {
  statusCode: number | null;
  error: string | null;
  durationMs: number;
}

/** One signed POST with a hard overall deadline; redirects are not followed (a 3xx is a failure). */
function post(
  url: string,
  headers: Record<string, string>,
  body: string,
  settings: WorkerSettings,
): Promise<AttemptResult> {
  const started = performance.now();
  return new Promise((resolve) => {
    const target = new URL(url);
    const client = target.protocol === 'https:' ? https : http;
    let settled = false;
    const settle = (statusCode: number | null, error: string | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      resolve({ statusCode, error, durationMs: performance.now() - started });
    };
    const req = client.request(
      target,
      {
        method: 'POST',
        headers: { ...headers, 'content-length': Buffer.byteLength(body).toString() },
        lookup: guardedLookup(settings.allowLoopback),
        agent: false,
      },
      (res) => {
        // The body is not needed; draining it lets the socket close cleanly.
        res.resume();
        res.on('end', () => settle(res.statusCode ?? null, null));
        res.on('error', (err) => settle(res.statusCode ?? null, err.message));
      },
    );
    const deadline = setTimeout(() => {
      settle(null, `timed out after ${settings.timeoutMs} ms`);
      req.destroy();
    }, settings.timeoutMs);
    req.on('error', (err) => settle(null, err.message.slice(0, 300)));
    req.end(body);
  });
}

/**
 * Delivers the outbox. Every `pollMs` it leases due deliveries (a lease outlives the delivery
 * timeout, so a crashed worker's rows come back after it), signs each per Standard Webhooks and
 * POSTs it, and records the attempt: success, a retry with backoff, or failure after
 * `maxAttempts`. An endpoint is disabled once it has failed `disableAfter` times in a row over at
 * least `disableAfterMs`: a receiver down for a few minutes (a deploy, a restart) fails a burst of
 * deliveries and must not lose its subscription for it.
 */
export class WebhookWorker {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private readonly owner = `wkr_${randomBytes(8).toString('hex')}`;

  constructor(
    private readonly repo: WebhooksRepo,
    private readonly settings: WorkerSettings,
    private readonly log: Pick<Logger, 'warn' | 'error'>,
    private readonly secrets: SecretBox,
    private readonly now: () => Date = () => new Date(),
  ) {}

  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => void this.tick(), this.settings.pollMs);
    this.timer.unref();
  }

  /** Stops polling and waits for deliveries in flight, so their outcome is recorded before shutdown. */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.running;
  }

  /** One round: lease what is due and deliver it. Overlapping rounds are skipped, not queued. */
  tick(): Promise<void> {
    this.running ??= this.round()
      .catch((err: unknown) => this.log.error({ err }, 'webhook delivery round failed'))
      .finally(() => {
        this.running = undefined;
      });
    return this.running;
  }

  private async round(): Promise<void> {
    const now = this.now();
    const leaseUntil = new Date(now.getTime() + this.settings.timeoutMs * 2 + 5000).toISOString();
    const claimed = await this.repo.claimDue(this.owner, now.toISOString(), leaseUntil, BATCH);
    await Promise.all(claimed.map((d) => this.deliver(d)));
  }

  private async deliver(delivery: DeliveryRow): Promise<void> {
    const [endpoint, event] = await Promise.all([
      this.repo.findEndpointById(delivery.endpoint_id),
      this.repo.findEvent(delivery.event_id),
    ]);
    const at = () => this.now().toISOString();
    if (!endpoint || !event)
      return this.repo.abandon(delivery, this.owner, at(), 'endpoint or event deleted');
    if (endpoint.status !== 'enabled') {
      return this.repo.abandon(delivery, this.owner, at(), 'endpoint disabled');
    }
    let result: AttemptResult;
    const problem = endpointUrlProblem(endpoint.url, { allowLoopback: this.settings.allowLoopback });
    let secret: string | undefined;
    let secretProblem: string | undefined;
    try {
      secret = openSecret(this.secrets, endpoint);
    } catch (err) {
      secretProblem = (err as Error).message;
    }
    if (problem !== undefined) {
      result = { statusCode: null, error: `endpoint URL refused: ${problem}`, durationMs: 0 };
    } else if (secret === undefined) {
      // Not sent unsigned: the operator restores the key and the retry goes through.
      result = { statusCode: null, error: `not signed: ${secretProblem}`, durationMs: 0 };
    } else {
      const sentAt = this.now();
      const signature = new Webhook(secret).sign(event.id, sentAt, event.payload);
      result = await post(
        endpoint.url,
        {
          'content-type': 'application/json',
          'user-agent': USER_AGENT,
          'webhook-id': event.id,
          'webhook-timestamp': Math.floor(sentAt.getTime() / 1000).toString(),
          'webhook-signature': signature,
        },
        event.payload,
        this.settings,
      );
    }
    const ok = result.statusCode !== null && result.statusCode >= 200 && result.statusCode < 300;
    const attempt = Number(delivery.attempts) + 1;
    const finishedAt = this.now();
    const outcome = ok
      ? ({ status: 'succeeded' } as const)
      : attempt >= this.settings.maxAttempts
        ? ({ status: 'failed' } as const)
        : ({
            status: 'pending',
            nextAttemptAt: new Date(
              finishedAt.getTime() + backoffMs(attempt, this.settings.retryBaseMs),
            ).toISOString(),
          } as const);
    const { endpointDisabled } = await this.repo.finishAttempt({
      delivery,
      owner: this.owner,
      at: finishedAt.toISOString(),
      statusCode: result.statusCode,
      error: ok ? null : (result.error ?? `HTTP ${result.statusCode}`),
      durationMs: result.durationMs,
      outcome,
      disableAfter: this.settings.disableAfter,
      disableAfterMs: this.settings.disableAfterMs,
    });
    if (endpointDisabled) {
      this.log.warn({ endpoint: endpoint.id, account: endpoint.account_id }, 'webhook endpoint disabled');
    }
  }
}
