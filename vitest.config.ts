import { defineConfig, type TestProjectInlineConfiguration } from 'vitest/config';

/**
 * Three tiers, one command each; `npm test` runs them all.
 * - unit: the tests beside the code (analyzers, parsers, pure functions), no server, no database
 *   to start: `npm run test:unit`, the inner loop.
 * - http: the app through `inject()` on every database, contract and security suites.
 * - slow: real processes, a browser, several instances, outages and fuzzing. Process tests run the
 *   compiled CLI: `npm run build` first (`npm test` and `.ci/run` do).
 */
const SLOW = [
  'test/process.test.ts',
  'test/cli-*.test.ts',
  'test/single-server.test.ts',
  'test/multi-instance*.test.ts',
  'test/writer-thread-crash.test.ts',
  'test/fuzz.test.ts',
  'test/faults/**/*.test.ts',
  'test/ledger/process.test.ts',
  'test/billing/local-provider-notice.test.ts',
  'test/console/console-browser.test.ts',
  'test/integrations/**/*.test.ts',
];

/**
 * Tests beside the code that still start an app or a database (the SDK and adapters against a
 * real server, the vector index on a real store): the http tier's, not the inner loop's.
 */
const BESIDE_BUT_SERVED = [
  'packages/*/test/**/*.test.ts',
  'src/domains/ledger/storage/knn-thread.test.ts',
  'src/domains/ledger/storage/sparse-scan.test.ts',
];

/** Every tier keeps the fixed, printed fast-check seed. */
const shared = {
  pool: 'forks',
  setupFiles: ['test/support/fast-check-seed.ts'],
  globalSetup: ['test/support/fast-check-seed.global.ts'],
  testTimeout: 30_000,
  hookTimeout: 60_000,
} as const;

const project = (
  name: string,
  include: string[],
  exclude: string[] = [],
  options: { isolate?: boolean } = {},
): TestProjectInlineConfiguration => ({
  extends: true,
  test: { ...shared, ...options, name, include, exclude: ['**/node_modules/**', ...exclude] },
});

export default defineConfig({
  test: {
    ...shared,
    reporters: ['default'],
    projects: [
      // Pure code shares one module graph per worker: loading the verdict engine once per worker,
      // not once per file, is what keeps the inner loop under a minute.
      project('unit', ['src/**/*.test.ts'], BESIDE_BUT_SERVED, { isolate: false }),
      project('http', ['test/**/*.test.ts', ...BESIDE_BUT_SERVED], SLOW),
      project('slow', SLOW),
    ],
  },
});
