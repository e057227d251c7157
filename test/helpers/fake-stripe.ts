import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';

/**
 * A stand-in for the Stripe API on 127.0.0.1, for the one remote service the tests cannot
 * reach. It speaks Stripe's wire format (form-encoded requests with bracketed keys, Stripe JSON
 * objects, Stripe error bodies), so the official SDK talks to it unmodified, and it plays
 * Stripe's hosted checkout page and its signed webhooks (signed with the SDK's own test helper).
 */
export interface FakeStripe {
  url: string;
  /** Every API request received, parsed. */
  requests: Array<{
    method: string;
    path: string;
    body: Record<string, unknown>;
    headers: http.IncomingHttpHeaders;
  }>;
  sessions: Map<string, Record<string, unknown>>;
  /** Subscriptions created by completed checkouts, by id; cancelling one sets its status. */
  subscriptions: Map<string, Record<string, unknown>>;
  /** When set, `DELETE /v1/subscriptions/{id}` answers with this HTTP status and a Stripe error. */
  cancelFailure: number | undefined;
  /** Where events are posted (Arbiter's /billing/stripe/webhook). */
  webhookUrl: string | undefined;
  /** Builds, signs and posts an event; returns Arbiter's answer. */
  sendEvent(
    type: string,
    object: Record<string, unknown>,
    options?: SendOptions,
  ): Promise<{ status: number; body: string }>;
  close(): Promise<void>;
}

interface SendOptions {
  /** Sign at this time (seconds), to produce stale signatures. */
  timestamp?: number;
  /** Change the payload after signing. */
  tamper?: (payload: string) => string;
  secret?: string;
  /** Resend an earlier event (Stripe retries with the same id). */
  id?: string;
}

const stripe = new Stripe('sk_test_signing_only');

/** Stripe's form encoding: `a[b][0][c]=v` → `{a: {b: [{c: v}]}}`. */
export function parseStripeForm(text: string): Record<string, unknown> {
  const root: Record<string, unknown> = {};
  for (const [key, value] of new URLSearchParams(text)) {
    const path = key.replace(/\]/g, '').split('[');
    let node: Record<string, unknown> | unknown[] = root;
    path.forEach((part, i) => {
      const last = i === path.length - 1;
      const nextIsIndex = !last && /^\d+$/.test(path[i + 1]!);
      const container = node as Record<string, unknown>;
      if (last) container[part] = value;
      else {
        container[part] ??= nextIsIndex ? [] : {};
        node = container[part] as Record<string, unknown>;
      }
    });
  }
  return root;
}

function stripeError(res: http.ServerResponse, status: number, error: Record<string, unknown>) {
  res.writeHead(status, {
    'content-type': 'application/json',
    'request-id': `req_${randomBytes(6).toString('hex')}`,
  });
  res.end(JSON.stringify({ error }));
}

function id(prefix: string): string {
  return `${prefix}_test_${randomBytes(12).toString('hex')}`;
}

