import { describe, expect, it } from 'vitest';
import { endpointUrlProblem, guardedLookup } from './url-guard.ts';
import { backoffMs } from './worker.ts';

describe('webhook endpoint URLs', () => {
  it.each([
    'http://127.0.0.1:8080/hook',
    'http://localhost/hook',
    'https://169.254.169.254/latest',
    'https://10.1.2.3/',
    'https://192.168.0.1/',
    'https://[::1]/',
    'https://metadata.google.internal/',
    'https://intranet/',
    'https://a:b@hooks.example.com/',
    'http://hooks.example.com/',
    'file:///etc/passwd',
    'nonsense',
  ])('refuses %s by default', (url) => {
    expect(endpointUrlProblem(url, { allowLoopback: false })).toBeTypeOf('string');
  });

  it.each(['http://127.0.0.1:8080/hook', 'https://localhost/hook', 'http://[::1]:9000/'])(
    'names the setting that allows a loopback receiver when it refuses %s',
    (url) => {
      expect(endpointUrlProblem(url, { allowLoopback: false })).toContain(
        'ARBITER_WEBHOOK_ALLOW_LOOPBACK=true',
      );
    },
  );

  it('accepts public https URLs, and loopback only when allowed', () => {
    expect(endpointUrlProblem('https://hooks.example.com/arbiter', { allowLoopback: false })).toBeUndefined();
    expect(endpointUrlProblem('http://127.0.0.1:9000/h', { allowLoopback: true })).toBeUndefined();
    expect(endpointUrlProblem('http://localhost:9000/h', { allowLoopback: true })).toBeUndefined();
    expect(endpointUrlProblem('http://10.0.0.1/h', { allowLoopback: true })).toBeTypeOf('string');
  });

  it('refuses at connection time a name that resolves to a non-public address', async () => {
    const lookup = (allow: boolean) =>
      new Promise<string>((resolve) =>
        guardedLookup(allow)('localhost', { family: 4 }, (err, address) =>
          resolve(err ? err.message : String(address)),
        ),
      );
    expect(await lookup(false)).toContain('non-public');
    expect(await lookup(true)).toBe('127.0.0.1');
  });
});

describe('retry backoff', () => {
  it('doubles per attempt, keeps at least half, and is capped', () => {
    expect(backoffMs(1, 1000, () => 0)).toBe(500);
    expect(backoffMs(1, 1000, () => 1)).toBe(1000);
    expect(backoffMs(4, 1000, () => 0)).toBe(4000);
    expect(backoffMs(40, 1000, () => 1)).toBe(6 * 60 * 60 * 1000);
  });
});
