/**
 * Node-only (resvg native addon): Scene → pixels, PNG and the 1-bit bitmap for ZPL. Every raster output goes
 * through renderSvg, so pixels match the SVG and the preview; text is already outlines, so resvg needs no
 * fonts (`loadSystemFonts: false` keeps output identical on every machine).
 */
import { Resvg, type ResvgRenderOptions } from '@resvg/resvg-js';
import type { FontSet } from '../../layout/fonts';
import type { Scene } from '../../layout/scene';
import type { MonoBitmap } from '../../render/bitmap';
import {
  ditherMaskScene,
  greyToMono,
  hasDitheredImages,
  maskFromRgba,
  rgbaToGrey,
  type MonoOptions,
} from '../../render/rgba-to-mono';
import { dataUrl } from '../../render/base64';
import { renderSvg } from '../../render/svg';
import { setPngDpi } from './png-dpi';

export interface RasterOptions {
  /**
   * Output resolution in dots per inch. Default: the scene's own (`dots` scenes: one pixel per dot; `px`
   * scenes: 96). A `px` scene at 203 dpi is scaled by 203 / 96.
   */
  dpi?: number;
  /** Pixels per scene unit, instead of `dpi`. */
  scale?: number;
}

export interface RgbaImage {
  width: number;
  height: number;
  /** width × height × 4 bytes, straight (non-premultiplied) RGBA. */
  rgba: Uint8Array;
}

/** resvg settings of every raster output (and of image decoding for the 1-bit rasteriser). */
export const RESVG_BASE: ResvgRenderOptions = {
  font: { loadSystemFonts: false },
  shapeRendering: 2, // geometricPrecision: anti-aliased edges; barcodes carry crispEdges themselves
  imageRendering: 0, // optimizeQuality: smooth image scaling before dithering
  logLevel: 'off',
};

/** Pixel size of a scene at the given options: rounded to whole pixels (4 in at 203 dpi → 812). */
export function rasterSize(
  scene: Scene,
  opts: RasterOptions = {},
): { width: number; height: number; scale: number } {
  const scale = opts.scale ?? (opts.dpi ?? scene.dpi) / scene.dpi;
  if (!(scale > 0)) throw new Error(`raster scale must be positive, got ${scale}`);
  return {
    width: Math.max(1, Math.round(scene.width * scale)),
    height: Math.max(1, Math.round(scene.height * scale)),
    scale,
  };
}

function render(
  scene: Scene,
  fonts: FontSet,
  opts: RasterOptions,
  background: string,
): { png: () => Uint8Array; image: RgbaImage } {
  const { width, height } = rasterSize(scene, opts);
  const svg = renderSvg(scene, fonts, { size: { width, height } });
  const rendered = new Resvg(svg, { ...RESVG_BASE, background }).render();
  if (rendered.width !== width || rendered.height !== height) {
    throw new Error(`resvg rendered ${rendered.width}×${rendered.height}, expected ${width}×${height}`);
  }
  return {
    png: () => new Uint8Array(rendered.asPng()),
    image: { width, height, rgba: new Uint8Array(rendered.pixels) },
  };
}

/** Renders a scene to RGBA pixels on white. */
export function rasterizeRgba(scene: Scene, fonts: FontSet, opts: RasterOptions = {}): RgbaImage {
  return render(scene, fonts, opts, 'white').image;
}

/** Renders a scene to a PNG at `dpi` (default: the scene's), with the dpi recorded in the file (pHYs). */
export function renderPng(scene: Scene, fonts: FontSet, opts: { dpi?: number } = {}): Uint8Array {
  const dpi = opts.dpi ?? scene.dpi;
  return setPngDpi(render(scene, fonts, { dpi }, 'white').png(), dpi);
}

/**
 * The 1-bit bitmap a thermal printer prints: render at the printer's dots (a `dots` scene as is, a `px`
 * scene at `opts.dpi`), threshold everything except dithered images, which are error-diffused. A second,
 * mask render finds the image pixels that are visible in the final label; it is skipped when the scene has
 * no image to dither.
 */
export function toMonoBitmap(
  scene: Scene,
  fonts: FontSet,
  opts: RasterOptions & MonoOptions = {},
): MonoBitmap {
  const { width, height, rgba } = rasterizeRgba(scene, fonts, opts);
  const grey = rgbaToGrey(rgba, width, height);
  let mask: Uint8Array | undefined;
  if (hasDitheredImages(scene)) {
    const m = render(ditherMaskScene(scene), fonts, opts, 'black').image;
    mask = maskFromRgba(m.rgba, width, height);
  }
  return greyToMono(grey, width, height, mask, opts);
}

/**
 * Rasterises an SVG image (bytes of an SVG file) to a PNG of exactly width × height pixels, stretched like
 * the SVG backend draws images (`preserveAspectRatio="none"`): the `rasterizeSvg` port of renderPdf, since
 * PDF cannot embed SVG. System fonts stay off, so `<text>` inside such an image is not drawn.
 */
export function svgImageToPng(svg: Uint8Array, width: number, height: number): Uint8Array {
  const w = Math.max(1, Math.round(width));
  const h = Math.max(1, Math.round(height));
  const wrapper =
    `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}">` +
    `<image width="${w}" height="${h}" preserveAspectRatio="none" href="${dataUrl('image/svg+xml', svg)}"/></svg>`;
  return new Uint8Array(new Resvg(wrapper, RESVG_BASE).render().asPng());
}
