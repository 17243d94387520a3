/**
 * Thrown for input the direct writer does not handle itself (an interlaced PNG, tRNS transparency, path data it
 * cannot parse). src/render/pdf renders that document with pdfkit instead, so callers never see it.
 */
export class DirectPdfUnsupported extends Error {
  constructor(what: string) {
    super(`pdf-direct: ${what} is not supported`);
    this.name = 'DirectPdfUnsupported';
  }
}
