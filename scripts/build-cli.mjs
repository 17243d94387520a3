// Bundles the `labeldesk` CLI into dist/labeldesk.mjs (run by `npm ci` through `prepare`).
// Dependencies stay external: they are resolved from node_modules at run time.
// Usage: node scripts/build-cli.mjs [OUTFILE]
import { build } from 'esbuild';

await build({
  entryPoints: ['src/cli/labeldesk.ts'],
  outfile: process.argv[2] ?? 'dist/labeldesk.mjs',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  banner: { js: '#!/usr/bin/env node' },
  sourcemap: 'linked',
  logLevel: 'warning',
});
