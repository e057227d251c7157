import { randomBytes } from 'node:crypto';
import { KEY_PREFIX } from '../../lib/key-shape.ts';
import { sha256 } from '../../lib/sha256.ts';

export { isWellFormedKey } from '../../lib/key-shape.ts';

const KEY_BODY_LENGTH = 40;
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** A fresh key with ~238 bits of entropy; rejection sampling keeps every character equally likely. */
export function generateKey(): string {
  let body = '';
  while (body.length < KEY_BODY_LENGTH) {
    for (const byte of randomBytes(KEY_BODY_LENGTH)) {
      if (byte < 248 && body.length < KEY_BODY_LENGTH) body += BASE62[byte % 62];
    }
  }
  return KEY_PREFIX + body;
}

/**
 * Keys carry enough entropy that a single SHA-256 is a safe at-rest form (as for Stripe or
 * Unkey keys); a slow password hash would put milliseconds on every authenticated request.
 */
export function hashKey(key: string): string {
  return sha256(key);
}

/** The only form of a key ever shown after creation: `arbiter_sk_…a1b2`. */
export function maskKey(lastFour: string): string {
  return `${KEY_PREFIX}…${lastFour}`;
}
