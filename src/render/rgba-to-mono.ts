/**
 * RGBA → 1-bit for thermal printers, pure so the browser's printer view can reuse it. Text, lines and
 * barcodes are thresholded (a dot is black when luminance < 50 %, never dithered, so edges stay clean and
 * bars keep their width); photo-like images are error-diffusion dithered, on their own pixels only.
 *
 * Which pixels are "image" comes from a second render of `ditherMaskScene(scene)`: dithered images as
 * white boxes on black, everything else black on top, so the mask honours z-order (text over a photo is
 * thresholded, a photo over text is dithered).
 */
import { blackWithAlphaOf } from './color';
import { createMonoBitmap, setDot, type MonoBitmap } from './bitmap';
import { assertNever } from '../base/assert-never';
import type { Scene, SceneNode } from '../layout/scene';

export type DitherKernel = 'floyd-steinberg' | 'atkinson';

export interface MonoOptions {
  /** Grey level (0..255) below which a thresholded pixel is black. Default 128 (50 %). */
  threshold?: number;
  /**
   * Error diffusion for image pixels. Floyd–Steinberg (default) keeps mid-tones; Atkinson diffuses only
   * 3/4 of the error, giving more contrast and cleaner highlights on thermal heads.
   */
  dither?: DitherKernel;
}

/** [dx, dy, weight] triples: where a pixel's quantisation error goes. */
const KERNELS: Record<DitherKernel, readonly (readonly [number, number, number])[]> = {
  'floyd-steinberg': [
    [1, 0, 7 / 16],
    [-1, 1, 3 / 16],
    [0, 1, 5 / 16],
    [1, 1, 1 / 16],
  ],
  atkinson: [
    [1, 0, 1 / 8],
    [2, 0, 1 / 8],
    [-1, 1, 1 / 8],
    [0, 1, 1 / 8],
    [1, 1, 1 / 8],
    [0, 2, 1 / 8],
  ],
};

/**
 * Luma (ITU-R BT.601 weights, on sRGB values) of RGBA pixels composited over white, one byte per pixel
 * (0 = black, 255 = white).
 */
export function rgbaToGrey(rgba: Uint8Array, width: number, height: number): Uint8Array {
  const n = width * height;
  if (rgba.length < n * 4) throw new Error(`rgbaToGrey: ${rgba.length} bytes for ${width}×${height} pixels`);
  const grey = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    const o = i * 4;
    const a = (rgba[o + 3] ?? 255) / 255;
    const luma = 0.299 * (rgba[o] ?? 0) + 0.587 * (rgba[o + 1] ?? 0) + 0.114 * (rgba[o + 2] ?? 0);
    grey[i] = Math.round(luma * a + 255 * (1 - a));
  }
  return grey;
}

/** 1 where the mask render is light (an image pixel to dither), 0 elsewhere. */
export function maskFromRgba(rgba: Uint8Array, width: number, height: number): Uint8Array {
  const grey = rgbaToGrey(rgba, width, height);
  const mask = new Uint8Array(grey.length);
  for (let i = 0; i < grey.length; i++) mask[i] = (grey[i] ?? 0) >= 128 ? 1 : 0;
  return mask;
}

/**
 * Grey pixels to a MonoBitmap: pixels with `ditherMask[i] === 1` are error-diffused (serpentine scan, error
 * passed only between masked pixels so it never leaks into text or bars), all others thresholded.
 */
export function greyToMono(
  grey: Uint8Array,
  width: number,
  height: number,
  ditherMask?: Uint8Array,
  opts: MonoOptions = {},
): MonoBitmap {
  const bitmap = createMonoBitmap(width, height);
  diffuse(grey, width, height, ditherMask, opts, 0, (x, y) => setDot(bitmap, x, y, true));
  return bitmap;
}

