/**
 * Scenes → one PDF (one page per scene) with pdfkit. Vector throughout: shapes and barcode modules are PDF
 * paths, text stays text in the embedded, subset TTF (searchable, copyable), images are embedded as they
 * are. Pure: returns the bytes; pdfkit's own Node dependencies are the only environment it needs.
 */
import PDFDocument from 'pdfkit';
import type * as fontkit from 'fontkit';
import type { FontSet } from '../../layout/fonts';
import { linePathData } from '../../layout/glyph-paths';
import { assertNever } from '../../base/assert-never';
import type { BarcodeNode, Color, ImageNode, Scene, SceneNode, Stroke, TextNode } from '../../layout/scene';
import { dataUrl } from '../base64';
import { parseColor } from '../color';
import { ptPerSceneUnit } from '../../units/units';

/** Turns SVG bytes into PNG bytes of the given pixel size (Node: `svgImageToPng` from src/node/resvg). */
export type SvgImageRasterizer = (svg: Uint8Array, width: number, height: number) => Uint8Array;

export interface RenderPdfOptions {
  /** Document title (Info /Title). Default "Label". */
  title?: string;
  author?: string;
  subject?: string;
  /**
   * Info /CreationDate, default now. pdfkit derives the file ID from it, so a fixed date makes the output
   * byte-identical for identical scenes (golden tests).
   */
  creationDate?: Date;
  /**
   * PDF cannot hold SVG images. With this port an SVG image node is rasterised to PNG at `svgImageDpi`;
   * without it an SVG image node throws.
   */
  rasterizeSvg?: SvgImageRasterizer;
  /** Resolution for rasterised SVG images, in dots per inch. Default 300. */
  svgImageDpi?: number;
}

/**
 * Renders scenes as PDF pages, in order: one scene for the PDF of one copy, many for a batch. Each page is
 * the scene's size in points (`px` scenes: × 0.75; `dots` scenes: × 72 / dpi).
 */
export async function renderPdf(
  scenes: readonly Scene[],
  fonts: FontSet,
  opts: RenderPdfOptions = {},
): Promise<Uint8Array> {
  if (scenes.length === 0) throw new Error('renderPdf: no scenes (a PDF needs at least one page)');
  const doc = new PDFDocument({
    autoFirstPage: false,
    pdfVersion: '1.4', // 1.4: transparency (fill/stroke opacity) is part of the format
    info: {
      Title: opts.title ?? 'Label',
      Producer: 'LabelDesk',
      Creator: 'LabelDesk',
      CreationDate: opts.creationDate ?? new Date(),
      ...(opts.author !== undefined ? { Author: opts.author } : {}),
      ...(opts.subject !== undefined ? { Subject: opts.subject } : {}),
    },
  });
  const chunks: Uint8Array[] = [];
  const done = new Promise<void>((resolve, reject) => {
    doc.on('data', (chunk: Uint8Array) => chunks.push(chunk));
    doc.on('end', resolve);
    doc.on('error', reject);
  });

  const ctx: DrawContext = { doc, fonts, registered: new Set(), opts };
  for (const scene of scenes) drawPage(ctx, scene);
  doc.end();
  await done;

  const total = chunks.reduce((n, c) => n + c.length, 0);
  const bytes = new Uint8Array(total);
  let at = 0;
  for (const c of chunks) {
    bytes.set(c, at);
    at += c.length;
  }
  return bytes;
}

interface DrawContext {
  doc: PDFKit.PDFDocument;
  fonts: FontSet;
  /** Font keys already registered with this document. */
  registered: Set<string>;
  opts: RenderPdfOptions;
}

function drawPage(ctx: DrawContext, scene: Scene): void {
  const { doc } = ctx;
  // Scene units → points; the whole page is drawn in scene units under this one scale.
  const k = ptPerSceneUnit(scene.dpi);
  doc.addPage({ size: [scene.width * k, scene.height * k], margin: 0 });
  doc.save();
  doc.transform(k, 0, 0, k, 0, 0);
  paint(doc, scene.background, undefined, 1, 'nonzero', () => doc.rect(0, 0, scene.width, scene.height));
  for (const node of scene.nodes) drawNode(ctx, scene, node, 1);
  doc.restore();
}

