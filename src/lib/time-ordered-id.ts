import { randomUUID } from 'node:crypto';

/**
 * A UUIDv7 (RFC 9562): 48 bits of Unix milliseconds, then random bits. Ids of rows written
 * together sort together, so a primary-key index grows at its end instead of taking inserts at
 * random pages. The random part comes from `randomUUID`, which draws from a buffered pool
 * (a `randomBytes` call per id cost more than the rest of an audit append).
 */
let lastMs = -1;
let lastPrefix = '';

export function timeOrderedId(now: number = Date.now()): string {
  // The time part changes once a millisecond; ids made within one share it.
  if (now !== lastMs) {
    const time = now.toString(16).padStart(12, '0').slice(-12);
    lastMs = now;
    lastPrefix = `${time.slice(0, 8)}-${time.slice(8, 12)}-7`;
  }
  const random = randomUUID();
  // random: xxxxxxxx-xxxx-4xxx-Vxxx-xxxxxxxxxxxx, variant V already 8–b.
  return lastPrefix + random.slice(15);
}
