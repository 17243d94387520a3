/**
 * Node-only: a 1-bit bitmap as a 1-bit greyscale PNG, exactly the dots the thermal head burns, at the printer's
 * dpi, in a few kilobytes: the printer view of the preview, and the PNG of a ZPL label (zpl-outputs.ts).
 */
import { deflateSync } from 'node:zlib';
import type { MonoBitmap } from '../render/bitmap';
import { pngChunk, setPngDpi } from './resvg/png-dpi';
import { concatBytes } from '../render/bytes';

const SIGNATURE = Uint8Array.of(137, 80, 78, 71, 13, 10, 26, 10);

export function monoToPng(bitmap: MonoBitmap, dpi: number): Uint8Array {
  const header = new Uint8Array(13);
  const view = new DataView(header.buffer);
  view.setUint32(0, bitmap.width);
  view.setUint32(4, bitmap.height);
  header[8] = 1; // bit depth
  header[9] = 0; // greyscale
  // Each row: filter byte 0, then the row with bits inverted (PNG grey 0 is black; our 1 is a black dot).
  const raw = new Uint8Array((bitmap.rowBytes + 1) * bitmap.height);
  for (let y = 0; y < bitmap.height; y++) {
    const from = y * bitmap.rowBytes;
    const to = y * (bitmap.rowBytes + 1) + 1;
    for (let i = 0; i < bitmap.rowBytes; i++) raw[to + i] = ~(bitmap.data[from + i] ?? 0) & 0xff;
  }
  const png = concatBytes([
    SIGNATURE,
    pngChunk('IHDR', header),
    pngChunk('IDAT', deflateSync(raw, { level: 6 })),
    pngChunk('IEND', new Uint8Array(0)),
  ]);
  return setPngDpi(png, dpi);
}
