/** Test support: write images that zbarimg (ImageMagick underneath) can read. */
import { writeFileSync } from 'node:fs';
import { getDot, type MonoBitmap } from '../../src/render/bitmap';

/** 8-bit grey pixels (0 = black, 255 = white) to a binary PGM file. */
export function writeGreyPgm(path: string, width: number, height: number, grey: Uint8Array): void {
  const header = Buffer.from(`P5\n${width} ${height}\n255\n`, 'ascii');
  writeFileSync(path, Buffer.concat([header, Buffer.from(grey.buffer, grey.byteOffset, width * height)]));
}

/** A 1-bit bitmap (1 = black) to PGM, with `margin` white dots around it so scanners find quiet zones. */
export function writeMonoPgm(path: string, bitmap: MonoBitmap, margin = 20): void {
  const w = bitmap.width + margin * 2;
  const h = bitmap.height + margin * 2;
  const grey = new Uint8Array(w * h).fill(255);
  for (let y = 0; y < bitmap.height; y++) {
    for (let x = 0; x < bitmap.width; x++) {
      if (getDot(bitmap, x, y)) grey[(y + margin) * w + x + margin] = 0;
    }
  }
  writeGreyPgm(path, w, h, grey);
}
