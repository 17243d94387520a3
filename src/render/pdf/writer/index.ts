export { renderPdfDirect, type DirectPdfOptions, type SvgImageRasterizer } from './render-pdf-direct';
export { DirectPdfUnsupported } from './unsupported';
export { fflateDeflate, type Deflate } from './deflate';
