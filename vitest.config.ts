import { defineConfig } from 'vitest/config';

/**
 * The serve tests that speak only HTTP to the server also run against a site database (issue #24): the
 * `site-postgres` project starts one private PostgreSQL (test/support/postgres-global.ts) and each harness of
 * test/node/serve/harness.ts makes its own database in it. Every other test runs once, in `unit`.
 */
const ON_BOTH_STORES = [
  'test/node/serve/contract.test.ts',
  'test/node/serve/export-svg.test.ts',
  'test/node/serve/identical-copies.test.ts',
  'test/node/serve/logs.test.ts',
  'test/node/serve/gs1-values.test.ts',
  'test/node/serve/fuzz.test.ts',
  'test/node/serve/budgets.test.ts',
  'test/node/serve/auth-flood.test.ts',
  'test/node/serve/print-relay.test.ts',
  'test/node/serve/hosted-client.test.ts',
];

export default defineConfig({
  test: {
    exclude: ['test/e2e/**', 'node_modules/**'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // Pinned (issue #15): an unhandled rejection or uncaught exception anywhere in a test file fails the run,
    // even when every assertion passed. Production entry points log such strays (src/node/last-resort.ts);
    // tests must never install that handler, so none can hide here.
    dangerouslyIgnoreUnhandledErrors: false,
    projects: [
      { extends: true, test: { name: 'unit', include: ['test/**/*.test.ts'] } },
      {
        extends: true,
        test: {
          name: 'site-postgres',
          include: ON_BOTH_STORES,
          globalSetup: ['test/support/postgres-global.ts'],
        },
      },
    ],
  },
});
