import { type MappedCall, resolveRelativePaths } from '@arbiter/sdk';
import { describe, expect, it } from 'vitest';
import { evaluateAction } from '../../src/domains/verdict/engine.ts';

/** What the verdict engine decides on a call mapped in a tool's working directory. */
function judged(call: MappedCall, cwd: string) {
  const resolved = resolveRelativePaths(call, cwd);
  if (resolved.kind !== 'verdict') throw new Error('a verdict action was expected');
  const verdict = evaluateAction({ action: resolved.action, payload: resolved.payload });
  return verdict.finding?.code ?? 'SAFE';
}

const read = (path: string): MappedCall => ({ kind: 'verdict', action: 'fs.read', payload: { path } });

// The SDK resolves plain relative paths and leaves every other form for the engine to read: these
// cases hold it to what the engine makes of the result.
describe('relative paths resolved where the tool runs, as the verdict engine judges them', () => {
  it.each([
    ['../../etc/shadow', '/work/x'],
    ['%2e%2e/%2e%2e/etc/shadow', '/work/x'],
    ['..\\..\\etc\\shadow', '/work/x'],
    ['\uFF0E\uFF0E/\uFF0E\uFF0E/etc/shadow', '/work/x'],
    ['../../../../etc/shadow', '/work/x'],
    ['..\\..\\Windows\\System32\\config\\SAM', 'C:\\srv\\app'],
    ['../.ssh/id_rsa', '/home/me/project'],
  ])('%j read from %s is refused', (path, cwd) => {
    expect(judged(read(path), cwd)).toBe('FILESYSTEM_DENIED');
  });

  it('passes the files of the working tree', () => {
    expect(judged(read('README.md'), '/work/x')).toBe('SAFE');
    expect(judged(read('./src/../notes/a.md'), '/work/x')).toBe('SAFE');
  });

  it('still refuses a recursive delete of the working tree or a directory above it', () => {
    const wipe = (path: string): MappedCall => ({
      kind: 'verdict',
      action: 'fs.delete',
      payload: { path, recursive: true },
    });
    for (const path of ['.', './', '..', '../..', 'a/../..', '%2e'])
      expect(judged(wipe(path), '/work/x')).toBe('DEST_MUTATION');
    expect(judged(wipe('build'), '/work/x')).toBe('SAFE');
  });

  it("judges a shell command's relative paths in the tool's working directory", () => {
    const shell = (command: string): MappedCall => ({
      kind: 'verdict',
      action: 'shell.exec',
      payload: { command },
    });
    expect(judged(shell('cat ../../etc/shadow'), '/work/x')).toBe('FILESYSTEM_DENIED');
    expect(judged(shell('rm -rf .'), '/work/x')).toBe('DEST_MUTATION');
    expect(judged(shell('ls -la src'), '/work/x')).toBe('SAFE');
  });
});
