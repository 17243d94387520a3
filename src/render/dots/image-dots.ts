/**
 * Images for the 1-bit rasteriser: decoded, scaled, and thresholded or dithered exactly as the resvg path does
 * (same grey, same mask rule, same kernels and scan direction per label row), but once per image, size,
 * position within a dot and mode: a logo costs one decode per template and dpi, not one per label.
 *
 * Decoding is a port (MonoImageSource): Node renders the image alone with resvg (src/node/resvg); a browser
 * could use a canvas. Pure module.
 */
import type { ImageNode } from '../../layout/scene';
import { LruCache } from '../../layout/lru';
import { createMonoBitmap, setDot, type MonoBitmap } from '../bitmap';
import { greyToDots, type MonoOptions } from '../rgba-to-mono';
import { blitPatch, type Patch } from './patch-cache';
import { quarterBounds, rectAlpha } from './spans';

/**
 * Where to draw: a box of whole dots at (boxX, boxY) in the label, the image stretched to (x, y, width, height),
 * all in label dots (the image box fractional).
 */
export interface ImagePlacement {
  boxX: number;
  boxY: number;
  boxWidth: number;
  boxHeight: number;
  x: number;
  y: number;
  width: number;
  height: number;
}

/** Decodes images for the 1-bit rasteriser. */
export interface MonoImageSource {
  /**
   * Grey pixels (boxWidth × boxHeight, 0 black … 255 white) of the image drawn stretched at `placement`
   * over white, smoothed as resvg smooths images; `opaque` when no pixel fully inside the image is transparent.
   */
  greyOf(node: ImageNode, placement: ImagePlacement): { grey: Uint8Array; opaque: boolean };
}

/**
 * An image's dots in its box, as two byte-aligned masks: `white` (dots the image makes white: its light pixels
 * where it covers the dot) and `black`. Drawing clears the first and sets the second, whole bytes at a time.
 */
export interface ImageDots {
  white: Patch;
  black: Patch;
  opaque: boolean;
}

const LEAVE = 0;
const BLACK = 1;
const WHITE = 2;

const cache = new LruCache<string, ImageDots>(64);
const hashes = new WeakMap<Uint8Array, string>();

/** FNV-1a (two seeds) plus length: a content key for image bytes, memoised per array. */
function contentKey(bytes: Uint8Array): string {
  let key = hashes.get(bytes);
  if (key === undefined) {
    let h1 = 0x811c9dc5;
    let h2 = 0x01000193 ^ bytes.length;
    for (let i = 0; i < bytes.length; i++) {
      const b = bytes[i] ?? 0;
      h1 = Math.imul(h1 ^ b, 0x01000193);
      h2 = Math.imul(h2 ^ b, 0x5bd1e995) ^ (h2 >>> 13);
    }
    key = `${bytes.length}:${(h1 >>> 0).toString(36)}:${(h2 >>> 0).toString(36)}`;
    hashes.set(bytes, key);
  }
  return key;
}

/** Fraction of [i, i + 1) covered by [a, b). */
function overlap(i: number, a: number, b: number): number {
  return Math.max(0, Math.min(i + 1, b) - Math.max(i, a));
}

/**
 * The dots of an image at `placement`; cached. `opacity` is the group opacity the image is drawn with
 * (composited over white, as the resvg path's grey is).
 */
export function imageDots(
  node: ImageNode,
  placement: ImagePlacement,
  opacity: number,
  source: MonoImageSource,
  opts: MonoOptions,
): ImageDots {
  const r = (n: number): string => n.toFixed(3);
  const key = [
    contentKey(node.data),
    node.mime,
    node.monochrome,
    placement.boxX,
    placement.boxY,
    placement.boxWidth,
    placement.boxHeight,
    r(placement.x),
    r(placement.y),
    r(placement.width),
    r(placement.height),
    r(opacity),
    opts.threshold ?? 128,
    opts.dither ?? 'floyd-steinberg',
  ].join('|');
  let hit = cache.get(key);
  if (!hit) {
    hit = computeDots(node, placement, opacity, source, opts);
    cache.set(key, hit);
  }
  return hit;
}

function computeDots(
  node: ImageNode,
  p: ImagePlacement,
  opacity: number,
  source: MonoImageSource,
  opts: MonoOptions,
): ImageDots {
  const { boxWidth: w, boxHeight: h } = p;
  const { grey, opaque } = source.greyOf(node, p);
  if (grey.length < w * h) throw new Error(`image source gave ${grey.length} pixels for ${w}×${h}`);
  const threshold = opts.threshold ?? 128;
  const coverage = new Float32Array(w * h);
  const mask = new Uint8Array(w * h);
  const g = new Uint8Array(w * h);
  // The resvg path's mask render draws the image box white on black, anti-aliased (rectAlpha); a dot is
  // dithered where that grey is light (≥ 128).
  const [qx0, qy0, qx1, qy1] = quarterBounds(p.x, p.y, p.x + p.width, p.y + p.height);
  for (let y = 0; y < h; y++) {
    const cy = overlap(p.boxY + y, p.y, p.y + p.height);
    for (let x = 0; x < w; x++) {
      const i = y * w + x;
      coverage[i] = cy * overlap(p.boxX + x, p.x, p.x + p.width);
      mask[i] = rectAlpha(p.boxX + x, p.boxY + y, qx0, qy0, qx1, qy1) >= 128 ? 1 : 0;
      const v = grey[i] ?? 255;
      g[i] = opacity >= 1 ? v : Math.round(v * opacity + 255 * (1 - opacity));
    }
  }
  const codes = new Uint8Array(w * h);
  if (node.monochrome === 'dither') {
    const dots = greyToDots(g, w, h, mask, opts, p.boxY);
    for (let i = 0; i < codes.length; i++) {
      if (dots[i] === 1) codes[i] = BLACK;
      else codes[i] = mask[i] === 1 ? WHITE : LEAVE;
    }
  } else {
    for (let i = 0; i < codes.length; i++) {
      if ((g[i] ?? 255) < threshold) codes[i] = BLACK;
      else codes[i] = mask[i] === 1 ? WHITE : LEAVE;
    }
  }
  for (let i = 0; i < codes.length; i++) if ((coverage[i] ?? 0) === 0) codes[i] = LEAVE;
  // Byte-aligned masks in label coordinates: the box's left edge rounded down to a multiple of 8 dots.
  const x0 = p.boxX & ~7;
  const shift = p.boxX - x0;
  const white = createMonoBitmap(w + shift, h);
  const black = createMonoBitmap(w + shift, h);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const code = codes[y * w + x];
      if (code === BLACK) setDot(black, x + shift, y, true);
      else if (code === WHITE) setDot(white, x + shift, y, true);
    }
  }
  return { white: { x: x0, y: p.boxY, mask: white }, black: { x: x0, y: p.boxY, mask: black }, opaque };
}

/** Writes an image's dots into the label (clipped): its white dots cleared, its black dots set. */
export function drawImageDots(bitmap: MonoBitmap, dots: ImageDots): void {
  blitPatch(bitmap, dots.white, 'clear');
  blitPatch(bitmap, dots.black, 'set');
}
