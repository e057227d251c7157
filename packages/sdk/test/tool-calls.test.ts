import { describe, expect, it } from 'vitest';
import { mapToolCall, resolveRelativePaths } from '../src/index.ts';

describe('mapToolCall', () => {
  it.each([
    [
      'run',
      { command: 'ls' },
      { kind: 'verdict', action: 'shell.exec', payload: { command: 'ls', cwd: '/srv/app' } },
    ],
    [
      'bash',
      { cmd: 'pwd', cwd: '/tmp' },
      { kind: 'verdict', action: 'shell.exec', payload: { command: 'pwd', cwd: '/tmp' } },
    ],
    ['query', { sql: 'select 1' }, { kind: 'verdict', action: 'db.query', payload: { sql: 'select 1' } }],
    [
      'fetch',
      { url: 'https://x.test', method: 'POST' },
      { kind: 'verdict', action: 'http.request', payload: { url: 'https://x.test', method: 'POST' } },
    ],
    ['read_file', { path: 'a' }, { kind: 'verdict', action: 'fs.read', payload: { path: '/srv/app/a' } }],
    ['list_directory', { path: '.' }, { kind: 'verdict', action: 'fs.read', payload: { path: '/srv/app' } }],
    [
      'write_file',
      { path: 'a', content: 'x' },
      { kind: 'verdict', action: 'fs.write', payload: { path: '/srv/app/a', content: 'x' } },
    ],
    [
      'edit_file',
      { file_path: 'a', new_string: 'y' },
      { kind: 'verdict', action: 'fs.write', payload: { path: '/srv/app/a', content: 'y' } },
    ],
    [
      'move_file',
      { path: 'a' },
      { kind: 'verdict', action: 'fs.write', payload: { path: '/srv/app/a', content: '' } },
    ],
    [
      'delete_file',
      { path: 'a', recursive: true },
      { kind: 'verdict', action: 'fs.delete', payload: { path: '/srv/app/a', recursive: true } },
    ],
    [
      'remove_or_write',
      { path: 'a' },
      { kind: 'verdict', action: 'fs.delete', payload: { path: '/srv/app/a' } },
    ],
    ['stat_file', { path: 'a' }, { kind: 'judgment', action_type: 'stat_file', payload: { path: 'a' } }],
    ['send_email', { to: 'x' }, { kind: 'judgment', action_type: 'send_email', payload: { to: 'x' } }],
  ])('%s %j', (name, args, expected) => {
    expect(mapToolCall({ name, args }, { cwd: '/srv/app' })).toEqual(expected);
  });

  it('keeps only what the strict action schemas accept', () => {
    expect(
      mapToolCall({ name: 'fetch', args: { url: 'https://x.test', method: 'GET /evil', extra: 1 } }),
    ).toEqual({
      kind: 'verdict',
      action: 'http.request',
      payload: { url: 'https://x.test' },
    });
  });

  it("resolves relative paths against the directory the tools run in, by default this process's", () => {
    expect(
      mapToolCall({ name: 'read_file', args: { path: '../../etc/shadow' } }, { cwd: '/work/x' }),
    ).toEqual({
      kind: 'verdict',
      action: 'fs.read',
      payload: { path: '/etc/shadow' },
    });
    expect(mapToolCall({ name: 'read_file', args: { path: 'notes/a.md' } }).payload).toEqual({
      path: `${process.cwd()}/notes/a.md`,
    });
    expect(mapToolCall({ name: 'bash', args: { command: 'cat ../../etc/shadow' } }).payload).toEqual({
      command: 'cat ../../etc/shadow',
      cwd: process.cwd(),
    });
  });
});

describe('resolveRelativePaths', () => {
  const read = (path: string) => ({
    kind: 'verdict' as const,
    action: 'fs.read' as const,
    payload: { path },
  });
  const resolved = (path: string, cwd = '/work/x') => resolveRelativePaths(read(path), cwd).payload.path;

  it.each([
    ['../../etc/shadow', '/etc/shadow'],
    ['./src/../README.md', '/work/x/README.md'],
    ['.', '/work/x'],
    ['  ../../etc/shadow ', '/etc/shadow'],
    // Absolute, home and Windows forms are the service's to place.
    ['/etc/shadow', '/etc/shadow'],
    ['~/.ssh/id_rsa', '~/.ssh/id_rsa'],
    ['$HOME/.aws/credentials', '$HOME/.aws/credentials'],
    ['C:\\Windows\\System32\\config\\SAM', 'C:\\Windows\\System32\\config\\SAM'],
    ['%SystemRoot%\\System32', '%SystemRoot%\\System32'],
    ['\\\\host\\C$', '\\\\host\\C$'],
    // Escaped or folded forms of an absolute path are too, as the service decodes them itself.
    ['%2Fetc%2Fshadow', '%2Fetc%2Fshadow'],
    ['%252Fetc%252Fshadow', '%252Fetc%252Fshadow'],
    ['\uFF0Fetc\uFF0Fshadow', '\uFF0Fetc\uFF0Fshadow'],
    // Relative ones that are not plain are joined as they are: the service reads the whole the same way.
    ['%2e%2e/%2e%2e/etc/shadow', '/work/x/%2e%2e/%2e%2e/etc/shadow'],
    ['..\\..\\etc\\shadow', '/work/x/..\\..\\etc\\shadow'],
  ])('%j from /work/x is %j', (path, expected) => {
    expect(resolved(path)).toBe(expected);
  });

  it('joins a Windows working directory for the service to read', () => {
    expect(resolved('..\\..\\Windows\\System32\\config\\SAM', 'C:\\srv\\app\\')).toBe(
      'C:\\srv\\app/..\\..\\Windows\\System32\\config\\SAM',
    );
  });

  it('keeps a recursive delete of the working directory or above it relative, and resolves the others', () => {
    const del = (path: string, recursive?: boolean) =>
      resolveRelativePaths(
        {
          kind: 'verdict',
          action: 'fs.delete',
          payload: { path, ...(recursive === undefined ? {} : { recursive }) },
        },
        '/work/x',
      ).payload.path;
    for (const path of ['.', './', '..', '../..', 'a/../..', '%2e']) expect(del(path, true)).toBe(path);
    expect(del('../../etc', true)).toBe('/etc');
    expect(del('build', true)).toBe('/work/x/build');
    expect(del('../y', true)).toBe('/work/y');
    expect(del('.', false)).toBe('/work/x');
    expect(del('.')).toBe('/work/x');
  });

  it("gives shell.exec the tool's working directory, or its own resolved against it", () => {
    const shell = (payload: Record<string, unknown>) =>
      resolveRelativePaths({ kind: 'verdict', action: 'shell.exec', payload }, '/work/x').payload;
    expect(shell({ command: 'ls' })).toEqual({ command: 'ls', cwd: '/work/x' });
    expect(shell({ command: 'ls', cwd: '../..' })).toEqual({ command: 'ls', cwd: '/' });
    expect(shell({ command: 'ls', cwd: '/tmp' })).toEqual({ command: 'ls', cwd: '/tmp' });
  });

  it('leaves other actions and the judgment engine alone', () => {
    const sql = { kind: 'verdict' as const, action: 'db.query' as const, payload: { sql: 'select 1' } };
    expect(resolveRelativePaths(sql, '/work/x')).toBe(sql);
    const judged = { kind: 'judgment' as const, action_type: 'publish', payload: { path: 'a' } };
    expect(resolveRelativePaths(judged, '/work/x')).toBe(judged);
  });
});
