import { spawn } from 'node:child_process';
import path from 'node:path';
import { createArbiter } from '@arbiter/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decidePreToolUse, type PreToolUseOutput } from '../../src/integrations/claude-code-hook.ts';
import { BIN } from '../helpers/process.ts';
import { type RunningService, startService } from './service.ts';

/**
 * Runs `arbiter hook claude-code` as Claude Code does: the event on stdin, the decision on stdout.
 * An empty stdout (exit 0) is no decision: `output` is undefined.
 */
function runHook(
  event: unknown,
  env: Record<string, string>,
  args: string[] = [],
): Promise<{ code: number | null; output: PreToolUseOutput | undefined; stdout: string }> {
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
        const output = stdout === '' ? undefined : (JSON.parse(stdout) as PreToolUseOutput);
        resolve({ code, output, stdout });
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

  it("denies rm -rf /, asks about a program it does not know, and leaves ls to Claude Code's own rules, always exiting 0", async () => {
    const [unsafe, unknown, safe] = await Promise.all([
      runHook(bash('rm -rf /'), service.env),
      runHook(bash('frobctl --purge-all'), service.env),
      runHook(bash('ls -la src'), service.env),
    ]);
    expect(unsafe.code).toBe(0);
    expect(unsafe.output?.hookSpecificOutput).toMatchObject({
      hookEventName: 'PreToolUse',
      permissionDecision: 'deny',
    });
    expect(unsafe.output?.hookSpecificOutput?.permissionDecisionReason).toContain('DEST_MUTATION');
    expect(unknown.code).toBe(0);
    expect(unknown.output).toEqual({
      hookSpecificOutput: {
        hookEventName: 'PreToolUse',
        permissionDecision: 'ask',
        permissionDecisionReason:
          'Arbiter on shell.exec: UNRECOGNISED: Arbiter does not know what this does: unknown program "frobctl"; it may execute frobctl',
      },
    });
    // No decision at all: nothing on stdout, exit 0.
    expect(safe).toMatchObject({ code: 0, stdout: '', output: undefined });
  });

  it('allows a safe, recognised call with --allow-safe, and still asks and denies', async () => {
    const [safe, unknown, unsafe] = await Promise.all([
      runHook(bash('ls -la src'), service.env, ['--allow-safe']),
      runHook(bash('aws iam attach-user-policy --user-name ci --policy-arn x'), service.env, [
        '--allow-safe',
      ]),
      runHook(bash('rm -rf /'), service.env, ['--allow-safe']),
    ]);
    expect(safe.code).toBe(0);
    expect(safe.output?.hookSpecificOutput).toEqual({
      hookEventName: 'PreToolUse',
      permissionDecision: 'allow',
      permissionDecisionReason: 'Arbiter on shell.exec: safe',
    });
    expect(unknown.output?.hookSpecificOutput?.permissionDecision).toBe('ask');
    expect(unknown.output?.hookSpecificOutput?.permissionDecisionReason).toContain(
      '"aws iam attach-user-policy" is a aws operation Arbiter does not model; it may remote_mutation aws iam attach-user-policy',
    );
    expect(unsafe.output?.hookSpecificOutput?.permissionDecision).toBe('deny');
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
      expect(denied.output?.hookSpecificOutput?.permissionDecision).toBe('deny');
      expect(denied.output?.hookSpecificOutput?.permissionDecisionReason).toContain('FILESYSTEM_DENIED');
    }
    expect(here).toMatchObject({ code: 0, output: undefined });
  });

  it("denies with a reason when the service is down; with --fail-open leaves the call to Claude Code's own rules, telling the user", async () => {
    const down = { ARBITER_URL: 'http://127.0.0.1:9', ARBITER_API_KEY: service.key };
    const [closed, open, openAllowSafe] = await Promise.all([
      runHook(bash('ls'), down),
      runHook(bash('ls'), down, ['--fail-open']),
      runHook(bash('ls'), down, ['--fail-open', '--allow-safe']),
    ]);
    expect(closed.code).toBe(0);
    expect(closed.output?.hookSpecificOutput?.permissionDecision).toBe('deny');
    expect(closed.output?.hookSpecificOutput?.permissionDecisionReason).toMatch(
      /UNREACHABLE.*could not be reached/,
    );
    for (const o of [open, openAllowSafe]) {
      expect(o.code).toBe(0);
      // A call Arbiter never judged is not "safe": no allow, even with --allow-safe.
      expect(o.output?.hookSpecificOutput).toBeUndefined();
      expect(o.output?.systemMessage).toMatch(/UNREACHABLE.*Claude Code's own permission rules decide$/);
    }
  });

  describe('decisions by tool', () => {
    const answer = (event: unknown, options: { mode?: 'monitor'; apiKey?: string } = {}) =>
      decidePreToolUse(
        createArbiter({
          baseUrl: service.url,
          apiKey: options.apiKey ?? service.key,
          actor: 'claude-code',
          ...(options.mode ? { mode: options.mode } : {}),
        }),
        typeof event === 'string' ? event : JSON.stringify(event),
      );
    /** The permission decision; `none` when the hook leaves the call to Claude Code's own rules. */
    const decide = (event: unknown, options: { mode?: 'monitor'; apiKey?: string } = {}) =>
      answer(event, options).then(
        (o) => o?.hookSpecificOutput ?? { permissionDecision: 'none', permissionDecisionReason: '' },
      );

    it('Read of /etc/shadow and WebFetch of the metadata address are denied; a project file is left to Claude Code', async () => {
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
      ).toBe('none');
    });

    it("sends the session's directory as the workspace: a /root session's files are its own, its keys are not", async () => {
      const inRoot = (tool_input: Record<string, unknown>) =>
        decide({ tool_name: 'Read', tool_input, cwd: '/root' });
      expect((await inRoot({ file_path: '/root/security_audit.csv' })).permissionDecision).toBe('none');
      const keys = await inRoot({ file_path: '/root/.ssh/id_rsa' });
      expect(keys.permissionDecision).toBe('deny');
      expect(keys.permissionDecisionReason).toContain('FILESYSTEM_DENIED');
      // Without a cwd in the event nothing is said about the workspace, and /root is not the agent's.
      const elsewhere = await decide({
        tool_name: 'Read',
        tool_input: { file_path: '/root/security_audit.csv' },
      });
      expect(elsewhere.permissionDecision).toBe('deny');
    });

    it('judges the text an Edit or MultiEdit writes, not only its path', async () => {
      const key = 'AKIA' + 'IOSFODNN7' + 'EXAMPLE';
      const secret = `aws_access_key_id = ${key}\naws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY`;
      const edit = await decide({
        tool_name: 'Edit',
        tool_input: { file_path: 'notes.md', old_string: 'a', new_string: 'b' },
      });
      expect(edit.permissionDecision).toBe('none');
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
      expect(escalated?.hookSpecificOutput?.permissionDecision).toBe('ask');
      expect(escalated?.hookSpecificOutput?.permissionDecisionReason).toContain('ESCALATION_REQUIRED');
    });

    it('denies unreadable input and a refused key; monitor mode decides nothing but says what it would do', async () => {
      expect((await decide('not json')).permissionDecision).toBe('deny');
      expect((await decide({ tool_input: {} })).permissionDecision).toBe('deny');
      const revoked = await decide(bash('ls'), { apiKey: `arbiter_sk_${'0'.repeat(40)}` });
      expect(revoked.permissionDecision).toBe('deny');
      expect(revoked.permissionDecisionReason).toContain('UNAUTHENTICATED');
      // Monitor mode neither refuses nor loosens: Claude Code's own rules decide, the user is told.
      const monitored = await answer(bash('rm -rf /'), { mode: 'monitor' });
      expect(monitored?.hookSpecificOutput).toBeUndefined();
      expect(monitored?.systemMessage).toMatch(/^Arbiter \(monitor mode\) would deny Bash: DEST_MUTATION: /);
      const unknown = await answer(bash('frobctl --purge'), { mode: 'monitor' });
      expect(unknown?.systemMessage).toMatch(/^Arbiter \(monitor mode\) would ask Bash: UNRECOGNISED: /);
      expect(await answer(bash('ls'), { mode: 'monitor' })).toBeUndefined();
    });
  });
});
