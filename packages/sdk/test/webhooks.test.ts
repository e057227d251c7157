import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { verifyWebhook } from '../src/index.ts';

// Signed by the reference Standard Webhooks library, the one the service signs with.
const secret = `whsec_${Buffer.from('a secret of thirty-two bytes!!!!').toString('base64')}`;
const body = JSON.stringify({
  type: 'escalation.created',
  timestamp: '2026-11-23T10:00:00Z',
  data: { id: 'e1' },
});
const at = new Date('2026-11-23T10:00:00Z');

function signed(id = 'msg_1', when = at): Record<string, string> {
  const signature = new Webhook(secret).sign(id, when, body);
  return {
    'webhook-id': id,
    'webhook-timestamp': String(Math.floor(when.getTime() / 1000)),
    'webhook-signature': signature,
  };
}

describe('verifyWebhook', () => {
  it('accepts a delivery signed with the secret and returns its body', () => {
    expect(verifyWebhook(secret, body, signed(), at)).toEqual(JSON.parse(body));
    expect(verifyWebhook(secret, body, new Headers(signed()), new Date(at.getTime() + 60_000))).toBeTruthy();
  });

  it('refuses a changed body, another secret, a changed id, and a stale or future timestamp', () => {
    const other = `whsec_${Buffer.from('another secret of 32 bytes!!!!!!').toString('base64')}`;
    expect(() => verifyWebhook(secret, body.replace('e1', 'e2'), signed(), at)).toThrow(
      /No webhook signature/,
    );
    expect(() => verifyWebhook(other, body, signed(), at)).toThrow(/No webhook signature/);
    expect(() => verifyWebhook(secret, body, { ...signed(), 'webhook-id': 'msg_2' }, at)).toThrow(
      /No webhook signature/,
    );
    expect(() => verifyWebhook(secret, body, signed(), new Date(at.getTime() + 6 * 60_000))).toThrow(
      /too far/,
    );
    expect(() => verifyWebhook(secret, body, signed(), new Date(at.getTime() - 6 * 60_000))).toThrow(
      /too far/,
    );
    expect(() => verifyWebhook(secret, body, { 'webhook-id': 'msg_1' }, at)).toThrow(/required/);
  });
});
