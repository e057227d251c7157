import { createHmac, timingSafeEqual } from 'node:crypto';
import { ArbiterError } from './errors.ts';

export interface WebhookHeaders {
  'webhook-id'?: string | null;
  'webhook-timestamp'?: string | null;
  'webhook-signature'?: string | null;
}

/** How far a delivery's timestamp may be from now, in seconds (Standard Webhooks' five minutes). */
const TOLERANCE_SECONDS = 5 * 60;

function header(headers: WebhookHeaders | Headers, name: keyof WebhookHeaders): string | undefined {
  const value = headers instanceof Headers ? headers.get(name) : headers[name];
  return value ?? undefined;
}

/**
 * Verifies a Standard Webhooks delivery (HMAC-SHA256 over `id.timestamp.body` with the endpoint's
 * `whsec_` secret) and returns its parsed body; throws `VALIDATION_ERROR` when it is not authentic
 * or not fresh. Pass the raw body exactly as received.
 */
export function verifyWebhook<T = unknown>(
  secret: string,
  rawBody: string,
  headers: WebhookHeaders | Headers,
  now: Date = new Date(),
): T {
  const id = header(headers, 'webhook-id');
  const timestamp = header(headers, 'webhook-timestamp');
  const signatures = header(headers, 'webhook-signature');
  if (!id || !timestamp || !signatures) {
    throw new ArbiterError(
      'VALIDATION_ERROR',
      'webhook-id, webhook-timestamp and webhook-signature are required',
    );
  }
  const seconds = Number(timestamp);
  if (!/^\d+$/.test(timestamp) || Math.abs(now.getTime() / 1000 - seconds) > TOLERANCE_SECONDS) {
    throw new ArbiterError('VALIDATION_ERROR', 'The webhook timestamp is missing or too far from now');
  }
  const key = Buffer.from(secret.startsWith('whsec_') ? secret.slice(6) : secret, 'base64');
  const expected = createHmac('sha256', key).update(`${id}.${timestamp}.${rawBody}`).digest();
  const matches = signatures.split(' ').some((entry) => {
    const [version, signature] = entry.split(',');
    if (version !== 'v1' || !signature) return false;
    const given = Buffer.from(signature, 'base64');
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
  if (!matches) throw new ArbiterError('VALIDATION_ERROR', 'No webhook signature matches the secret');
  return JSON.parse(rawBody) as T;
}
