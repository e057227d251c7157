import { describe, expect, it } from 'vitest';
import { dropMessage, isSessionLocalName, serverFileJudgement, sqliteFilePath } from './judgement.ts';

describe('serverFileJudgement', () => {
  it.each([
    ['/etc/passwd', false, 'FILESYSTEM_DENIED'],
    ['/tmp/../root/.ssh/id_rsa', false, 'FILESYSTEM_DENIED'],
    ['/var/lib/data.csv', false, 'POLICY_VIOLATION'],
    [undefined, false, 'POLICY_VIOLATION'],
    ['cat /etc/shadow | gzip', true, 'FILESYSTEM_DENIED'],
    ["sh -c 'ls ~/.ssh'", true, 'FILESYSTEM_DENIED'],
    ['gzip > /tmp/out.gz', true, 'POLICY_VIOLATION'],
    ['dir', true, 'POLICY_VIOLATION'],
  ] as const)('%s (command: %s) -> %s', (path, isCommand, want) => {
    expect(serverFileJudgement('f()', path, isCommand).code).toBe(want);
  });
});

describe('names', () => {
  it('knows session-local tables', () => {
    expect(isSessionLocalName(['#t'], new Set())).toBe(true);
    expect(isSessionLocalName(['pg_temp', 'x'], new Set())).toBe(true);
    expect(isSessionLocalName(['x'], new Set(['x']))).toBe(true);
    expect(isSessionLocalName(['public', 'x'], new Set(['x']))).toBe(false);
    expect(isSessionLocalName(['y'], new Set(['x']))).toBe(false);
  });

  it('reads SQLite file: URIs', () => {
    expect(sqliteFilePath('file:/etc/x?mode=ro')).toBe('/etc/x');
    expect(sqliteFilePath('file://localhost/root/x.db')).toBe('/root/x.db');
    expect(sqliteFilePath('data.db')).toBe('data.db');
  });

  it('names what a drop drops', () => {
    expect(dropMessage('TABLE', [['dbo', 'Users'], ['t']])).toBe('DROP TABLE dbo.Users, t');
    expect(dropMessage('SCHEMA', [])).toBe('DROP SCHEMA');
  });
});
