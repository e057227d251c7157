import canonicalize from 'canonicalize';
import { sha256 } from '../lib/sha256.ts';

/** The previous hash of the first entry of every chain. */
export const GENESIS_HASH = '0'.repeat(64);

/**
 * `SHA-256(previous ‖ RFC 8785 canonical JSON of entry)`, the link used by every hash chain in
 * Arbiter (audit log, claim ledger). Canonical JSON makes the hash independent of key order.
 */
export function chainHash(previous: string, entry: unknown): string {
  const canonical = canonicalize(entry);
  if (canonical === undefined) throw new TypeError('entry cannot be canonicalised');
  return sha256(previous + canonical);
}

/** `chainHash` for an entry already in RFC 8785 canonical JSON. */
export function chainHashOfCanonical(previous: string, canonical: string): string {
  return sha256(previous + canonical);
}
