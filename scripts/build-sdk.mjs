// Bundles the browser SDK of route 02 into dist/sdk/labeldesk-sdk.js (run by `npm ci` through `prepare`), an
// IIFE defining the global `LabelDesk`. The engine's layout and SVG renderer go in whole (fontkit, bwip-js
// generic, bidi-js), so the browser draws exactly what the server would.
// Usage: node scripts/build-sdk.mjs [OUTFILE]
import { build } from 'esbuild';

export async function buildSdk(outfile = 'dist/sdk/labeldesk-sdk.js') {
  await build({
    entryPoints: [new URL('../src/sdk/labeldesk-sdk.ts', import.meta.url).pathname],
    outfile,
    bundle: true,
    platform: 'browser',
    format: 'iife',
    globalName: 'LabelDesk',
    target: 'es2020',
    minify: true,
    sourcemap: 'linked',
    legalComments: 'linked',
    define: { 'process.env.NODE_ENV': '"production"' },
    logLevel: 'warning',
  });
}

if (import.meta.url === `file://${process.argv[1]}`) await buildSdk(process.argv[2]);
