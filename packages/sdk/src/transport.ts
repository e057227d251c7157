import { ArbiterError } from './errors.ts';

export interface TransportOptions {
  /** Per attempt, in milliseconds. */
  timeoutMs: number;
  /** Further attempts after the first, for network failures, timeouts, 429 and 502–504. */
  retries: number;
  /** A `Retry-After` longer than this is not waited for: the answer goes back to the caller. */
  maxRetryDelayMs: number;
  fetch: typeof fetch;
}

const RETRY_STATUSES = new Set([429, 502, 503, 504]);
const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** Milliseconds a `Retry-After` header asks for (delta-seconds or an HTTP date); undefined if absent or unreadable. */
export function retryAfterMs(header: string | null, now = Date.now()): number | undefined {
  if (header === null || header.trim() === '') return undefined;
  const trimmed = header.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const at = Date.parse(trimmed);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

function backoffMs(attempt: number): number {
  return Math.min(2000, 100 * 2 ** attempt);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export interface Transport {
  /** A JSON request with a string body: re-sent as is on a retry. */
  request(method: string, url: string, headers: Record<string, string>, body?: string): Promise<Response>;
  /** The same policy as a `fetch` over `Request` objects, for the generated client. */
  fetch(request: Request): Promise<Response>;
}

/**
 * Times out each attempt, retries what is safe to retry (honouring `Retry-After`), and gives every
 * write an `Idempotency-Key`, the same on each attempt, so a retried write happens once.
 */
export function createTransport(options: TransportOptions): Transport {
  async function attempts(
    url: string,
    send: (signal: AbortSignal, last: boolean) => Promise<Response>,
    outer?: AbortSignal,
  ): Promise<Response> {
    for (let attempt = 0; ; attempt++) {
      const last = attempt >= options.retries;
      const timeout = AbortSignal.timeout(options.timeoutMs);
      let response: Response;
      try {
        response = await send(outer ? AbortSignal.any([outer, timeout]) : timeout, last);
      } catch (err) {
        if (outer?.aborted) throw err;
        const timedOut = err instanceof DOMException && err.name === 'TimeoutError';
        if (last) {
          throw new ArbiterError(
            timedOut ? 'TIMEOUT' : 'UNREACHABLE',
            timedOut
              ? `Arbiter did not answer within ${options.timeoutMs} ms`
              : `Arbiter could not be reached at ${new URL(url).origin}`,
            { cause: err },
          );
        }
        await sleep(backoffMs(attempt));
        continue;
      }
      if (last || !RETRY_STATUSES.has(response.status)) return response;
      const asked = retryAfterMs(response.headers.get('retry-after'));
      if (asked !== undefined && asked > options.maxRetryDelayMs) return response;
      await response.body?.cancel();
      await sleep(asked ?? backoffMs(attempt));
    }
  }

  return {
    request(method, url, headers, body) {
      const sent = WRITES.has(method) ? { ...headers, 'idempotency-key': crypto.randomUUID() } : headers;
      return attempts(url, (signal) => options.fetch(url, { method, headers: sent, body, signal }));
    },
    fetch(request) {
      if (WRITES.has(request.method) && !request.headers.has('idempotency-key')) {
        request.headers.set('idempotency-key', crypto.randomUUID());
      }
      // A Request's body can be read once: every attempt but the last sends a copy.
      return attempts(
        request.url,
        (signal, last) => options.fetch(last ? request : request.clone(), { signal }),
        request.signal,
      );
    },
  };
}
