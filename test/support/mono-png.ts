/** Test support: the printer view's 1-bit greyscale PNG (a data: URL) read back into dots, with Node's zlib. */
import { inflateSync } from 'node:zlib';
import { createMonoBitmap, setDot, type MonoBitmap } from '../../src/render/bitmap';

/** Throws unless the PNG is 1-bit grey, not interlaced, every row unfiltered (what mono-png.ts writes). */
export function monoPngToBitmap(dataUrl: string): MonoBitmap {
  const png = Buffer.from(dataUrl.replace(/^data:image\/png;base64,/, ''), 'base64');
  let width = 0;
  let height = 0;
  const idat: Buffer[] = [];
  for (let o = 8; o + 8 <= png.length;) {
    const len = png.readUInt32BE(o);
    const type = png.toString('latin1', o + 4, o + 8);
    const body = png.subarray(o + 8, o + 8 + len);
    if (type === 'IHDR') {
      width = body.readUInt32BE(0);
      height = body.readUInt32BE(4);
      if (body[8] !== 1 || body[9] !== 0 || body[12] !== 0) throw new Error('not a 1-bit grey PNG');
    } else if (type === 'IDAT') idat.push(body);
    o += 12 + len;
  }
  const raw = inflateSync(Buffer.concat(idat));
  const stride = Math.ceil(width / 8);
  const bitmap = createMonoBitmap(width, height);
  for (let y = 0; y < height; y++) {
    if (raw[y * (stride + 1)] !== 0) throw new Error(`row ${y} is filtered`);
    for (let x = 0; x < width; x++) {
      // PNG grey 0 is black.
      const white = ((raw[y * (stride + 1) + 1 + (x >> 3)]! >> (7 - (x & 7))) & 1) === 1;
      if (!white) setDot(bitmap, x, y, true);
    }
  }
  return bitmap;
}
