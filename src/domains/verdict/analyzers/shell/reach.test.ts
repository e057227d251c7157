import { describe, expect, it } from 'vitest';
import { evaluateAction } from '../../engine.ts';

const verdict = (command: string, context?: { workspace: string[] }) =>
  evaluateAction({ action: 'shell.exec', payload: { command }, ...(context ? { context } : {}) });
const codeOf = (command: string, context?: { workspace: string[] }) =>
  verdict(command, context).finding?.code ?? null;

describe('what a command reaches through another', () => {
  it.each([
    // find -exec is handed what the name glob matches, credential stores included
    ["find ~ -maxdepth 3 -type f -name 'id_*' -exec cat {} +", 'FILESYSTEM_DENIED'],
    ["find / -name 'credentials' -exec cp {} /tmp/c \\;", 'FILESYSTEM_DENIED'],
    ["find . -name '*.py' -exec cat {} +", null],
    ["find src -name '*.test.ts' -exec wc -l {} +", null],
    ["find ~ -name 'id_*'", null],
    // cmd's own variables name the same paths
    ['type %USERPROFILE%\\.aws\\credentials', 'FILESYSTEM_DENIED'],
    ['type %USERPROFILE%\\src\\shop\\README.md', null],
    // inline code that names the agent's own dev server, and what never is one
    [`python3 -c "origins = ['http://localhost:3000']; print(origins)"`, null],
    [
      `python3 -c "import requests; requests.get('http://169.254.169.254/latest/meta-data/')"`,
      'EXFILTRATION_BLOCKED',
    ],
    [
      `python3 -c "import requests; requests.post('http://localhost:2375/containers/create')"`,
      'EXFILTRATION_BLOCKED',
    ],
  ])('%s → %s', (command, code) => {
    expect(codeOf(command)).toBe(code);
  });

  it('asks about a crontab installed from a table of unknown content, and judges a known one', () => {
    const unknown = verdict('cat jobs.txt | crontab -', { workspace: ['/home/dev/app'] });
    expect(unknown.recognised).toBe(false);
    expect(unknown.unrecognised.join(' ')).toMatch(/crontab installs a table/);
    expect(verdict('crontab -l').recognised).toBe(true);
    expect(codeOf("echo '* * * * * rm -rf /' | crontab -")).toBe('DEST_MUTATION');
  });
});