export async function startFakeStripe(options: {
  secretKey: string;
  webhookSecret: string;
}): Promise<FakeStripe> {
  const requests: FakeStripe['requests'] = [];
  const sessions = new Map<string, Record<string, unknown>>();
  const subscriptions = new Map<string, Record<string, unknown>>();
  const byIdempotencyKey = new Map<string, string>();
  let base = '';

  const fake: FakeStripe = {
    url: '',
    requests,
    sessions,
    subscriptions,
    cancelFailure: undefined,
    webhookUrl: undefined,
    async sendEvent(type, object, send = {}) {
      const event = {
        id: send.id ?? id('evt'),
        object: 'event',
        api_version: '2026-10-28.endive',
        created: send.timestamp ?? Math.floor(Date.now() / 1000),
        data: { object },
        livemode: false,
        pending_webhooks: 1,
        request: { id: null, idempotency_key: null },
        type,
      };
      const payload = JSON.stringify(event, null, 2);
      const header = stripe.webhooks.generateTestHeaderString({
        payload,
        secret: send.secret ?? options.webhookSecret,
        ...(send.timestamp === undefined ? {} : { timestamp: send.timestamp }),
      });
      const res = await fetch(fake.webhookUrl!, {
        method: 'POST',
        headers: { 'content-type': 'application/json; charset=utf-8', 'stripe-signature': header },
        body: send.tamper ? send.tamper(payload) : payload,
      });
      return { status: res.status, body: await res.text() };
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };

  async function completeCheckout(session: Record<string, unknown>) {
    const customer = id('cus');
    const subscription = id('sub');
    Object.assign(session, { status: 'complete', payment_status: 'paid', customer, subscription });
    const now = Math.floor(Date.now() / 1000);
    subscriptions.set(subscription, {
      ...subscriptionObject({
        id: subscription,
        customer,
        status: 'active',
        metadata: (session.metadata ?? {}) as Record<string, string>,
        periodStart: now,
        periodEnd: now + 30 * 86400,
      }),
      canceled_at: null,
    });
    await fake.sendEvent('checkout.session.completed', session);
    return { customer, subscription, now };
  }

  const server = http.createServer((req, res) => {
    let text = '';
    req.on('data', (c: Buffer) => {
      text += c.toString();
    });
    req.on('end', () => {
      void (async () => {
        const url = new URL(req.url ?? '/', base);
        const pay = /^\/c\/pay\/([\w]+)$/.exec(url.pathname);
        if (pay) {
          const session = sessions.get(pay[1]!);
          if (!session)
            return stripeError(res, 404, { type: 'invalid_request_error', message: 'No such page' });
          if (req.method === 'GET') {
            res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
            return res.end(
              `<!doctype html><title>Stripe test checkout</title><h1>Pay Arbiter</h1><form method="post"><button id="pay">Pay</button></form>`,
            );
          }
          await completeCheckout(session);
          res.writeHead(303, {
            location: String(session.success_url).replaceAll('{CHECKOUT_SESSION_ID}', String(session.id)),
          });
          return res.end();
        }

        const body = parseStripeForm(text);
        requests.push({ method: req.method ?? '', path: url.pathname, body, headers: req.headers });
        if (req.headers.authorization !== `Bearer ${options.secretKey}`) {
          return stripeError(res, 401, {
            type: 'invalid_request_error',
            message: 'Invalid API Key provided: sk_test_****',
          });
        }
        if (req.method === 'POST' && url.pathname === '/v1/checkout/sessions') {
          const idem = req.headers['idempotency-key'];
          if (typeof idem === 'string' && byIdempotencyKey.has(idem)) {
            res.writeHead(200, { 'content-type': 'application/json', 'idempotent-replayed': 'true' });
            return res.end(JSON.stringify(sessions.get(byIdempotencyKey.get(idem)!)));
          }
          for (const field of ['mode', 'success_url', 'line_items']) {
            if (body[field] === undefined) {
              return stripeError(res, 400, {
                type: 'invalid_request_error',
                code: 'parameter_missing',
                param: field,
                message: `Missing required param: ${field}.`,
              });
            }
          }
          const sessionId = id('cs');
          const session = {
            id: sessionId,
            object: 'checkout.session',
            mode: body.mode,
            status: 'open',
            payment_status: 'unpaid',
            client_reference_id: body.client_reference_id ?? null,
            customer: null,
            customer_email: body.customer_email ?? null,
            subscription: null,
            success_url: body.success_url,
            cancel_url: body.cancel_url ?? null,
            metadata: body.metadata ?? {},
            expires_at: Number(body.expires_at ?? Math.floor(Date.now() / 1000) + 86400),
            created: Math.floor(Date.now() / 1000),
            livemode: false,
            url: `${base}/c/pay/${sessionId}`,
          };
          sessions.set(sessionId, session);
          if (typeof idem === 'string') byIdempotencyKey.set(idem, sessionId);
          res.writeHead(200, { 'content-type': 'application/json', 'request-id': id('req') });
          return res.end(JSON.stringify(session));
        }
        const cancel = /^\/v1\/subscriptions\/([\w]+)$/.exec(url.pathname);
        if (req.method === 'DELETE' && cancel) {
          if (fake.cancelFailure !== undefined) {
            res.setHeader('stripe-should-retry', 'false');
            return stripeError(res, fake.cancelFailure, {
              type: 'api_error',
              message: 'An error occurred with our connection to Stripe.',
            });
          }
          const sub = subscriptions.get(cancel[1]!);
          if (!sub) {
            return stripeError(res, 404, {
              type: 'invalid_request_error',
              code: 'resource_missing',
              param: 'id',
              message: `No such subscription: '${cancel[1]}'`,
            });
          }
          Object.assign(sub, { status: 'canceled', canceled_at: Math.floor(Date.now() / 1000) });
          res.writeHead(200, { 'content-type': 'application/json', 'request-id': id('req') });
          return res.end(JSON.stringify(sub));
        }
        return stripeError(res, 404, {
          type: 'invalid_request_error',
          message: `Unrecognized request URL (${req.method}: ${url.pathname}).`,
        });
      })().catch((err: unknown) => {
        res.writeHead(500);
        res.end(String(err));
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  fake.url = base;
  return fake;
}

/** A Stripe subscription object as Stripe sends it in customer.subscription.* events. */
export function subscriptionObject(input: {
  id: string;
  customer: string;
  status: string;
  metadata: Record<string, string>;
  periodStart: number;
  periodEnd: number;
}) {
  return {
    id: input.id,
    object: 'subscription',
    customer: input.customer,
    status: input.status,
    metadata: input.metadata,
    cancel_at_period_end: false,
    items: {
      object: 'list',
      data: [
        {
          id: id('si'),
          object: 'subscription_item',
          current_period_start: input.periodStart,
          current_period_end: input.periodEnd,
        },
      ],
    },
  };
}
