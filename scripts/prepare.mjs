#!/usr/bin/env node
// `npm install`'s prepare step: builds the workspace packages the server depends on (the SDK
// first, then its adapters), then the server. Plain JavaScript, so that it runs before anything
// is built. Run by `npm install -g .` or `npm link`, npm passes `npm_config_global` down, and a
// nested `npm run -w` refuses workspaces in global mode: the builds here are the checkout's own,
// so they run without it.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const env = { ...process.env };
for (const name of Object.keys(env)) if (name.toLowerCase() === 'npm_config_global') delete env[name];
const npm = process.env.npm_execpath;

const steps = [
  ['run', 'build', '-w', 'packages/sdk'],
  ['run', 'build', '-w', 'packages/ai-sdk', '-w', 'packages/openai-agents', '-w', 'packages/langchain'],
  ['run', 'build'],
];
for (const args of steps) {
  // npm_execpath is npm's own CLI script when npm runs us; otherwise the npm on PATH.
  const run = npm
    ? spawnSync(process.execPath, [npm, ...args], { cwd: root, env, stdio: 'inherit' })
    : spawnSync('npm', args, { cwd: root, env, stdio: 'inherit', shell: process.platform === 'win32' });
  if (run.status !== 0) process.exit(run.status ?? 1);
}
