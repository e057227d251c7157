import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts', 'packages/*/test/**/*.test.ts'],
    pool: 'forks',
    setupFiles: ['test/support/fast-check-seed.ts'],
    globalSetup: ['test/support/fast-check-seed.global.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    reporters: ['default'],
  },
});
