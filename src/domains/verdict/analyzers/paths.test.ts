import { describe, expect, it } from 'vitest';
import { analyzeFsPath, normalizePath } from './paths.ts';

describe('normalizePath', () => {
  it.each([
    ['../../../../etc/passwd', '/etc/passwd'],
    ['..%252f..%252f..%252f..%252fetc/shadow', '/etc/shadow'],
    ['%%32%65%%32%65/%%32%65%%32%65/%%32%65%%32%65/%%32%65%%32%65/etc/hosts', '/etc/hosts'],
    ['/etc/passwd%00.png', '/etc/passwd'],
    ['..\\..\\..\\..\\root\\.bash_history', '/root/.bash_history'],
    ['C:\\Windows\\win.ini', '/Windows/win.ini'],
    ['~/.ssh/id_rsa', '/home/agent/.ssh/id_rsa'],
    ['~bob/notes', '/home/bob/notes'],
    ['//var///run/./secrets/x', '/var/run/secrets/x'],
    ['src/index.ts', '/home/agent/workspace/app/src/index.ts'],
  ])('%s -> %s', (raw, want) => {
    expect(normalizePath(raw)).toBe(want);
  });
});

describe('analyzeFsPath', () => {
  it.each([
    ['read', '/etc/hosts', false, 'FILESYSTEM_DENIED'],
    ['read', '/proc/self/environ', false, 'FILESYSTEM_DENIED'],
    ['read', 'deploy/.ssh/config', false, 'FILESYSTEM_DENIED'],
    ['read', '/home/ubuntu/.aws/credentials', false, 'FILESYSTEM_DENIED'],
    ['write', '/var/run/secrets/kubernetes.io/serviceaccount/token', false, 'FILESYSTEM_DENIED'],
    ['read', '/dev/null', false, null],
    ['read', 'README.md', false, null],
    ['write', '/tmp/out.txt', false, null],
    ['delete', '/', true, 'DEST_MUTATION'],
    ['delete', '~', true, 'DEST_MUTATION'],
    ['delete', '/home/alice', true, 'DEST_MUTATION'],
    ['delete', '/usr', true, 'DEST_MUTATION'],
    ['delete', '/usr', false, null],
    ['delete', 'build', true, null],
  ] as const)('%s %s (recursive %s) -> %s', (access, path, recursive, want) => {
    const findings = analyzeFsPath(access, path, recursive);
    expect(findings[0]?.code ?? null).toBe(want);
  });

  it('names the normalised path, not the raw encoding', () => {
    const [finding] = analyzeFsPath('read', '..%2f..%2f..%2f..%2fetc%2fshadow');
    expect(finding?.location).toBe('path /etc/shadow');
  });
});
