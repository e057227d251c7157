import { spawn } from 'node:child_process';
import path from 'node:path';
import { createArbiter } from '@arbiter/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decidePreToolUse, type PreToolUseOutput } from '../../src/integrations/claude-code-hook.ts';
import { BIN } from '../helpers/process.ts';
import { type RunningService, startService } from './service.ts';

/** Runs `arbiter hook claude-code` as Claude Code does: the event on stdin, the decision on stdout. */
function runHook(
  event: unknown,
  env: Record<string, string>,
  args: string[] = [],
): Promise<{ code: number | null; output: PreToolUseOutput }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, 'hook', 'claude-code', ...args], {
      env: { ...process.env, ...env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => {
      stdout += d;
    });
    child.stderr.on('data', (d) => {
      stderr += d;
    });
    child.on('error', reject);
    child.on('exit', (code) => {
      try {
        resolve({ code, output: JSON.parse(stdout) as PreToolUseOutput });
      } catch {
        reject(new Error(`no JSON on stdout (exit ${code}): ${stdout} ${stderr}`));
      }
    });
    child.stdin.end(typeof event === 'string' ? event : JSON.stringify(event));
  });
}

const bash = (command: string) => ({
  hook_event_name: 'PreToolUse',
  tool_name: 'Bash',
  tool_input: { command },
});