/**
 * The pixels of a region as greyToMono would print them, one byte per pixel (1 = black): for an image drawn on
 * its own (the fast 1-bit rasteriser caches a logo's dots this way). `firstRow` is the region's top row in the
 * label, so the serpentine scan runs in the same direction on each row as in a whole-label greyToMono.
 */
export function greyToDots(
  grey: Uint8Array,
  width: number,
  height: number,
  ditherMask: Uint8Array | undefined,
  opts: MonoOptions = {},
  firstRow = 0,
): Uint8Array {
  const dots = new Uint8Array(width * height);
  diffuse(grey, width, height, ditherMask, opts, firstRow, (x, y) => {
    dots[y * width + x] = 1;
  });
  return dots;
}

/** Threshold plus serpentine error diffusion over the masked pixels; calls `black` for each black pixel. */
function diffuse(
  grey: Uint8Array,
  width: number,
  height: number,
  ditherMask: Uint8Array | undefined,
  opts: MonoOptions,
  firstRow: number,
  black: (x: number, y: number) => void,
): void {
  const threshold = opts.threshold ?? 128;
  const kernel = KERNELS[opts.dither ?? 'floyd-steinberg'];
  // Grey value plus diffused error, per pixel (only written for masked pixels).
  const work = ditherMask ? Float32Array.from(grey) : undefined;
  for (let y = 0; y < height; y++) {
    const leftToRight = (y + firstRow) % 2 === 0;
    for (let step = 0; step < width; step++) {
      const x = leftToRight ? step : width - 1 - step;
      const i = y * width + x;
      if (!work || ditherMask?.[i] !== 1) {
        if ((grey[i] ?? 255) < threshold) black(x, y);
        continue;
      }
      const v = work[i] ?? 255;
      const isBlack = v < threshold;
      if (isBlack) black(x, y);
      const err = v - (isBlack ? 0 : 255);
      for (const [dx, dy, wgt] of kernel) {
        const nx = x + (leftToRight ? dx : -dx);
        const ny = y + dy;
        if (nx < 0 || nx >= width || ny >= height) continue;
        const j = ny * width + nx;
        if (ditherMask[j] === 1) work[j] = (work[j] ?? 0) + err * wgt;
      }
    }
  }
}

/** True when the scene has an image that a 1-bit target should dither (otherwise no mask pass is needed). */
export function hasDitheredImages(scene: Scene): boolean {
  const visit = (nodes: readonly SceneNode[]): boolean =>
    nodes.some(
      (n) => (n.kind === 'image' && n.monochrome === 'dither') || (n.kind === 'group' && visit(n.children)),
    );
  return visit(scene.nodes);
}

/**
 * The mask scene: black background; each image with `monochrome: 'dither'` becomes a white box; every other
 * node (including thresholded images) is drawn black with its own alpha, in the same order, so whatever
 * covers a photo in the real label covers its marker here too.
 */
export function ditherMaskScene(scene: Scene): Scene {
  return { ...scene, background: '#000000', nodes: scene.nodes.map(maskNode) };
}

function maskNode(node: SceneNode): SceneNode {
  switch (node.kind) {
    case 'group':
      return { ...node, children: node.children.map(maskNode) };
    case 'rect':
    case 'ellipse':
    case 'path':
      return {
        ...node,
        fill: node.fill === undefined ? undefined : blackWithAlphaOf(node.fill),
        stroke: node.stroke ? { ...node.stroke, color: blackWithAlphaOf(node.stroke.color) } : undefined,
      };
    case 'text':
      return { ...node, color: blackWithAlphaOf(node.color) };
    case 'image':
      return {
        kind: 'rect',
        x: node.x,
        y: node.y,
        width: node.width,
        height: node.height,
        fill: node.monochrome === 'dither' ? '#ffffff' : '#000000',
      };
    case 'barcode':
      return {
        ...node,
        color: blackWithAlphaOf(node.color),
        text: node.text ? { ...node.text, color: blackWithAlphaOf(node.text.color) } : undefined,
      };
    default:
      return assertNever(node, 'scene node');
  }
}
