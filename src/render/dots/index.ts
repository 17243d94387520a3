/** The pure 1-bit rasteriser: Scene → MonoBitmap in printer dots, no pixels in between (see render-mono.ts). */
export { monoSize, MonoUnsupported, renderMono, type MonoRenderOptions } from './render-mono';
export type { ImagePlacement, MonoImageSource } from './image-dots';
