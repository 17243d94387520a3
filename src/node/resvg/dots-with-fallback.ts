/**
 * Node-only: the default Scene → 1-bit bitmap for ZPL. The pure rasteriser (src/render/dots) draws the label in
 * dots; resvg only decodes images, once per image, size and mode (the rasteriser caches the dots). A scene the
 * rasteriser cannot draw faithfully (see MonoUnsupported) is rendered by the resvg path instead, for that label
 * only. `monoRasterStats` counts both, so tests and the bench can check that a batch never falls back and never
 * calls resvg per label.
 */
import { Resvg } from '@resvg/resvg-js';
import type { FontSet } from '../../layout/fonts';
import type { ImageNode, Scene } from '../../layout/scene';
import { dataUrl } from '../../render/base64';
import type { MonoBitmap } from '../../render/bitmap';
import { rgbaToGrey, type MonoOptions } from '../../render/rgba-to-mono';
import { MonoUnsupported, renderMono, type ImagePlacement, type MonoImageSource } from '../../render/dots';
import { RESVG_BASE, toMonoBitmap, type RasterOptions } from './rasterize';

/** Counters since process start (or the last reset). */
export const monoRasterStats = {
  /** Labels drawn by the pure rasteriser. */
  fast: 0,
  /** Labels drawn by the resvg path because the rasteriser could not. */
  fallback: 0,
  /** resvg renders made to decode an image for the rasteriser (cached: once per image, size and mode). */
  imageDecodes: 0,
  /** Why the last fallback happened. */
  lastFallback: '',
};

export function resetMonoRasterStats(): void {
  monoRasterStats.fast = 0;
  monoRasterStats.fallback = 0;
  monoRasterStats.imageDecodes = 0;
  monoRasterStats.lastFallback = '';
}

const f = (n: number): string => String(Math.round(n * 1e6) / 1e6);

/**
 * Decodes an image with resvg at its label position over a white rect, exactly as the whole-label SVG draws it,
 * so the grey is the one the resvg path would threshold or dither, pixel for pixel (error diffusion turns the
 * smallest difference into another dot pattern). The canvas runs from the label's top-left corner to the
 * image's bottom-right one: resvg's image sampling depends on where the canvas starts, not only on the image
 * box. A second render without the white rect tells whether the image is opaque. Once per cache key.
 */
export const resvgImageSource: MonoImageSource = {
  greyOf(node: ImageNode, p: ImagePlacement): { grey: Uint8Array; opaque: boolean } {
    monoRasterStats.imageDecodes++;
    const canvasWidth = p.boxX + p.boxWidth;
    const canvasHeight = p.boxY + p.boxHeight;
    const image =
      `<image x="${f(p.x)}" y="${f(p.y)}" width="${f(p.width)}" height="${f(p.height)}" preserveAspectRatio="none"` +
      ` href="${dataUrl(node.mime, node.data)}"/>`;
    const svg = (content: string): string =>
      `<svg xmlns="http://www.w3.org/2000/svg" width="${canvasWidth}" height="${canvasHeight}"` +
      ` viewBox="0 0 ${canvasWidth} ${canvasHeight}">${content}</svg>`;
    const white = `<rect width="${canvasWidth}" height="${canvasHeight}" fill="#ffffff"/>`;
    const onWhite = new Resvg(svg(white + image), RESVG_BASE).render();
    const alone = new Resvg(svg(image), RESVG_BASE).render();
    const box = (rgba: Uint8Array): Uint8Array => {
      const out = new Uint8Array(p.boxWidth * p.boxHeight * 4);
      for (let y = 0; y < p.boxHeight; y++) {
        const from = ((p.boxY + y) * canvasWidth + p.boxX) * 4;
        out.set(rgba.subarray(from, from + p.boxWidth * 4), y * p.boxWidth * 4);
      }
      return out;
    };
    const grey = rgbaToGrey(box(new Uint8Array(onWhite.pixels)), p.boxWidth, p.boxHeight);
    const alpha = box(new Uint8Array(alone.pixels));
    // Opaque: every dot wholly inside the image is fully covered by it.
    let opaque = true;
    for (let y = Math.ceil(p.y) - p.boxY; y < Math.floor(p.y + p.height) - p.boxY && opaque; y++) {
      for (let x = Math.ceil(p.x) - p.boxX; x < Math.floor(p.x + p.width) - p.boxX; x++) {
        if ((alpha[(y * p.boxWidth + x) * 4 + 3] ?? 0) !== 255) {
          opaque = false;
          break;
        }
      }
    }
    return { grey, opaque };
  },
};

/**
 * The 1-bit bitmap a thermal printer prints (same contract as `toMonoBitmap`): drawn by the pure rasteriser,
 * or by the resvg path when the rasteriser reports the scene unsupported.
 */
export function toMonoBitmapFast(
  scene: Scene,
  fonts: FontSet,
  opts: RasterOptions & MonoOptions = {},
): MonoBitmap {
  try {
    const bitmap = renderMono(scene, fonts, { ...opts, images: resvgImageSource });
    monoRasterStats.fast++;
    return bitmap;
  } catch (e) {
    if (!(e instanceof MonoUnsupported)) throw e;
    // Rare by design (see MonoUnsupported): costs a full resvg render, and its native memory, for this label.
    monoRasterStats.fallback++;
    monoRasterStats.lastFallback = e.message;
    return toMonoBitmap(scene, fonts, opts);
  }
}
