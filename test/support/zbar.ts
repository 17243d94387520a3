/** Test support: decode barcodes in an image file with the real zbarimg. */
import { execFile, execFileSync } from 'node:child_process';

export interface Decoded {
  symbology: string;
  value: string;
  /** zbar's symbology modifiers, e.g. `GS1` for a Code 128 that starts with FNC1 (GS1-128). */
  modifiers: string[];
}

export interface ZbarOptions {
  /** Read EAN-2/EAN-5 add-ons (off by default in zbar): reported as symbols of their own, EAN-2 or EAN-5. */
  addons?: boolean;
}

/** zbarimg's decoder settings: UPC-A on (zbar reports EAN-13 with a leading 0 otherwise), add-ons if asked. */
function zbarConfig(options: ZbarOptions): string[] {
  return ['-Supca.enable=1', ...(options.addons ? ['-Sean2.enable=1', '-Sean5.enable=1'] : [])];
}

/**
 * Every symbol zbarimg finds in the image (`-q`, raw output per symbol with its type). UPC-A is off by default
 * in zbar (it reports EAN-13 with a leading 0), so it is enabled.
 */
export function zbarDecode(imagePath: string, options: ZbarOptions = {}): Decoded[] {
  let out: string;
  try {
    out = execFileSync('zbarimg', ['-q', ...zbarConfig(options), '--xml', imagePath], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
  } catch (e) {
    // zbarimg exits 4 when no symbol was found.
    const err = e as { status?: number; stdout?: string };
    if (err.status === 4) return [];
    throw e;
  }
  return parseZbarXml(out);
}

/** Just the decoded values, sorted, for set comparisons. */
export function zbarValues(imagePath: string, options: ZbarOptions = {}): string[] {
  return zbarDecode(imagePath, options)
    .map((s) => s.value)
    .sort();
}

/** zbarDecode without blocking the test process, so several images decode in parallel (Promise.all). */
export function zbarDecodeAsync(imagePath: string, options: ZbarOptions = {}): Promise<Decoded[]> {
  return new Promise((resolve, reject) => {
    execFile(
      'zbarimg',
      ['-q', ...zbarConfig(options), '--xml', imagePath],
      { encoding: 'utf8', maxBuffer: 16 << 20 },
      (error, stdout) => {
        // zbarimg exits 4 when no symbol was found.
        if (error && error.code !== 4) reject(error);
        else resolve(error ? [] : parseZbarXml(stdout));
      },
    );
  });
}

function parseZbarXml(out: string): Decoded[] {
  const symbols: Decoded[] = [];
  // zbarimg writes data with control characters (GS1's FNC1 as GS) as base64 and says so in `format`.
  const re =
    /<symbol type=['"]([^'"]+)['"]([^>]*)>[\s\S]*?<data(?: format=['"]([^'"]*)['"])?[^>]*><!\[CDATA\[([\s\S]*?)\]\]><\/data>/g;
  for (let m = re.exec(out); m; m = re.exec(out)) {
    const raw = m[4] ?? '';
    const value = m[3] === 'base64' ? Buffer.from(raw, 'base64').toString('latin1') : raw;
    const modifiers =
      /\smodifiers=['"]([^'"]*)['"]/
        .exec(m[2] ?? '')?.[1]
        ?.split(',')
        .filter(Boolean) ?? [];
    symbols.push({ symbology: m[1] ?? '', value, modifiers });
  }
  return symbols;
}

/**
 * zbarDecode of several images in one zbarimg run (one process start instead of one per image): the symbols
 * found in each file, keyed by its path. Paths must not contain quotes (zbarimg echoes them in XML).
 */
export function zbarDecodeFilesAsync(
  imagePaths: readonly string[],
  options: ZbarOptions = {},
): Promise<Map<string, Decoded[]>> {
  return new Promise((resolve, reject) => {
    execFile(
      'zbarimg',
      ['-q', ...zbarConfig(options), '--xml', ...imagePaths],
      { encoding: 'utf8', maxBuffer: 16 << 20 },
      (error, stdout) => {
        // zbarimg exits 4 when no symbol was found in any image.
        if (error && error.code !== 4) return reject(error);
        const found = new Map<string, Decoded[]>(imagePaths.map((p) => [p, []]));
        for (const m of stdout.matchAll(/<source href=['"]([^'"]*)['"]>([\s\S]*?)<\/source>/g)) {
          const path = m[1] ?? '';
          if (!found.has(path))
            return reject(new Error(`zbarimg reported an image it was not given: ${path}`));
          found.set(path, parseZbarXml(m[2] ?? ''));
        }
        resolve(found);
      },
    );
  });
}
