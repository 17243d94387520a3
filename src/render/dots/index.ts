/** The pure 1-bit rasteriser: Scene → MonoBitmap in printer dots, no pixels in between (see render-mono.ts). */
export { monoSize, renderMono, type MonoRenderOptions } from './render-mono';
export { MonoUnsupported } from './unsupported';
export type { ImagePlacement, MonoImageSource } from './image-dots';
