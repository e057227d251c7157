import { randomUUID } from 'node:crypto';

/**
 * A UUIDv7 (RFC 9562): 48 bits of Unix milliseconds, then random bits. Ids of rows written
 * together sort together, so a primary-key index grows at its end instead of taking inserts at
 * random pages. The random part comes from `randomUUID`, which draws from a buffered pool
 * (a `randomBytes` call per id cost more than the rest of an audit append).
 */
export function timeOrderedId(now: number = Date.now()): string {
  const time = now.toString(16).padStart(12, '0').slice(-12);
  const random = randomUUID();
  // random: xxxxxxxx-xxxx-4xxx-Vxxx-xxxxxxxxxxxx, variant V already 8–b.
  return `${time.slice(0, 8)}-${time.slice(8, 12)}-7${random.slice(15, 18)}-${random.slice(19)}`;
}
