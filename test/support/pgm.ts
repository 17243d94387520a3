/** Test support: write images that zbarimg (ImageMagick underneath) can read. */
import { writeFileSync } from 'node:fs';
import { getDot, type MonoBitmap } from '../../src/render/bitmap';

/** 8-bit grey pixels (0 = black, 255 = white) to a binary PGM file. */
export function writeGreyPgm(path: string, width: number, height: number, grey: Uint8Array): void {
  const header = Buffer.from(`P5\n${width} ${height}\n255\n`, 'ascii');
  writeFileSync(path, Buffer.concat([header, Buffer.from(grey.buffer, grey.byteOffset, width * height)]));
}

/**
 * A 1-bit bitmap (1 = black) to PGM, with `margin` white dots around it so scanners find quiet zones. `scale`:
 * each dot as scale × scale pixels — a scan at that multiple of the printer's dpi (zbar does not resolve bars
 * one pixel wide, which a scanner reads on paper as 5-mil bars).
 */
export function writeMonoPgm(path: string, bitmap: MonoBitmap, margin = 20, scale = 1): void {
  const w = (bitmap.width + margin * 2) * scale;
  const h = (bitmap.height + margin * 2) * scale;
  const grey = new Uint8Array(w * h).fill(255);
  for (let y = 0; y < bitmap.height; y++) {
    for (let x = 0; x < bitmap.width; x++) {
      if (!getDot(bitmap, x, y)) continue;
      for (let dy = 0; dy < scale; dy++)
        grey.fill(
          0,
          ((y + margin) * scale + dy) * w + (x + margin) * scale,
          ((y + margin) * scale + dy) * w + (x + margin + 1) * scale,
        );
    }
  }
  writeGreyPgm(path, w, h, grey);
}
