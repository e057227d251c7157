import { describe, expect, it } from 'vitest';
import { mapToolCall } from '../src/index.ts';

describe('mapToolCall', () => {
  it.each([
    ['run', { command: 'ls' }, { kind: 'verdict', action: 'shell.exec', payload: { command: 'ls' } }],
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
    ['read_file', { path: 'a' }, { kind: 'verdict', action: 'fs.read', payload: { path: 'a' } }],
    ['list_directory', { path: '.' }, { kind: 'verdict', action: 'fs.read', payload: { path: '.' } }],
    [
      'write_file',
      { path: 'a', content: 'x' },
      { kind: 'verdict', action: 'fs.write', payload: { path: 'a', content: 'x' } },
    ],
    [
      'edit_file',
      { file_path: 'a', new_string: 'y' },
      { kind: 'verdict', action: 'fs.write', payload: { path: 'a', content: 'y' } },
    ],
    [
      'move_file',
      { path: 'a' },
      { kind: 'verdict', action: 'fs.write', payload: { path: 'a', content: '' } },
    ],
    [
      'delete_file',
      { path: 'a', recursive: true },
      { kind: 'verdict', action: 'fs.delete', payload: { path: 'a', recursive: true } },
    ],
    ['remove_or_write', { path: 'a' }, { kind: 'verdict', action: 'fs.delete', payload: { path: 'a' } }],
    ['stat_file', { path: 'a' }, { kind: 'judgment', action_type: 'stat_file', payload: { path: 'a' } }],
    ['send_email', { to: 'x' }, { kind: 'judgment', action_type: 'send_email', payload: { to: 'x' } }],
  ])('%s %j', (name, args, expected) => {
    expect(mapToolCall({ name, args })).toEqual(expected);
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
});
