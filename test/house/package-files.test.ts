/**
 * What the packaged app contains (issue #20): `npm run build` builds every bundle the app runs — the CLI,
 * renderer, Electron main and preload, and the browser SDK that `labeldesk serve` publishes under /sdk/ — and
 * electron-builder's `files` take each of them and every asset read at run time (templates, fonts, images,
 * schema, the SDK pages). Matched as electron-builder matches (globs, `!` excludes), without packaging.
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { execFileSync } from 'node:child_process';
import yaml from 'js-yaml';
import { minimatch } from 'minimatch';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
const config = yaml.load(readFileSync(join(ROOT, 'electron-builder.yml'), 'utf8')) as { files: string[] };
const scripts = (
  JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }
).scripts;

/** Whether electron-builder's `files` take `path`: a pattern includes it and no later `!pattern` excludes it. */
function packaged(path: string): boolean {
  let taken = false;
  for (const pattern of config.files) {
    if (pattern.startsWith('!')) {
      if (minimatch(path, pattern.slice(1), { dot: true })) taken = false;
    } else if (minimatch(path, pattern, { dot: true })) taken = true;
  }
  return taken;
}

/** The bundles each build script writes by default (the scripts' own defaults, read from them). */
const BUNDLES: Record<string, string[]> = {
  'build:cli': ['dist/labeldesk.mjs', 'dist/render-worker.mjs'],
  'build:renderer': ['dist/renderer/index.html'],
  'build:electron': ['dist/electron/main.mjs', 'dist/electron/preload.cjs'],
  'build:sdk': ['dist/sdk/labeldesk-sdk.js'],
};

describe('the packaged app', () => {
  it('`npm run build` runs every build script', () => {
    const steps = scripts.build?.split('&&').map((s) => s.trim().replace(/^npm run /, '')) ?? [];
    expect(steps.sort()).toEqual(Object.keys(BUNDLES).sort());
  });

  it.each(Object.entries(BUNDLES))('takes what %s writes', (_script, outputs) => {
    for (const output of outputs) expect(packaged(output), output).toBe(true);
  });

  it('takes every asset the app reads at run time, and not the icon sources', () => {
    const assets = execFileSync('git', ['ls-files', 'assets'], { cwd: ROOT, encoding: 'utf8' })
      .split('\n')
      .filter(Boolean);
    const runtime = assets.filter((f) => !f.startsWith('assets/icons/') || f === 'assets/icons/icon.png');
    expect(runtime.filter((f) => f.startsWith('assets/sdk/')).length).toBeGreaterThan(0);
    for (const file of runtime) expect(packaged(file), file).toBe(true);
    expect(packaged('dist/sdk/labeldesk-sdk.js.map')).toBe(false);
  });
});
