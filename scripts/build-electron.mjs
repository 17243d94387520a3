// Bundles the Electron main process (dist/electron/main.mjs, ESM) and its preload (dist/electron/preload.cjs:
// a sandboxed preload must be one CommonJS file that requires nothing but `electron`).
// Dependencies of main stay external (resolved from node_modules, native modules rebuilt by electron-builder).
import { build } from 'esbuild';

const common = { bundle: true, platform: 'node', target: 'node22', sourcemap: 'linked', logLevel: 'warning' };

await build({
  ...common,
  entryPoints: ['main/electron/main.ts'],
  outfile: 'dist/electron/main.mjs',
  format: 'esm',
  packages: 'external',
});

await build({
  ...common,
  entryPoints: ['main/electron/preload.ts'],
  outfile: 'dist/electron/preload.cjs',
  format: 'cjs',
  external: ['electron'],
});
