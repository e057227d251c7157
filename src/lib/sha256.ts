import { hash } from 'node:crypto';

/**
 * SHA-256 of a UTF-8 string: 64 lowercase hex characters by default, or base64url where a
 * shorter key is wanted. The one-shot `crypto.hash` costs a third of
 * `createHash(…).update(…).digest()`, and verdicts, chains and evaluations hash on every request.
 */
export function sha256(text: string, encoding: 'hex' | 'base64url' = 'hex'): string {
  return hash('sha256', text, encoding);
}
