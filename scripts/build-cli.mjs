// Bundles the `labeldesk` CLI into dist/labeldesk.mjs (run by `npm ci` through `prepare`), and the render worker
// of `labeldesk serve` into render-worker.mjs beside it (src/node/serve/render-pool.ts looks for it there).
// Dependencies stay external: they are resolved from node_modules at run time.
// Usage: node scripts/build-cli.mjs [OUTFILE]
import { dirname, join } from 'node:path';
import { build } from 'esbuild';

const outfile = process.argv[2] ?? 'dist/labeldesk.mjs';
const common = {
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  sourcemap: 'linked',
  logLevel: 'warning',
};

await Promise.all([
  build({
    ...common,
    entryPoints: ['src/cli/labeldesk.ts'],
    outfile,
    banner: { js: '#!/usr/bin/env node' },
  }),
  build({
    ...common,
    entryPoints: ['src/node/serve/render-worker.ts'],
    outfile: join(dirname(outfile), 'render-worker.mjs'),
  }),
]);
