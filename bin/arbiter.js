#!/usr/bin/env node
// Runs the compiled build in dist/ (`npm run build`; `npm install` and `npm start` build it).
import { existsSync } from 'node:fs';

const cli = new URL('../dist/cli.js', import.meta.url);
if (!existsSync(cli)) {
  console.error('arbiter: dist/ is not built; run `npm run build` (npm install and npm start build it)');
  process.exit(1);
}
await import(cli.href);
