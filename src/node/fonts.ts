/** Node-only: loads the bundled fonts and the fallback chain from assets/fonts into a FontSet (once per process). */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { BUNDLED_FONT_FILES, createFontSet, FALLBACK_FONT_FILES, type FontSet } from '../layout/fonts';
import { fontsDir } from './assets';

let cached: FontSet | undefined;

export function loadBundledFonts(): FontSet {
  if (cached) return cached;
  const files: Record<string, Uint8Array> = {};
  for (const [key, file] of Object.entries({ ...BUNDLED_FONT_FILES, ...FALLBACK_FONT_FILES })) {
    files[key] = new Uint8Array(readFileSync(join(fontsDir(), file)));
  }
  return (cached = createFontSet(files));
}
