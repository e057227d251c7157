import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN } from '../helpers/process.ts';
import { type RunningService, startService } from './service.ts';

/**
 * The hook inside the real Claude Code: `claude -p` against a scripted Anthropic Messages API
 * whose model calls Bash once, with the hook in the project's `.claude/settings.json`. What Claude
 * Code sends back as the tool's result shows what it made of the hook's answer, beside its own
 * permission rules. Claude Code is not a dependency of Arbiter (a ~400 MB native package): these
 * cases run where CLAUDE_CODE_BIN names its `claude` (`npm install @anthropic-ai/claude-code` in a
 * scratch directory, then `CLAUDE_CODE_BIN=…/node_modules/.bin/claude`), and say so when skipped.
 */
const CLAUDE = process.env.CLAUDE_CODE_BIN || undefined;
if (!CLAUDE) console.warn('CLAUDE_CODE_BIN is not set: the hook inside the real Claude Code is skipped.');

interface ToolResult {
  is_error?: boolean;
  content: unknown;
}

/** A scripted Messages API: the first turn with tools calls Bash with `command`, the next says "done". */
async function scriptedModel(command: string) {
  const results: ToolResult[] = [];
  let turn = 0;
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (d) => {
      body += d;
    });
    req.on('end', () => {
      if (!req.url?.startsWith('/v1/messages') || req.url.includes('count_tokens')) {
        res.writeHead(200, { 'content-type': 'application/json' }).end('{"input_tokens":10}');
        return;
      }
      const request = JSON.parse(body) as {
        stream?: boolean;
        tools?: Array<{ name: string }>;
        messages: Array<{ content: unknown }>;
      };
      const blocks = request.messages.flatMap((m) => (Array.isArray(m.content) ? m.content : []));
      const answered = blocks.filter((b: { type?: string }) => b.type === 'tool_result') as ToolResult[];
      if (answered.length > 0 && results.length === 0) results.push(...answered);
      const callsBash = (request.tools ?? []).some((t) => t.name === 'Bash') && answered.length === 0;
      const content = callsBash
        ? [
            {
              type: 'tool_use',
              id: `toolu_${++turn}`,
              name: 'Bash',
              input: { command, description: 'run it' },
            },
          ]
        : [{ type: 'text', text: 'done' }];
      const message = {
        id: `msg_${++turn}`,
        type: 'message',
        role: 'assistant',
        model: 'scripted',
        content,
        stop_reason: callsBash ? 'tool_use' : 'end_turn',
        stop_sequence: null,
        usage: { input_tokens: 10, output_tokens: 5 },
      };
      if (!request.stream) {
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(message));
        return;
      }
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const send = (type: string, data: object) =>
        res.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
      send('message_start', { message: { ...message, content: [], stop_reason: null } });
      content.forEach((block, index) => {
        if (block.type === 'text') {
          send('content_block_start', { index, content_block: { type: 'text', text: '' } });
          send('content_block_delta', { index, delta: { type: 'text_delta', text: 'done' } });
        } else {
          send('content_block_start', { index, content_block: { ...block, input: {} } });
          send('content_block_delta', {
            index,
            delta: {
              type: 'input_json_delta',
              partial_json: JSON.stringify((block as { input: object }).input),
            },
          });
        }
        send('content_block_stop', { index });
      });
      send('message_delta', {
        delta: { stop_reason: message.stop_reason, stop_sequence: null },
        usage: { output_tokens: 5 },
      });
      send('message_stop', {});
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, results, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

const dirs: string[] = [];

/**
 * One `claude -p` session in a fresh project whose model runs `command` with Bash: what Claude
 * Code answered the model, and the project's files afterwards.
 */
async function session(
  service: RunningService,
  command: string,
  options: { hookArgs?: string[]; claudeArgs?: string[] } = {},
): Promise<{ result: ToolResult | undefined; files: string[] }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'arbiter-claude-'));
  dirs.push(dir);
  const project = path.join(dir, 'project');
  fs.mkdirSync(path.join(project, '.claude'), { recursive: true });
  fs.mkdirSync(path.join(dir, 'home'));
  const hook = [process.execPath, BIN, 'hook', 'claude-code', ...(options.hookArgs ?? [])].join(' ');
  fs.writeFileSync(
    path.join(project, '.claude', 'settings.json'),
    JSON.stringify({
      env: service.env,
      hooks: {
        PreToolUse: [
          {
            matcher: 'Bash|Read|Write|Edit|MultiEdit|WebFetch',
            hooks: [{ type: 'command', command: `${hook} || exit 2`, timeout: 60 }],
          },
        ],
      },
    }),
  );
  const model = await scriptedModel(command);
  try {
    await new Promise<void>((resolve, reject) => {
      const child = spawn(
        CLAUDE!,
        ['-p', 'run the command', '--output-format', 'json', ...(options.claudeArgs ?? [])],
        {
          cwd: project,
          env: {
            PATH: process.env.PATH ?? '',
            HOME: path.join(dir, 'home'),
            ANTHROPIC_BASE_URL: model.url,
            ANTHROPIC_API_KEY: 'sk-ant-scripted',
            CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
            DISABLE_TELEMETRY: '1',
            DISABLE_AUTOUPDATER: '1',
          },
          stdio: ['ignore', 'ignore', 'pipe'],
        },
      );
      let stderr = '';
      child.stderr.on('data', (d) => {
        stderr += d;
      });
      child.on('error', reject);
      child.on('exit', (code) =>
        code === 0 ? resolve() : reject(new Error(`claude exited ${code}: ${stderr}`)),
      );
    });
  } finally {
    await model.close();
  }
  return { result: model.results[0], files: fs.readdirSync(project).filter((f) => f !== '.claude') };
}

