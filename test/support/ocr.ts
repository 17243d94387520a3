/**
 * Test support: read printed text back with Tesseract (Debian's tesseract-ocr and its language packs, installed
 * by .ci/run), and compare it with what was meant to print, tolerantly: OCR misreads a character here and there,
 * a missing font draws none of them.
 */
import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { GreyImage } from './grey-image';
import { writeGreyPgm } from './pgm';

const run = promisify(execFile);

/**
 * The text Tesseract reads in each image (`lang`: its traineddata name, e.g. "jpn", "chi_sim"), one process for
 * all of them. Page segmentation 6: one uniform block of text, which a label's text element is.
 */
export async function ocrImages(
  images: readonly GreyImage[],
  lang: string,
  dir: string,
  name: string,
): Promise<string[]> {
  const paths = images.map((img, i) => {
    const path = join(dir, `${name}-${i}.pgm`);
    writeGreyPgm(path, img.width, img.height, img.grey);
    return path;
  });
  const list = join(dir, `${name}.txt`);
  writeFileSync(list, paths.join('\n') + '\n');
  const { stdout } = await run('tesseract', [list, 'stdout', '-l', lang, '--psm', '6'], {
    maxBuffer: 16 << 20,
  });
  // Tesseract ends every page with a form feed.
  const pages = stdout.split('\f');
  return images.map((_, i) => pages[i] ?? '');
}

/**
 * Text as compared: NFKC, lower case, without white space and format characters (bidi marks, ZWJ and ZWNJ,
 * which OCR and PDF extraction add or drop freely), as code points.
 */
export function comparable(text: string): string[] {
  return [
    ...text
      .normalize('NFKC')
      .toLowerCase()
      .replace(/[\s\p{Cf}]/gu, ''),
  ];
}

/** Levenshtein distance between two code point sequences. */
export function editDistance(a: readonly string[], b: readonly string[]): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      cur.push(Math.min((prev[j] ?? 0) + 1, (cur[j - 1] ?? 0) + 1, (prev[j - 1] ?? 0) + cost));
    }
    prev = cur;
  }
  return prev[b.length] ?? 0;
}

/** 1 − edit distance / the longer length, over `comparable` characters: 1 is identical, 0 nothing in common. */
export function similarity(expected: string, read: string): number {
  const a = comparable(expected);
  const b = comparable(read);
  const longer = Math.max(a.length, b.length);
  return longer === 0 ? 1 : 1 - editDistance(a, b) / longer;
}
