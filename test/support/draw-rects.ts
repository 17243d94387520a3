/**
 * Test support: draw a BarcodeNode's rects (dots) into an 8-bit grey buffer, like a printer head would:
 * whole dots only, so a rect that is not on the dot grid fails loudly instead of being anti-aliased.
 */

export interface GreyImage {
  width: number;
  height: number;
  /** 0 = black, 255 = white, row-major. */
  grey: Uint8Array;
}

/**
 * A white `width` × `height` image with `rects` ([x, y, w, h] flat, in dots) painted black, shifted by `margin`
 * dots so symbols at the canvas edge keep a scanner's quiet zone.
 */
export function drawRects(rects: readonly number[], width: number, height: number, margin = 0): GreyImage {
  const w = width + 2 * margin;
  const h = height + 2 * margin;
  const grey = new Uint8Array(w * h).fill(255);
  for (let i = 0; i + 3 < rects.length; i += 4) {
    const [x, y, rw, rh] = [rects[i]!, rects[i + 1]!, rects[i + 2]!, rects[i + 3]!];
    if (![x, y, rw, rh].every(Number.isInteger))
      throw new Error(`rect off the dot grid: ${[x, y, rw, rh].join(',')}`);
    for (let yy = Math.max(0, y + margin); yy < Math.min(h, y + rh + margin); yy++) {
      grey.fill(0, yy * w + Math.max(0, x + margin), yy * w + Math.min(w, x + rw + margin));
    }
  }
  return { width: w, height: h, grey };
}
