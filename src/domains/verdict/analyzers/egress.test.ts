import { describe, expect, it } from 'vitest';
import { analyzeUrl, type EgressSettings } from './egress.ts';

describe('analyzeUrl (default denylist)', () => {
  it.each([
    ['https://api.github.com/repos/nodejs/node', false],
    ['https://registry.npmjs.org/fastify', false],
    ['https://pastebin.com/raw/abc', true],
    ['https://abc123.ngrok-free.app/upload', true],
    ['https://x1.trycloudflare.com/', true],
    ['https://webhook.site/6f1c', true],
    ['https://abc.oast.fun/', true],
    ['http://169.254.169.254/latest/meta-data/', true],
    ['http://metadata.google.internal/computeMetadata/v1/', true],
    ['http://[fd00:ec2::254]/latest', true],
    ['http://2130706433/', true],
    ['http://0x7f000001/', true],
    ['http://0177.0.0.1/', true],
    ['http://[::ffff:127.0.0.1]/', true],
    ['http://10.0.0.5/admin', true],
    ['http://100.64.1.1/', true],
    ['http://8.8.8.8/', true],
    ['file:///etc/passwd', true],
    ['gopher://example.org/', true],
    ['https://user:secret@example.com/', true],
    ['https://py\u0440i.org/simple/', true],
    ['https://api.g\u0456thub.com/', true],
    ['not a url', true],
  ])('%s blocked=%s', (url, blocked) => {
    const findings = analyzeUrl(url);
    expect(findings.length > 0).toBe(blocked);
    if (blocked) expect(findings[0]?.code).toBe('EXFILTRATION_BLOCKED');
  });

  it('never echoes URL credentials', () => {
    const [finding] = analyzeUrl('https://ci:Pa55w0rd@registry.npmjs.org/');
    expect(JSON.stringify(finding)).not.toContain('Pa55w0rd');
  });
});

describe('analyzeUrl with account settings', () => {
  const allowlist: EgressSettings = {
    mode: 'allowlist',
    trusted_domains: ['example.com'],
    blocked_domains: [],
  };
  it('allowlist mode admits trusted domains and their sub-domains only', () => {
    expect(analyzeUrl('https://api.example.com/v1', allowlist)).toEqual([]);
    expect(analyzeUrl('https://api.github.com/', allowlist)[0]?.code).toBe('EXFILTRATION_BLOCKED');
  });
  it('extra blocked domains apply in denylist mode', () => {
    const settings: EgressSettings = {
      mode: 'denylist',
      trusted_domains: [],
      blocked_domains: ['evil.test'],
    };
    expect(analyzeUrl('https://a.evil.test/', settings)[0]?.message).toContain('blocked domain');
  });
});
