/**
 * Node-only: the engine's render ports — bundled fonts, the image loader, the 1-bit rasteriser for ZPL (pure,
 * with resvg only to decode images, and as the fallback for what it cannot draw), resvg for PNG, and native
 * zlib for Z64.
 */
import { deflateSync } from 'node:zlib';
import type { RenderPorts } from '../engine/render';
import { renderPng, svgImageToPng, toMonoBitmapFast } from '../render/raster';
import { loadBundledFonts } from './fonts';
import { createImageLoader, type ImageLoaderOptions } from './image-loader';

/**
 * zlib level for `:Z64:` data. Level 8, not 9: on label bitmaps (long white runs) zlib's level 9 searches hash
 * chains four times as long for almost nothing: 4.6 ms against 1.8 ms for the 4 × 6 in sample at 203 dpi, for
 * 0.2 % more bytes (docs/performance.md). Both are far smaller than fflate's level 9 (about 7 %).
 */
export const NODE_Z64_LEVEL = 8;

/** Native zlib (RFC 1950 stream) for `:Z64:` data, injected through the render ports. */
export function nodeDeflate(bytes: Uint8Array): Uint8Array {
  return deflateSync(bytes, { level: NODE_Z64_LEVEL, memLevel: 9 });
}

export function nodeRenderPorts(images: ImageLoaderOptions = {}): RenderPorts {
  return {
    fonts: loadBundledFonts(),
    loadImages: createImageLoader(images),
    toMonoBitmap: (scene, fonts) => toMonoBitmapFast(scene, fonts),
    renderPng: (scene, fonts, { dpi }) => renderPng(scene, fonts, { dpi }),
    rasterizeSvg: svgImageToPng,
    deflate: nodeDeflate,
  };
}
