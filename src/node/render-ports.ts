/**
 * Node-only: the engine's render ports — bundled fonts, the image loader, the 1-bit rasteriser for ZPL (pure,
 * with resvg only to decode images, and as the fallback for what it cannot draw), resvg for PNG, and native
 * zlib for Z64.
 */
import { deflateSync } from 'node:zlib';
import type { FontSet } from '../layout/fonts';
import type { RenderPorts } from '../outputs/render';
import { renderPng, svgImageToPng, toMonoBitmapFast } from './resvg';
import { loadBundledFonts } from './fonts';
import { createImageLoader, type ImageLoaderOptions } from './image-loader';

/**
 * zlib settings for `:Z64:` bitmap rows, chosen by measurement on the shipping 4 × 6 in label (docs/performance.md,
 * "Why these zlib settings"). A 1-bit label repeats mostly within a few rows (the row above, a white run), so a
 * small window finds nearly every match while the hash chains stay short:
 *  - rows up to 160 bytes (4 in wide at 203 and 300 dpi): level 7, a 2 KiB window — at 203 dpi about half the
 *    time of level 8 with the full 32 KiB window, and slightly smaller than level 9 on the shipping label;
 *  - wider rows (600 dpi, wide labels): level 8, an 8 KiB window — level 7 there is 5–7 % larger than level 9.
 * Every zlib decoder (the printer's included) reads a stream made with a smaller window.
 */
export const Z64_NARROW_MAX_ROW_BYTES = 160;
export const Z64_NARROW_ROWS = { level: 7, windowBits: 11, memLevel: 8 } as const;
export const Z64_WIDE_ROWS = { level: 8, windowBits: 13, memLevel: 8 } as const;
/** Anything else (PDF streams, fonts): level 8, the full window. */
const GENERAL = { level: 8, memLevel: 9 } as const;

/** Native zlib (RFC 1950 stream) for `:Z64:` data and PDF streams, injected through the render ports. */
export function nodeDeflate(bytes: Uint8Array, rowBytes?: number): Uint8Array {
  if (rowBytes === undefined) return deflateSync(bytes, GENERAL);
  return deflateSync(bytes, rowBytes <= Z64_NARROW_MAX_ROW_BYTES ? Z64_NARROW_ROWS : Z64_WIDE_ROWS);
}

/**
 * Everything but image loading: what a render worker of `labeldesk serve` uses with images loaded for it.
 * `fonts`: the bundled set unless the composition root hands the user's and the machine's (`machineFonts`).
 */
export function nodeOutputPorts(fonts: FontSet = loadBundledFonts()): Omit<RenderPorts, 'loadImages'> {
  return {
    fonts,
    toMonoBitmap: (scene, fonts) => toMonoBitmapFast(scene, fonts),
    renderPng: (scene, fonts, { dpi }) => renderPng(scene, fonts, { dpi }),
    rasterizeSvg: svgImageToPng,
    deflate: nodeDeflate,
  };
}

export function nodeRenderPorts(images: ImageLoaderOptions = {}, fonts?: FontSet): RenderPorts {
  return { ...nodeOutputPorts(fonts), loadImages: createImageLoader(images) };
}
