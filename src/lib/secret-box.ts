import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/**
 * Encryption at rest of secrets Arbiter must read back (webhook signing secrets), with
 * AES-256-GCM under a key the operator supplies. Stored values read
 * `v1:<key id>:<iv>:<tag>:<ciphertext>` (base64url parts). The key id is derived from the key,
 * so a value names the key that opens it and a rotated-out key can still be used for reading
 * while values are re-encrypted under the current one.
 */

const VERSION = 'v1';
const IV_BYTES = 12;
export const SECRET_KEY_BYTES = 32;

/** The file in the data directory holding a generated key when none is configured. */
export const KEY_FILE_NAME = 'secrets.key';

/**
 * A 32-byte key from its text form: 64 hex digits or base64 (padded or not, standard or URL
 * alphabet). Returns a reason instead when the text is not one.
 */
export function parseSecretKey(text: string): Buffer | string {
  const trimmed = text.trim();
  if (/^[0-9a-fA-F]{64}$/.test(trimmed)) return Buffer.from(trimmed, 'hex');
  if (!/^[A-Za-z0-9+/_-]+={0,2}$/.test(trimmed)) {
    return `must be ${SECRET_KEY_BYTES} bytes as 64 hex digits or base64 (openssl rand -base64 32)`;
  }
  const bytes = Buffer.from(trimmed.replaceAll('-', '+').replaceAll('_', '/'), 'base64');
  if (bytes.length !== SECRET_KEY_BYTES) {
    return `must be ${SECRET_KEY_BYTES} bytes, got ${bytes.length} after base64 decoding (openssl rand -base64 32)`;
  }
  return bytes;
}

/** A short public name of a key: it tells which key sealed a value without revealing the key. */
export function keyIdOf(key: Buffer): string {
  return createHmac('sha256', key).update('arbiter secret key id').digest('hex').slice(0, 12);
}

export class SecretBoxError extends Error {}

export interface SecretBox {
  /** The id of the key new values are sealed with. */
  readonly currentKeyId: string;
  /** Encrypts `plaintext`; `context` (e.g. the row it belongs to) must be given again to open it. */
  seal(plaintext: string, context: string): string;
  /** Decrypts a sealed value; throws `SecretBoxError` when its key is unknown or it was altered. */
  open(sealed: string, context: string): string;
  /** Whether `stored` is sealed under the current key (false for plaintext and older keys). */
  isCurrent(stored: string): boolean;
  /** Whether `stored` is a sealed value at all (anything else is plaintext from before encryption). */
  isSealed(stored: string): boolean;
}

const b64 = (b: Buffer) => b.toString('base64url');

/** Seals with `current`; opens with `current` or any of `previous` (for rotation). */
export function createSecretBox(current: Buffer, previous: readonly Buffer[] = []): SecretBox {
  const keys = new Map<string, Buffer>();
  for (const key of [current, ...previous]) keys.set(keyIdOf(key), key);
  const currentKeyId = keyIdOf(current);
  const isSealed = (stored: string) => stored.startsWith(`${VERSION}:`);
  return {
    currentKeyId,
    isSealed,
    isCurrent: (stored) => stored.startsWith(`${VERSION}:${currentKeyId}:`),
    seal(plaintext, context) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', current, iv);
      cipher.setAAD(Buffer.from(context));
      const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
      return [VERSION, currentKeyId, b64(iv), b64(cipher.getAuthTag()), b64(ciphertext)].join(':');
    },
    open(sealed, context) {
      const parts = sealed.split(':');
      if (parts.length !== 5 || parts[0] !== VERSION) {
        throw new SecretBoxError('the stored secret is not in a format this version reads');
      }
      const [, keyId, iv, tag, ciphertext] = parts as [string, string, string, string, string];
      const key = keys.get(keyId);
      if (!key) {
        throw new SecretBoxError(
          `the stored secret was encrypted with key ${keyId}, which is neither ARBITER_SECRETS_KEY nor ARBITER_SECRETS_KEY_PREVIOUS`,
        );
      }
      try {
        const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
        decipher.setAAD(Buffer.from(context));
        decipher.setAuthTag(Buffer.from(tag, 'base64url'));
        return Buffer.concat([
          decipher.update(Buffer.from(ciphertext, 'base64url')),
          decipher.final(),
        ]).toString('utf8');
      } catch {
        throw new SecretBoxError(`the stored secret does not decrypt under key ${keyId}: it was altered`);
      }
    },
  };
}

/**
 * The key kept in `<dir>/secrets.key` (mode 0600), created on first use. Two processes starting
 * at once agree on one key: the file appears complete or not at all (written aside, then linked).
 */
export function loadOrCreateKeyFile(dir: string): Buffer {
  const file = path.join(dir, KEY_FILE_NAME);
  const read = (): Buffer => {
    const parsed = parseSecretKey(fs.readFileSync(file, 'utf8'));
    if (typeof parsed === 'string') throw new SecretBoxError(`${file} ${parsed}`);
    return parsed;
  };
  if (fs.existsSync(file)) return read();
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const aside = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
  fs.writeFileSync(aside, `${randomBytes(SECRET_KEY_BYTES).toString('base64')}\n`, { mode: 0o600 });
  try {
    fs.linkSync(aside, file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  } finally {
    fs.rmSync(aside, { force: true });
  }
  return read();
}

/**
 * The box for the configured keys. Without `ARBITER_SECRETS_KEY` the key lives in the data
 * directory's key file, which suits one server on SQLite; on PostgreSQL every instance must share
 * one key, so `warn` tells the operator to configure it.
 */
export function secretBoxFor(
  keys: { key: Buffer | undefined; previousKey: Buffer | undefined },
  options: { dataDir: string; sharedDatabase: boolean; warn: (message: string) => void },
): SecretBox {
  let key = keys.key;
  if (key === undefined) {
    try {
      key = loadOrCreateKeyFile(options.dataDir);
    } catch (err) {
      throw new SecretBoxError(
        `ARBITER_SECRETS_KEY is not set and no key file could be kept in ${options.dataDir}: ${(err as Error).message}`,
      );
    }
    if (options.sharedDatabase) {
      options.warn(
        `ARBITER_SECRETS_KEY is not set: stored secrets are encrypted with ${path.join(options.dataDir, KEY_FILE_NAME)}; every instance sharing this database needs that same key, so set ARBITER_SECRETS_KEY`,
      );
    }
  }
  return createSecretBox(key, keys.previousKey === undefined ? [] : [keys.previousKey]);
}
