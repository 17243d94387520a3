/**
 * Node-only: where the app's bundled assets live. Works from the sources (src/node), from the bundled CLI
 * (dist/) and from a packaged app, by walking up to the package.json named "labeldesk".
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

let cachedRoot: string | undefined;

export function packageRoot(): string {
  if (cachedRoot) return cachedRoot;
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const candidate = join(dir, 'package.json');
    if (existsSync(candidate)) {
      try {
        const pkg = JSON.parse(readFileSync(candidate, 'utf8')) as { name?: string };
        if (pkg.name === 'labeldesk') return (cachedRoot = dir);
      } catch {
        // not ours; keep walking
      }
    }
    const parent = dirname(dir);
    if (parent === dir) throw new Error('cannot find the labeldesk package root (assets/)');
    dir = parent;
  }
}

export const assetsDir = (): string => join(packageRoot(), 'assets');
export const bundledTemplatesDir = (): string => join(assetsDir(), 'templates');
export const fontsDir = (): string => join(assetsDir(), 'fonts');
