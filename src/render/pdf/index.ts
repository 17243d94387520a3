export { renderPdf, type RenderPdfOptions, type SvgImageRasterizer } from './render-pdf';
