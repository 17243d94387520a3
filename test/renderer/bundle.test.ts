/**
 * The renderer bundle never holds a secret: built with the hosted API's secret in the environment (where a
 * careless `define`, `envPrefix` or `process.env` read would inline it), no emitted file contains it, and
 * nothing of Node, Electron or the engine's server side is bundled.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { build } from 'vite';

const SECRET = 'sk-bundle-canary-9c1e77d2';
const out = mkdtempSync(join(tmpdir(), 'ld-renderer-'));

afterAll(() => rmSync(out, { recursive: true, force: true }));

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : [path];
  });
}

describe('renderer bundle', () => {
  it(
    'contains no secret from the environment and no Node or Electron code',
    { timeout: 180_000 },
    async () => {
      const saved = { ...process.env };
      Object.assign(process.env, {
        LABELDESK_API_SECRET: SECRET,
        VITE_LABELDESK_API_SECRET: SECRET,
        VITE_API_SECRET: SECRET,
      });
      try {
        await build({
          configFile: resolve('renderer/vite.config.ts'),
          logLevel: 'silent',
          build: { outDir: out, emptyOutDir: true },
        });
      } finally {
        process.env = saved;
      }
      const emitted = files(out);
      expect(emitted.some((f) => f.endsWith('index.html'))).toBe(true);
      for (const file of emitted) {
        const text = readFileSync(file, 'utf8');
        expect(text, file).not.toContain(SECRET);
        expect(text, file).not.toMatch(/require\(["']electron["']\)|from ["']node:/);
        expect(text, file).not.toContain('safeStorage');
      }
    },
  );
});
