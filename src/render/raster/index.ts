/** Node-only: raster outputs through resvg. */
export {
  rasterizeRgba,
  rasterSize,
  renderPng,
  svgImageToPng,
  toMonoBitmap,
  type RasterOptions,
  type RgbaImage,
} from './rasterize';
export { setPngDpi } from './png-dpi';
