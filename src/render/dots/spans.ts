/**
 * The lowest layer of the 1-bit rasteriser: horizontal runs of dots written straight into a packed MonoBitmap
 * (rows MSB first, 1 = black). Every writer clips to the bitmap, so nothing ever lands in another row or in the
 * padding bits past the last column (the ZPL encoder then needs no clean-up copy).
 */
import type { MonoBitmap } from '../bitmap';

/** What a shape does to the dots it covers: make them black or make them white. */
export type Paint = 'set' | 'clear';

/**
 * A paint and how much of a dot it must cover to change it: the anti-aliased alpha (0..255, as resvg computes
 * it) a dot needs: 128 for black, the 50 % threshold; more for a grey or translucent colour, whose partly
 * covered dots stay light.
 */
export interface Ink {
  op: Paint;
  need: number;
}

/** Writes dots x0 ≤ x < x1 of row y (clipped to the bitmap). */
export function fillSpan(bitmap: MonoBitmap, y: number, x0: number, x1: number, paint: Paint): void {
  if (y < 0 || y >= bitmap.height) return;
  const from = x0 < 0 ? 0 : x0;
  const to = x1 > bitmap.width ? bitmap.width : x1;
  if (from >= to) return;
  const data = bitmap.data;
  const row = y * bitmap.rowBytes;
  const firstByte = from >> 3;
  const lastByte = (to - 1) >> 3;
  const headMask = 0xff >> (from & 7);
  const tailMask = (0xff00 >> (((to - 1) & 7) + 1)) & 0xff;
  const set = paint === 'set';
  if (firstByte === lastByte) {
    const mask = headMask & tailMask;
    const i = row + firstByte;
    data[i] = set ? (data[i] ?? 0) | mask : (data[i] ?? 0) & ~mask;
    return;
  }
  const a = row + firstByte;
  const b = row + lastByte;
  data[a] = set ? (data[a] ?? 0) | headMask : (data[a] ?? 0) & ~headMask;
  if (b > a + 1) data.fill(set ? 0xff : 0, a + 1, b);
  data[b] = set ? (data[b] ?? 0) | tailMask : (data[b] ?? 0) & ~tailMask;
}

/** Writes the dots x0 ≤ x < x1, y0 ≤ y < y1 (whole dots, clipped). The barcode fast path. */
export function fillDotRect(
  bitmap: MonoBitmap,
  x0: number,
  y0: number,
  x1: number,
  y1: number,
  paint: Paint,
): void {
  const top = y0 < 0 ? 0 : y0;
  const bottom = y1 > bitmap.height ? bitmap.height : y1;
  for (let y = top; y < bottom; y++) fillSpan(bitmap, y, x0, x1, paint);
}

/**
 * First dot whose centre is at or right of `edge` (device units): a dot x is inside [a, b) when its centre
 * x + 0.5 is, i.e. for x from dotFrom(a) to dotFrom(b) - 1. The same rule serves rows.
 */
export function dotFrom(edge: number): number {
  return Math.ceil(edge - 0.5);
}

/**
 * Quarter-dot bounds of an axis-aligned rectangle in device units, as resvg's supersampler rounds them: columns
 * [qx0, qx1) and sub-rows [qy0, qy1) (sub-row j inside when round(4 · top) ≤ j < round(4 · bottom)).
 */
export function quarterBounds(
  x0: number,
  y0: number,
  x1: number,
  y1: number,
): [number, number, number, number] {
  return [Math.round(x0 * 4), Math.round(y0 * 4), Math.round(x1 * 4), Math.round(y1 * 4)];
}

/**
 * The anti-aliased alpha (0..255) resvg gives dot (x, y) of a rectangle with quarter bounds [qx0, qx1) ×
 * [qy0, qy1): per covered sub-row, 16 per covered quarter where the dot is partly covered, else 64 (63 on the
 * dot's last sub-row). See EdgeList.fill.
 */
export function rectAlpha(x: number, y: number, qx0: number, qy0: number, qx1: number, qy1: number): number {
  const cols = Math.max(0, Math.min(qx1, 4 * x + 4) - Math.max(qx0, 4 * x));
  if (cols === 0) return 0;
  let alpha = 0;
  for (let k = 0; k < 4; k++) {
    const j = 4 * y + k;
    if (j < qy0 || j >= qy1) continue;
    alpha += cols === 4 ? (k === 3 ? 63 : 64) : 16 * cols;
  }
  return alpha;
}

/**
 * An axis-aligned rectangle in device units, anti-aliased as resvg does it (see rectAlpha): a dot gets the ink
 * when its alpha reaches `ink.need`.
 */
export function fillRectAntialiased(
  bitmap: MonoBitmap,
  x0: number,
  y0: number,
  x1: number,
  y1: number,
  ink: Ink,
): void {
  const [qx0, qy0, qx1, qy1] = quarterBounds(x0, y0, x1, y1);
  const left = Math.max(0, qx0 >> 2);
  const right = Math.min(bitmap.width, (qx1 + 3) >> 2);
  const top = Math.max(0, qy0 >> 2);
  const bottom = Math.min(bitmap.height, (qy1 + 3) >> 2);
  for (let y = top; y < bottom; y++) {
    let from = left;
    let to = right;
    while (from < to && rectAlpha(from, y, qx0, qy0, qx1, qy1) < ink.need) from++;
    while (to > from && rectAlpha(to - 1, y, qx0, qy0, qx1, qy1) < ink.need) to--;
    if (from < to) fillSpan(bitmap, y, from, to, ink.op);
  }
}

/** True when any dot of the rows y0 ≤ y < y1, columns x0 ≤ x < x1 is black (clipped). */
export function anyBlack(bitmap: MonoBitmap, x0: number, y0: number, x1: number, y1: number): boolean {
  const left = Math.max(0, x0);
  const right = Math.min(bitmap.width, x1);
  if (left >= right) return false;
  for (let y = Math.max(0, y0); y < Math.min(bitmap.height, y1); y++) {
    const row = y * bitmap.rowBytes;
    for (let x = left; x < right; x++) {
      if (((bitmap.data[row + (x >> 3)] ?? 0) & (0x80 >> (x & 7))) !== 0) return true;
    }
  }
  return false;
}
