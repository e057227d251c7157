import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createSecretBox, keyIdOf, loadOrCreateKeyFile, parseSecretKey } from './secret-box.ts';

describe('secret box', () => {
  const key = randomBytes(32);
  const box = createSecretBox(key);

  it('seals to a versioned value naming its key, and opens it again', () => {
    const sealed = box.seal('whsec_abc', 'row:1');
    expect(sealed).toMatch(new RegExp(`^v1:${keyIdOf(key)}:[\\w-]+:[\\w-]+:[\\w-]+$`));
    expect(sealed).not.toContain('abc');
    expect(box.open(sealed, 'row:1')).toBe('whsec_abc');
    expect(box.seal('whsec_abc', 'row:1')).not.toBe(sealed);
  });

  it('refuses a value moved to another row or altered', () => {
    const sealed = box.seal('whsec_abc', 'row:1');
    expect(() => box.open(sealed, 'row:2')).toThrow(/altered/);
    const parts = sealed.split(':');
    parts[4] = Buffer.from('whsec_xyz').toString('base64url');
    expect(() => box.open(parts.join(':'), 'row:1')).toThrow(/altered/);
  });

  it('opens values of the previous key and says which key is missing', () => {
    const old = box.seal('whsec_old', 'row:1');
    const rotated = createSecretBox(randomBytes(32), [key]);
    expect(rotated.open(old, 'row:1')).toBe('whsec_old');
    expect(rotated.isCurrent(old)).toBe(false);
    expect(() => createSecretBox(randomBytes(32)).open(old, 'row:1')).toThrow(
      `encrypted with key ${keyIdOf(key)}`,
    );
  });

  it.each([
    [randomBytes(32).toString('hex'), true],
    [randomBytes(32).toString('base64'), true],
    [randomBytes(32).toString('base64url'), true],
    [randomBytes(16).toString('base64'), false],
    ['zz'.repeat(32), false],
    ['', false],
  ])('parses %s as a key: %s', (text, ok) => {
    expect(Buffer.isBuffer(parseSecretKey(text))).toBe(ok);
  });

  it('creates one key file, mode 0600, and reads it back on every later start', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'secret-box-'));
    try {
      const keys = Array.from({ length: 5 }, () => loadOrCreateKeyFile(path.join(dir, 'data')));
      expect(new Set(keys.map((k) => k.toString('hex'))).size).toBe(1);
      expect(fs.statSync(path.join(dir, 'data', 'secrets.key')).mode & 0o777).toBe(0o600);
      expect(fs.readdirSync(path.join(dir, 'data'))).toEqual(['secrets.key']);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