/**
 * Draws one node. `opacity` is the product of enclosing group opacities; PDF has no group opacity in
 * pdfkit, so it is multiplied into each child's fill and stroke alpha (overlapping children of a
 * translucent group therefore show through each other, unlike SVG; rare on labels).
 */
function drawNode(ctx: DrawContext, scene: Scene, node: SceneNode, opacity: number): void {
  const { doc } = ctx;
  switch (node.kind) {
    case 'group': {
      doc.save();
      doc.transform(...node.transform);
      const o = opacity * Math.max(0, Math.min(1, node.opacity));
      for (const child of node.children) drawNode(ctx, scene, child, o);
      doc.restore();
      return;
    }
    case 'rect':
      paint(doc, node.fill, node.stroke, opacity, 'nonzero', () =>
        node.cornerRadius && node.cornerRadius > 0
          ? doc.roundedRect(node.x, node.y, node.width, node.height, node.cornerRadius)
          : doc.rect(node.x, node.y, node.width, node.height),
      );
      return;
    case 'ellipse':
      paint(doc, node.fill, node.stroke, opacity, 'nonzero', () =>
        doc.ellipse(node.cx, node.cy, node.rx, node.ry),
      );
      return;
    case 'path':
      paint(doc, node.fill, node.stroke, opacity, node.fillRule ?? 'nonzero', () => doc.path(node.d));
      return;
    case 'text':
      drawText(ctx, node, opacity);
      return;
    case 'image':
      drawImage(ctx, scene, node, opacity);
      return;
    case 'barcode':
      drawBarcode(ctx, node, opacity);
      return;
    default:
      assertNever(node, 'scene node');
  }
}

type DashArray = (this: PDFKit.PDFDocument, pattern: number[], options: object) => PDFKit.PDFDocument;

/**
 * Sets colours and line style, builds the path with `build`, then fills and/or strokes it, inside its own
 * graphics state. The state comes first because PDF allows no colour or ExtGState operator between path
 * construction and painting (pdfkit's `rect().fill(colour)` style would put it there).
 */
function paint(
  doc: PDFKit.PDFDocument,
  fill: Color | undefined,
  stroke: Stroke | undefined,
  opacity: number,
  fillRule: 'nonzero' | 'evenodd',
  build: () => unknown,
): void {
  const rule = fillRule === 'evenodd' ? 'even-odd' : 'non-zero';
  const hasStroke = stroke !== undefined && stroke.width > 0;
  if (fill === undefined && !hasStroke) return;
  doc.save();
  if (fill !== undefined) {
    const c = parseColor(fill);
    doc.fillColor(c.hex, c.alpha * opacity);
  }
  if (stroke !== undefined && hasStroke) {
    const c = parseColor(stroke.color);
    doc.strokeColor(c.hex, c.alpha * opacity);
    doc.lineWidth(stroke.width);
    if (stroke.lineCap) doc.lineCap(stroke.lineCap);
    if (stroke.lineJoin) doc.lineJoin(stroke.lineJoin);
    const dash = stroke.dash?.filter((v) => v > 0) ?? [];
    // pdfkit 0.17 takes a dash array (its typings only know a single length).
    if (dash.length > 0) (doc.dash as unknown as DashArray).call(doc, [...dash], {});
  }
  build();
  if (fill !== undefined && hasStroke) doc.fillAndStroke(rule);
  else if (fill !== undefined) doc.fill(rule);
  else doc.stroke();
  doc.restore();
}

/**
 * Each line is real text in the embedded, subset font, started at the line's first pen position on its
 * baseline and never re-wrapped (`lineBreak: false`). pdfkit shapes the characters again with fontkit and the
 * same font file, word by word; where that gives other glyphs than layout chose (mixed-direction lines, whose
 * bidi reordering pdfkit does not do), the line is drawn as the layout's glyph outlines instead, with the
 * text on top at zero opacity so it can still be searched and copied.
 */
