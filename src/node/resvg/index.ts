/** Node-only: raster outputs through resvg, and the default 1-bit path for ZPL (pure rasteriser + resvg for images). */
export {
  rasterizeRgba,
  rasterSize,
  renderPng,
  svgImageToPng,
  toMonoBitmap,
  type RasterOptions,
  type RgbaImage,
} from './rasterize';
export {
  monoRasterStats,
  resetMonoRasterStats,
  resvgImageSource,
  toMonoBitmapFast,
} from './dots-with-fallback';
export { setPngDpi } from './png-dpi';
