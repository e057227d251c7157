import type { SecretBox } from '../../lib/secret-box.ts';
import type { WebhooksRepo } from './repo.ts';

/**
 * Endpoint signing secrets are stored sealed (lib/secret-box), bound to their endpoint's id so a
 * sealed value copied onto another endpoint does not open. Rows written before encryption hold
 * the plain `whsec_…` text; they are read as they are and sealed by `reencryptSecrets`.
 */

const context = (endpointId: string) => `webhook_endpoints.secret:${endpointId}`;

export function sealSecret(box: SecretBox, endpointId: string, secret: string): string {
  return box.seal(secret, context(endpointId));
}

export function openSecret(box: SecretBox, endpoint: { id: string; secret: string }): string {
  return box.isSealed(endpoint.secret) ? box.open(endpoint.secret, context(endpoint.id)) : endpoint.secret;
}

/**
 * Seals every secret not yet sealed under the current key: plaintext rows from before encryption
 * and rows sealed under the previous key (a rotation). Each row is replaced only if it still holds
 * what was read, so a secret rotated meanwhile is left alone. Rows whose key is unknown are
 * counted in `unreadable` and stay as they are.
 */
export async function reencryptSecrets(
  repo: Pick<WebhooksRepo, 'endpointsNotSealedWith' | 'replaceSecret'>,
  box: SecretBox,
): Promise<{ reencrypted: number; unreadable: string[]; key_id: string }> {
  let reencrypted = 0;
  const unreadable: string[] = [];
  for (const row of await repo.endpointsNotSealedWith(box.currentKeyId)) {
    let plain: string;
    try {
      plain = openSecret(box, row);
    } catch {
      unreadable.push(row.id);
      continue;
    }
    if (await repo.replaceSecret(row.id, row.secret, sealSecret(box, row.id, plain))) reencrypted++;
  }
  return { reencrypted, unreadable, key_id: box.currentKeyId };
}