describe.runIf(CLAUDE)('arbiter hook claude-code inside the real Claude Code', { timeout: 180_000 }, () => {
  let service: RunningService;
  beforeAll(async () => {
    service = await startService();
  });
  afterAll(async () => {
    await service.stop();
    for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('deny: rm -rf / never runs; the model reads why', async () => {
    const { result } = await session(service, 'rm -rf /');
    expect(result?.is_error).toBe(true);
    expect(String(result?.content)).toContain('Arbiter on shell.exec: DEST_MUTATION: recursive rm of /');
  });

  it("ask: a program Arbiter does not know is put to the person, even past the user's allow rule", async () => {
    // `claude -p` has nobody to ask: the question ends as a refusal that carries the reason.
    for (const claudeArgs of [[], ['--allowedTools', 'Bash(frobctl:*)']]) {
      const { result } = await session(service, 'frobctl --purge-all', { claudeArgs });
      expect(result?.is_error).toBe(true);
      expect(String(result?.content)).toContain(
        'UNRECOGNISED: Arbiter does not know what this does: unknown program "frobctl"; it may execute frobctl',
      );
    }
  });

  it("no decision: a safe, recognised call is left to Claude Code's own permission rules", async () => {
    const [unlisted, allowed] = await Promise.all([
      session(service, 'touch notes.txt'),
      session(service, 'touch notes.txt', { claudeArgs: ['--allowedTools', 'Bash(touch:*)'] }),
    ]);
    // Claude Code asks before a command writes files (nobody answers in -p); its allow rule lets it run.
    expect(unlisted.result?.is_error).toBe(true);
    expect(String(unlisted.result?.content)).not.toContain('Arbiter');
    expect(unlisted.files).toEqual([]);
    expect(allowed.result?.is_error).toBeFalsy();
    expect(allowed.files).toEqual(['notes.txt']);
  });

  it("--allow-safe: allow skips Claude Code's prompt, but not the user's deny rule", async () => {
    const [allowed, denied] = await Promise.all([
      session(service, 'touch notes.txt', { hookArgs: ['--allow-safe'] }),
      session(service, 'touch notes.txt', {
        hookArgs: ['--allow-safe'],
        claudeArgs: ['--disallowedTools', 'Bash(touch:*)'],
      }),
    ]);
    expect(allowed.result?.is_error).toBeFalsy();
    expect(allowed.files).toEqual(['notes.txt']);
    expect(denied.result?.is_error).toBe(true);
    expect(denied.files).toEqual([]);
  });
});