// Every case starts processes of the CLI; a busy machine makes them slow, not wrong.
describe('arbiter hook claude-code', { timeout: 120_000 }, () => {
  let service: RunningService;
  beforeAll(async () => {
    service = await startService();
  });
  afterAll(() => service.stop());

  it('denies rm -rf / and allows ls, as a process that always exits 0', async () => {
    const [unsafe, safe] = await Promise.all([
      runHook(bash('rm -rf /'), service.env),
      runHook(bash('ls -la src'), service.env),
    ]);
    expect(unsafe.code).toBe(0);
    expect(unsafe.output.hookSpecificOutput).toMatchObject({
      hookEventName: 'PreToolUse',
      permissionDecision: 'deny',
    });
    expect(unsafe.output.hookSpecificOutput.permissionDecisionReason).toContain('DEST_MUTATION');
    expect(safe.code).toBe(0);
    expect(safe.output.hookSpecificOutput.permissionDecision).toBe('allow');
  });

  it("judges relative paths from the session's directory: ../../etc/shadow from /work/x is denied", async () => {
    const [read, cat, here, own] = await Promise.all([
      runHook(
        {
          hook_event_name: 'PreToolUse',
          cwd: '/work/x',
          tool_name: 'Read',
          tool_input: { file_path: '../../etc/shadow' },
        },
        service.env,
      ),
      runHook({ ...bash('cat ../../etc/shadow'), cwd: '/work/x' }, service.env),
      runHook({ ...bash('ls -la src'), cwd: '/work/x' }, service.env),
      // Without a cwd in the event, the hook's own directory (Claude Code runs it in the project).
      runHook(
        {
          hook_event_name: 'PreToolUse',
          tool_name: 'Read',
          tool_input: { file_path: path.relative(process.cwd(), '/etc/shadow') },
        },
        service.env,
      ),
    ]);
    for (const denied of [read, cat, own]) {
      expect(denied.code).toBe(0);
      expect(denied.output.hookSpecificOutput.permissionDecision).toBe('deny');
      expect(denied.output.hookSpecificOutput.permissionDecisionReason).toContain('FILESYSTEM_DENIED');
    }
    expect(here.output.hookSpecificOutput.permissionDecision).toBe('allow');
  });

  it('denies with a reason when the service is down, and allows with --fail-open', async () => {
    const down = { ARBITER_URL: 'http://127.0.0.1:9', ARBITER_API_KEY: service.key };
    const [closed, open] = await Promise.all([
      runHook(bash('ls'), down),
      runHook(bash('ls'), down, ['--fail-open']),
    ]);
    expect(closed.code).toBe(0);
    expect(closed.output.hookSpecificOutput.permissionDecision).toBe('deny');
    expect(closed.output.hookSpecificOutput.permissionDecisionReason).toMatch(
      /UNREACHABLE.*could not be reached/,
    );
    expect(open.output.hookSpecificOutput.permissionDecision).toBe('allow');
  });

  describe('decisions by tool', () => {
    const decide = (event: unknown, options: { mode?: 'monitor'; apiKey?: string } = {}) =>
      decidePreToolUse(
        createArbiter({
          baseUrl: service.url,
          apiKey: options.apiKey ?? service.key,
          actor: 'claude-code',
          ...(options.mode ? { mode: options.mode } : {}),
        }),
        typeof event === 'string' ? event : JSON.stringify(event),
      ).then((o) => o.hookSpecificOutput);

    it('Read of /etc/shadow and WebFetch of the metadata address are denied; a project file is read', async () => {
      const shadow = await decide({ tool_name: 'Read', tool_input: { file_path: '/etc/shadow' } });
      expect(shadow.permissionDecision).toBe('deny');
      expect(shadow.permissionDecisionReason).toContain('FILESYSTEM_DENIED');
      const metadata = await decide({
        tool_name: 'WebFetch',
        tool_input: { url: 'http://169.254.169.254/latest/meta-data/', prompt: 'read it' },
      });
      expect(metadata.permissionDecision).toBe('deny');
      expect(metadata.permissionDecisionReason).toContain('EXFILTRATION_BLOCKED');
      expect(
        (await decide({ tool_name: 'Read', tool_input: { file_path: 'src/cli.ts' } })).permissionDecision,
      ).toBe('allow');
    });

    it('judges the text an Edit or MultiEdit writes, not only its path', async () => {
      const key = 'AKIA' + 'IOSFODNN7' + 'EXAMPLE';
      const secret = `aws_access_key_id = ${key}\naws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY`;
      const edit = await decide({
        tool_name: 'Edit',
        tool_input: { file_path: 'notes.md', old_string: 'a', new_string: 'b' },
      });
      expect(edit.permissionDecision).toBe('allow');
      const credentials = await decide({
        tool_name: 'Write',
        tool_input: { file_path: `${process.env.HOME ?? '/root'}/.ssh/authorized_keys`, content: secret },
      });
      expect(credentials.permissionDecision).toBe('deny');
    });

    it('asks a human when the judgment engine escalates, and denies what it blocks', async () => {
      // An action the account never registered is blocked by the schema gate.
      const unknown = await decide({ tool_name: 'Glob', tool_input: { pattern: '**/*.ts' } });
      expect(unknown.permissionDecision).toBe('deny');
      expect(unknown.permissionDecisionReason).toContain('SCHEMA_MISMATCH');
      const escalated = await decidePreToolUse(
        createArbiter({ baseUrl: service.url, apiKey: service.key, impactScope: 'external' }),
        JSON.stringify({
          tool_name: 'email.send',
          tool_input: { to: 'someone@example.com', subject: 'hello', body: 'hi' },
        }),
      );
      expect(escalated.hookSpecificOutput.permissionDecision).toBe('ask');
    });

    it('denies unreadable input and a refused key; monitor mode allows but says what it would do', async () => {
      expect((await decide('not json')).permissionDecision).toBe('deny');
      expect((await decide({ tool_input: {} })).permissionDecision).toBe('deny');
      const revoked = await decide(bash('ls'), { apiKey: `arbiter_sk_${'0'.repeat(40)}` });
      expect(revoked.permissionDecision).toBe('deny');
      expect(revoked.permissionDecisionReason).toContain('UNAUTHENTICATED');
      const monitored = await decide(bash('rm -rf /'), { mode: 'monitor' });
      expect(monitored.permissionDecision).toBe('allow');
      expect(monitored.permissionDecisionReason).toContain('would deny');
    });
  });
});
