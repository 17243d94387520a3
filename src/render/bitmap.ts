/**
 * A 1-bit image as printers take it: rows packed MSB first, 1 = black dot, each row padded to whole bytes.
 * This is the hand-off between the rasterisers (src/render/dots, and src/node/resvg's resvg path) and
 * the ZPL encoders (src/zpl).
 */
export interface MonoBitmap {
  width: number;
  height: number;
  /** Bytes per row: ceil(width / 8). */
  rowBytes: number;
  /** rowBytes * height bytes. */
  data: Uint8Array;
}

export function createMonoBitmap(width: number, height: number): MonoBitmap {
  const rowBytes = Math.ceil(width / 8);
  return { width, height, rowBytes, data: new Uint8Array(rowBytes * height) };
}

export function getDot(bitmap: MonoBitmap, x: number, y: number): boolean {
  const byte = bitmap.data[y * bitmap.rowBytes + (x >> 3)] ?? 0;
  return (byte & (0x80 >> (x & 7))) !== 0;
}

export function setDot(bitmap: MonoBitmap, x: number, y: number, black: boolean): void {
  const i = y * bitmap.rowBytes + (x >> 3);
  const mask = 0x80 >> (x & 7);
  const byte = bitmap.data[i] ?? 0;
  bitmap.data[i] = black ? byte | mask : byte & ~mask;
}

/** The top-left `width` × `height` dots of `bitmap` (the bitmap itself when that is all of it). */
export function cropMonoBitmap(bitmap: MonoBitmap, width: number, height: number): MonoBitmap {
  if (width >= bitmap.width && height >= bitmap.height) return bitmap;
  const out = createMonoBitmap(Math.min(width, bitmap.width), Math.min(height, bitmap.height));
  for (let y = 0; y < out.height; y++) {
    for (let x = 0; x < out.width; x++) if (getDot(bitmap, x, y)) setDot(out, x, y, true);
  }
  return out;
}
