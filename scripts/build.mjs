#!/usr/bin/env node
// Compiles src/ to dist/ with tsc and copies what the code reads beside itself (JSON data, rule
// files, the embedding worker, stylesheets). Plain JavaScript, so that it runs before anything
// is built. `--if-stale` does nothing when dist/ is newer than every source.
//   node scripts/build.mjs [--if-stale | --check]
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const src = path.join(root, 'src');
const dist = path.join(root, 'dist');
const stamp = path.join(dist, '.build-stamp');
/** Loader shims that run the TypeScript sources in a worker; compiled code starts the compiled worker. */
const SOURCE_ONLY = /(^|-)entry\.js$/;

function* files(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* files(full);
    else yield full;
  }
}

function newestInput() {
  let newest = 0;
  for (const file of files(src)) newest = Math.max(newest, statSync(file).mtimeMs);
  for (const file of ['package.json', 'tsconfig.json', 'tsconfig.build.json']) {
    newest = Math.max(newest, statSync(path.join(root, file)).mtimeMs);
  }
  return newest;
}

const ifStale = process.argv.includes('--if-stale');
const fresh = () => existsSync(stamp) && statSync(stamp).mtimeMs >= newestInput();
if (ifStale && fresh()) process.exit(0);
// `--check` builds nothing: it says whether dist/ is current (tests that run the CLI ask it).
if (process.argv.includes('--check')) {
  if (fresh()) process.exit(0);
  console.error('build: dist/ is older than src/; run `npm run build` (npm test and .ci/run do)');
  process.exit(1);
}

// One build at a time (test files that start the CLI may ask for it at once): a lock directory,
// taken over when its holder left it more than two minutes ago.
const lock = path.join(root, '.build-lock');
for (;;) {
  try {
    mkdirSync(lock);
    break;
  } catch (err) {
    if (err.code !== 'EEXIST') throw err;
    if (Date.now() - statSync(lock, { throwIfNoEntry: false })?.mtimeMs > 120_000)
      rmSync(lock, { recursive: true, force: true });
    else Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 200);
  }
}
process.on('exit', () => rmSync(lock, { recursive: true, force: true }));
if (ifStale && fresh()) process.exit(0);

const started = performance.now();
const tsc = spawnSync(
  process.execPath,
  [path.join(root, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.build.json'],
  {
    cwd: root,
    stdio: 'inherit',
  },
);
if (tsc.status !== 0) {
  console.error('build: tsc failed; dist/ was not updated');
  process.exit(tsc.status ?? 1);
}
let copied = 0;
for (const file of files(src)) {
  const name = path.basename(file);
  if (name.endsWith('.ts') || SOURCE_ONLY.test(name)) continue;
  const target = path.join(dist, path.relative(src, file));
  mkdirSync(path.dirname(target), { recursive: true });
  copyFileSync(file, target);
  copied++;
}
// Compiled files of sources that no longer exist would otherwise linger.
for (const file of files(dist)) {
  const relative = path.relative(dist, file);
  if (!relative.endsWith('.js') && !relative.endsWith('.js.map')) continue;
  const base = relative.replace(/\.js(\.map)?$/, '');
  const candidates = [`${base}.ts`, `${base}.js`, `${base}.mjs`].map((p) => path.join(src, p));
  if (!candidates.some((c) => existsSync(c))) rmSync(file);
}
writeFileSync(stamp, `${new Date().toISOString()}\n`);
console.log(
  `build: dist/ compiled and ${copied} data files copied in ${((performance.now() - started) / 1000).toFixed(1)} s`,
);
