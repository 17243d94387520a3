/** Node-only: the engine's render ports — bundled fonts, the image loader, resvg rasterising. */
import type { RenderPorts } from '../engine/render';
import { renderPng, svgImageToPng, toMonoBitmap } from '../render/raster';
import { loadBundledFonts } from './fonts';
import { createImageLoader, type ImageLoaderOptions } from './image-loader';

export function nodeRenderPorts(images: ImageLoaderOptions = {}): RenderPorts {
  return {
    fonts: loadBundledFonts(),
    loadImages: createImageLoader(images),
    toMonoBitmap: (scene, fonts) => toMonoBitmap(scene, fonts),
    renderPng: (scene, fonts, { dpi }) => renderPng(scene, fonts, { dpi }),
    rasterizeSvg: svgImageToPng,
  };
}