function drawText(ctx: DrawContext, node: TextNode, opacity: number): void {
  const { doc } = ctx;
  const loaded = ctx.fonts.get(node.font);
  if (!ctx.registered.has(node.font)) {
    doc.registerFont(node.font, loaded.data);
    ctx.registered.add(node.font);
  }
  const c = parseColor(node.color);
  const alpha = c.alpha * opacity;
  doc.save();
  doc.font(node.font).fontSize(node.size);
  for (const line of node.lines) {
    if (line.text.trim() === '') continue;
    const x = line.x + (line.glyphs[0]?.x ?? 0);
    // pdfkit draws a line in one font: a line with fallback glyphs (issue #23) is drawn as outlines.
    const asText =
      line.glyphs.every((g) => g.font === undefined) &&
      sameGlyphs(pdfkitGlyphIds(loaded.font, line.text), line.glyphs);
    if (!asText) {
      paint(doc, node.color, undefined, opacity, 'nonzero', () =>
        doc.path(linePathData(node, line, ctx.fonts)),
      );
    }
    // A line with fallback glyphs keeps no text layer here: pdfkit would set it in the node's font alone, whose
    // .notdef boxes would stand for the characters it lacks (the direct writer keeps such text searchable).
    if (line.glyphs.some((g) => g.font !== undefined)) continue;
    doc.fillColor(c.hex, asText ? alpha : 0);
    doc.text(line.text, x, line.baseline, { lineBreak: false, baseline: 'alphabetic' });
  }
  doc.restore();
}

/** The glyph ids pdfkit draws for `text`: it shapes word by word (each with its trailing space), fontkit defaults. */
function pdfkitGlyphIds(font: fontkit.Font, text: string): number[] {
  const ids: number[] = [];
  for (const word of text.match(/[^ \t]*[ \t]|[^ \t]+$/g) ?? []) {
    for (const g of font.layout(word).glyphs) ids.push(g.id);
  }
  return ids;
}

function sameGlyphs(ids: readonly number[], glyphs: TextNode['lines'][number]['glyphs']): boolean {
  return ids.length === glyphs.length && glyphs.every((g, i) => g.id === ids[i]);
}

function drawImage(ctx: DrawContext, scene: Scene, node: ImageNode, opacity: number): void {
  const { doc } = ctx;
  let src: string;
  if (node.mime === 'image/svg+xml') {
    if (!ctx.opts.rasterizeSvg) {
      throw new Error(
        'renderPdf: an SVG image cannot be embedded in PDF; pass opts.rasterizeSvg (svgImageToPng from src/node/resvg)',
      );
    }
    const dpi = ctx.opts.svgImageDpi ?? 300;
    const toPx = (v: number): number => Math.max(1, Math.round((v / scene.dpi) * dpi));
    src = dataUrl('image/png', ctx.opts.rasterizeSvg(node.data, toPx(node.width), toPx(node.height)));
  } else {
    // A data: URL (not bytes) so pdfkit's registry embeds a logo once however many pages use it.
    src = dataUrl(node.mime, node.data);
  }
  doc.save();
  if (opacity < 1) doc.opacity(opacity);
  doc.image(src, node.x, node.y, { width: node.width, height: node.height });
  doc.restore();
}

/** Barcode modules as one filled path of rectangles: exact vector bars, never an image. */
function drawBarcode(ctx: DrawContext, node: BarcodeNode, opacity: number): void {
  const { doc } = ctx;
  const r = node.rects;
  paint(doc, node.color, undefined, opacity, 'nonzero', () => {
    for (let i = 0; i + 3 < r.length; i += 4) {
      const w = r[i + 2] ?? 0;
      const h = r[i + 3] ?? 0;
      if (w > 0 && h > 0) doc.rect(r[i] ?? 0, r[i + 1] ?? 0, w, h);
    }
  });
  if (node.text) drawText(ctx, node.text, opacity);
}
