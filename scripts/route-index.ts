// The route index of docs/development.md: every HTTP route (method, path) and the source file that
// registers it, read from the app's own route table as it is built, so that it cannot drift
// from the code. Each route's file is the first frame of the call that registered it outside
// Fastify itself.
//   npm run docs:routes            rewrite the table in docs/development.md
//   npm run docs:routes -- --check exit 1 when the table is stale
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const DEVELOPMENT_DOC = path.join(root, 'docs/development.md');
const START = '<!-- route-index:start (npm run docs:routes) -->';
const END = '<!-- route-index:end -->';

export interface RouteEntry {
  method: string;
  path: string;
  file: string;
}

/** Frames of the registering call that belong to the router, not to the code that asked. */
const FRAMEWORK = /node_modules\/(fastify|avvio|find-my-way)\/|node:internal|scripts\/route-index\.ts/;

/** Where a frame's file lives: a path from the repository root, or the npm package. */
function fileOf(frame: string): string | undefined {
  const m = /(?:file:\/\/)?(\/[^\s():]+):\d+:\d+\)?$/.exec(frame);
  if (!m) return undefined;
  const file = m[1]!;
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(file);
  if (pkg) return pkg[1];
  return path.relative(root, file);
}

function registeringFile(stack: string): string {
  for (const frame of stack.split('\n').slice(1)) {
    if (FRAMEWORK.test(frame)) continue;
    const file = fileOf(frame.trim());
    if (file !== undefined) return file;
  }
  return 'unknown';
}

/**
 * Builds the app with every optional route switched on (the operator API, Stripe's webhook) on a
 * throwaway SQLite folder, and records each route as Fastify adds it.
 */
export async function collectRoutes(): Promise<RouteEntry[]> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'arbiter-routes-'));
  const routes: RouteEntry[] = [];
  const previousLimit = Error.stackTraceLimit;
  Error.stackTraceLimit = 100;
  const onInit = (message: unknown) => {
    const { fastify } = message as { fastify: FastifyInstance };
    fastify.addHook('onRoute', (route) => {
      const file = registeringFile(new Error().stack ?? '');
      const methods = Array.isArray(route.method) ? route.method : [route.method];
      // Fastify adds a HEAD beside every GET by itself.
      for (const method of methods) if (method !== 'HEAD') routes.push({ method, path: route.url, file });
    });
  };
  subscribe('fastify.initialization', onInit);
  try {
    const [{ loadConfig }, { createContainer }, { buildApp }, { createLogger }] = await Promise.all([
      import('../src/config.ts'),
      import('../src/container.ts'),
      import('../src/app.ts'),
      import('../src/logger.ts'),
    ]);
    const config = loadConfig({
      ARBITER_DATA_DIR: dir,
      ARBITER_LOG_LEVEL: 'silent',
      ARBITER_EMBEDDER: 'hash',
      ARBITER_ADMIN_TOKEN: 'route-index-admin-token',
      ARBITER_BILLING: 'stripe',
      STRIPE_SECRET_KEY: 'sk_test_route_index',
      STRIPE_WEBHOOK_SECRET: 'whsec_route_index',
    });
    const container = await createContainer(config, createLogger(config.logLevel));
    const app = await buildApp(container);
    await app.close();
    await container.close();
  } finally {
    unsubscribe('fastify.initialization', onInit);
    Error.stackTraceLimit = previousLimit;
    fs.rmSync(dir, { recursive: true, force: true });
  }
  return routes.sort((a, b) => a.path.localeCompare(b.path) || a.method.localeCompare(b.method));
}

export function renderIndex(routes: readonly RouteEntry[]): string {
  const rows = routes.map((r) => `| ${r.method} | \`${r.path}\` | \`${r.file}\` |`);
  return [START, '', '| Method | Path | Registered in |', '|---|---|---|', ...rows, '', END].join('\n');
}

/** The doc with its route index replaced by `index`. */
export function withIndex(doc: string, index: string): string {
  const start = doc.indexOf(START);
  const end = doc.indexOf(END);
  if (start === -1 || end === -1) throw new Error(`${DEVELOPMENT_DOC} has no route-index markers`);
  return doc.slice(0, start) + index + doc.slice(end + END.length);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const doc = fs.readFileSync(DEVELOPMENT_DOC, 'utf8');
  const updated = withIndex(doc, renderIndex(await collectRoutes()));
  if (process.argv.includes('--check')) {
    if (updated !== doc) {
      console.error('docs/development.md: the route index is stale; run `npm run docs:routes`');
      process.exit(1);
    }
  } else if (updated !== doc) {
    fs.writeFileSync(DEVELOPMENT_DOC, updated);
    console.log('docs/development.md: route index updated');
  }
  process.exit(0);
}
