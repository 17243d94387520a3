/**
 * Node-only: the browser SDK of route 02 (spec §4.2) as `labeldesk serve` publishes it under `/sdk/`:
 *  - `labeldesk-sdk.js`: the bundle built by scripts/build-sdk.mjs (dist/sdk/, run by `npm run prepare`);
 *  - `print-label.html`, `demo.html`: assets/sdk/;
 *  - `fonts/<file>.ttf`: the bundled fonts, which the SDK lays text out with, exactly as the server does.
 * Only these names are served (no path from the request reaches the file system).
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { BUNDLED_FONT_FILES } from '../../layout/fonts';
import { assetsDir, fontsDir, packageRoot } from '../assets';

export const SDK_BUNDLE_NAME = 'labeldesk-sdk.js';

/** Where the SDK bundle is built by default. */
export const defaultSdkBundle = (): string => join(packageRoot(), 'dist', 'sdk', SDK_BUNDLE_NAME);

export interface SdkAsset {
  body: Buffer;
  contentType: string;
}

const PAGES: Record<string, string> = { 'print-label.html': 'print-label.html', 'demo.html': 'demo.html' };
const FONT_FILES = new Set(Object.values(BUNDLED_FONT_FILES));

/** The asset behind `/sdk/<name>`, or undefined. Throws nothing for a missing bundle: it is just not there. */
export async function readSdkAsset(name: string, sdkBundle: string): Promise<SdkAsset | undefined> {
  let file: string | undefined;
  let contentType = '';
  if (name === SDK_BUNDLE_NAME) {
    file = sdkBundle;
    contentType = 'text/javascript; charset=utf-8';
  } else if (name === `${SDK_BUNDLE_NAME}.map`) {
    file = `${sdkBundle}.map`;
    contentType = 'application/json; charset=utf-8';
  } else if (PAGES[name]) {
    file = join(assetsDir(), 'sdk', PAGES[name]);
    contentType = 'text/html; charset=utf-8';
  } else if (name.startsWith('fonts/') && FONT_FILES.has(name.slice('fonts/'.length))) {
    file = join(fontsDir(), name.slice('fonts/'.length));
    contentType = 'font/ttf';
  }
  if (!file) return undefined;
  try {
    return { body: await readFile(file), contentType };
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw e;
  }
}
