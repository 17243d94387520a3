/** Test support: decode barcodes in an image file with the real zbarimg. */
import { execFileSync } from 'node:child_process';

export interface Decoded {
  symbology: string;
  value: string;
}

/**
 * Every symbol zbarimg finds in the image (`-q`, raw output per symbol with its type). UPC-A is off by default
 * in zbar (it reports EAN-13 with a leading 0), so it is enabled.
 */
export function zbarDecode(imagePath: string): Decoded[] {
  let out: string;
  try {
    out = execFileSync('zbarimg', ['-q', '-Supca.enable=1', '--xml', imagePath], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
  } catch (e) {
    // zbarimg exits 4 when no symbol was found.
    const err = e as { status?: number; stdout?: string };
    if (err.status === 4) return [];
    throw e;
  }
  const symbols: Decoded[] = [];
  // zbarimg writes data with control characters (GS1's FNC1 as GS) as base64 and says so in `format`.
  const re =
    /<symbol type=['"]([^'"]+)['"][^>]*>[\s\S]*?<data(?: format=['"]([^'"]*)['"])?[^>]*><!\[CDATA\[([\s\S]*?)\]\]><\/data>/g;
  for (let m = re.exec(out); m; m = re.exec(out)) {
    const raw = m[3] ?? '';
    const value = m[2] === 'base64' ? Buffer.from(raw, 'base64').toString('latin1') : raw;
    symbols.push({ symbology: m[1] ?? '', value });
  }
  return symbols;
}

/** Just the decoded values, sorted, for set comparisons. */
export function zbarValues(imagePath: string): string[] {
  return zbarDecode(imagePath)
    .map((s) => s.value)
    .sort();
}
