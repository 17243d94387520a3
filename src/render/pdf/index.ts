/**
 * PDF output. Two writers behind one signature: `direct` (src/render/pdf/writer: hand-written PDF from the
 * Scene's glyphs, cached font subsets and images; the default: ~1 ms instead of ~50 ms per distinct shipping
 * label) and `pdfkit` (render-pdf.ts). A document the direct writer does not handle (DirectPdfUnsupported: an interlaced PNG,
 * tRNS transparency, unparsable path data) is rendered by pdfkit instead.
 */
import type { FontSet } from '../../layout/fonts';
import type { Scene } from '../../layout/scene';
import { DirectPdfUnsupported, renderPdfDirect, type Deflate } from './writer';
import { renderPdf as renderPdfKit, type RenderPdfOptions as PdfkitOptions } from './pdfkit';

export type { SvgImageRasterizer } from './pdfkit';

export type PdfWriter = 'direct' | 'pdfkit';

export interface RenderPdfOptions extends PdfkitOptions {
  /** Which writer makes the file. Default `direct`. */
  writer?: PdfWriter;
  /** zlib compressor for the direct writer's streams (Node: native zlib); default fflate. */
  deflate?: Deflate;
}

/** Renders scenes as PDF pages, in order: one scene for the PDF of one copy, many for a batch. */
export async function renderPdf(
  scenes: readonly Scene[],
  fonts: FontSet,
  opts: RenderPdfOptions = {},
): Promise<Uint8Array> {
  const { writer = 'direct', deflate, ...common } = opts;
  if (writer === 'pdfkit') return renderPdfKit(scenes, fonts, common);
  try {
    return renderPdfDirect(scenes, fonts, { ...common, ...(deflate ? { deflate } : {}) });
  } catch (e) {
    if (e instanceof DirectPdfUnsupported) return renderPdfKit(scenes, fonts, common);
    throw e;
  }
}
