/** Test support: a bundled font under another family name, for tests of user fonts (issue #23). */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fontsDir } from '../../src/node/assets';

/** As long as "DejaVu Serif", so the name table's records keep their lengths. */
export const RENAMED_SERIF_FAMILY = 'Acme Label X';

/**
 * DejaVu Serif with its family renamed `RENAMED_SERIF_FAMILY` in the name table (its UTF-16BE and Mac Roman
 * records alike; the PostScript name, DejaVuSerif, stays): the same outlines as the bundled serif ("Times").
 */
export function renamedSerif(): Buffer {
  const bytes = Buffer.from(readFileSync(join(fontsDir(), 'DejaVuSerif.ttf')));
  const replaceAll = (from: Buffer, to: Buffer): void => {
    for (let at = bytes.indexOf(from); at >= 0; at = bytes.indexOf(from, at + to.length)) to.copy(bytes, at);
  };
  const to = RENAMED_SERIF_FAMILY;
  replaceAll(Buffer.from('DejaVu Serif', 'latin1'), Buffer.from(to, 'latin1'));
  replaceAll(Buffer.from('DejaVu Serif', 'utf16le').swap16(), Buffer.from(to, 'utf16le').swap16());
  return bytes;
}
