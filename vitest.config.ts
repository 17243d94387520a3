import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    exclude: ['test/e2e/**', 'node_modules/**'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // Pinned (issue #15): an unhandled rejection or uncaught exception anywhere in a test file fails the run,
    // even when every assertion passed. Production entry points log such strays (src/node/last-resort.ts);
    // tests must never install that handler, so none can hide here.
    dangerouslyIgnoreUnhandledErrors: false,
  },
});
