/**
 * Scene → SVG string. Self-contained: text is glyph outlines (see glyph-defs.ts), images are data: URLs,
 * so the file renders the same in a browser and in resvg with no system fonts. Pure; returns data.
 */
import type { FontSet } from '../../layout/fonts';
import { assertNever } from '../../base/assert-never';
import type {
  BarcodeNode,
  GroupNode,
  ImageNode,
  Matrix,
  Scene,
  SceneNode,
  TextNode,
} from '../../layout/scene';
import { dataUrl } from '../base64';
import { MM_PER_INCH } from '../../units/units';
import { GlyphDefs } from './glyph-defs';
import { esc, fillAttrs, fine, num, strokeAttrs } from './svg-format';

/** A physical unit of length an SVG root can declare. */
export type SvgLengthUnit = 'in' | 'mm' | 'cm';

const PER_INCH: Record<SvgLengthUnit, number> = { in: 1, mm: MM_PER_INCH, cm: MM_PER_INCH / 10 };

/** The unit an SVG of a label declares its size in: the stage's own, or inches for a px stage. */
export function svgLengthUnit(stageUnit: 'in' | 'mm' | 'cm' | 'px'): SvgLengthUnit {
  return stageUnit === 'px' ? 'in' : stageUnit;
}

export interface RenderSvgOptions {
  /**
   * Size of the root element in px, overriding the scene's own (the viewBox stays in scene units, so the
   * drawing is scaled). The rasteriser uses it to render at a given dpi with an exact pixel size.
   */
  size?: { width: number; height: number };
  /**
   * Unit of the root's physical width and height when no `size` is given (default inches): a 4 × 6 in label
   * declares `width="4in" height="6in"`, so dpi-aware tools (rsvg-convert -d, Inkscape, print dialogs) render
   * it at the label's real size.
   */
  unit?: SvgLengthUnit;
  /** Prefix for the ids of glyph definitions, for several SVGs inlined in one HTML page. Default "ld-". */
  idPrefix?: string;
}

const isIdentity = (m: Matrix): boolean =>
  m[0] === 1 && m[1] === 0 && m[2] === 0 && m[3] === 1 && m[4] === 0 && m[5] === 0;

/**
 * Draws a Scene as an SVG document. The root width/height are the label's physical size in `opts.unit`
 * (scene units over the scene's dpi), or `opts.size` px. The viewBox is in scene units: CSS px for a `px`
 * scene, dots for a `dots` scene. Coordinates are written with at most 2 decimals.
 */
export function renderSvg(scene: Scene, fonts: FontSet, opts: RenderSvgOptions = {}): string {
  const glyphs = new GlyphDefs(fonts, opts.idPrefix ?? 'ld-');
  const out: string[] = [];
  const w = num(scene.width);
  const h = num(scene.height);
  out.push(`<rect width="${w}" height="${h}"${fillAttrs(scene.background)}/>`);
  for (const node of scene.nodes) drawNode(node, glyphs, out);

  const size = opts.size;
  const unit = opts.unit ?? 'in';
  const physical = (length: number) => `${lengthIn(length / scene.dpi, unit)}${unit}`;
  const root = size
    ? `width="${num(size.width)}" height="${num(size.height)}" preserveAspectRatio="none"`
    : `width="${physical(scene.width)}" height="${physical(scene.height)}"`;
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" version="1.1" ${root} viewBox="0 0 ${w} ${h}">` +
    glyphs.toSvg() +
    out.join('') +
    '</svg>'
  );
}

/** Inches in `unit`, at most 4 decimals (0.0001 in: far below a printer dot). */
function lengthIn(inches: number, unit: SvgLengthUnit): string {
  const r = Math.round(inches * PER_INCH[unit] * 10_000) / 10_000;
  return String(r);
}

function drawNode(node: SceneNode, glyphs: GlyphDefs, out: string[]): void {
  switch (node.kind) {
    case 'group':
      drawGroup(node, glyphs, out);
      return;
    case 'rect': {
      const r = node.cornerRadius && node.cornerRadius > 0 ? ` rx="${num(node.cornerRadius)}"` : '';
      out.push(
        `<rect x="${num(node.x)}" y="${num(node.y)}" width="${num(node.width)}" height="${num(node.height)}"${r}` +
          `${fillAttrs(node.fill)}${strokeAttrs(node.stroke)}/>`,
      );
      return;
    }
    case 'ellipse':
      out.push(
        `<ellipse cx="${num(node.cx)}" cy="${num(node.cy)}" rx="${num(node.rx)}" ry="${num(node.ry)}"` +
          `${fillAttrs(node.fill)}${strokeAttrs(node.stroke)}/>`,
      );
      return;
    case 'path': {
      const rule = node.fillRule === 'evenodd' ? ' fill-rule="evenodd"' : '';
      out.push(`<path d="${esc(node.d)}"${fillAttrs(node.fill)}${rule}${strokeAttrs(node.stroke)}/>`);
      return;
    }
    case 'text':
      drawText(node, glyphs, out);
      return;
    case 'image':
      drawImage(node, out);
      return;
    case 'barcode':
      drawBarcode(node, glyphs, out);
      return;
    default:
      assertNever(node, 'scene node');
  }
}

function drawGroup(node: GroupNode, glyphs: GlyphDefs, out: string[]): void {
  const m = node.transform;
  let attrs = '';
  if (!isIdentity(m)) {
    attrs += ` transform="matrix(${fine(m[0])} ${fine(m[1])} ${fine(m[2])} ${fine(m[3])} ${num(m[4])} ${num(m[5])})"`;
  }
  if (node.opacity < 1) attrs += ` opacity="${fine(Math.max(0, node.opacity))}"`;
  out.push(`<g${attrs}>`);
  for (const child of node.children) drawNode(child, glyphs, out);
  out.push('</g>');
}

/** Each glyph is a `<use>` of its outline, moved to its pen position and scaled from font units. */
function drawText(node: TextNode, glyphs: GlyphDefs, out: string[]): void {
  const scaleOf = (key: string): string => fine(node.size / glyphs.fontOf(key).unitsPerEm);
  const nodeScale = scaleOf(node.font);
  const label = node.lines.map((l) => l.text).join(' ');
  out.push(`<g${fillAttrs(node.color)} aria-label="${esc(label)}">`);
  for (const line of node.lines) {
    for (const g of line.glyphs) {
      // A fallback font's glyph (issue #23): its own outline and units per em.
      const key = g.font ?? node.font;
      const s = g.font === undefined ? nodeScale : scaleOf(g.font);
      const id = glyphs.ref(key, g.id);
      if (!id) continue;
      out.push(
        `<use href="#${esc(id)}" transform="translate(${num(line.x + g.x)} ${num(line.baseline + g.y)}) scale(${s} -${s})"/>`,
      );
    }
  }
  out.push('</g>');
}

function drawImage(node: ImageNode, out: string[]): void {
  // Stretched into its box like Konva draws images; layout already decided the box.
  out.push(
    `<image x="${num(node.x)}" y="${num(node.y)}" width="${num(node.width)}" height="${num(node.height)}"` +
      ` preserveAspectRatio="none" href="${dataUrl(node.mime, node.data)}"/>`,
  );
}

/** All modules as one path of closed rectangles; crispEdges keeps bar edges on whole pixels. */
function drawBarcode(node: BarcodeNode, glyphs: GlyphDefs, out: string[]): void {
  const d: string[] = [];
  const r = node.rects;
  for (let i = 0; i + 3 < r.length; i += 4) {
    const x = r[i] ?? 0;
    const y = r[i + 1] ?? 0;
    const w = r[i + 2] ?? 0;
    const h = r[i + 3] ?? 0;
    if (w <= 0 || h <= 0) continue;
    d.push(`M${num(x)} ${num(y)}h${num(w)}v${num(h)}h${num(-w)}z`);
  }
  if (d.length > 0) {
    out.push(`<path d="${d.join('')}"${fillAttrs(node.color)} shape-rendering="crispEdges"/>`);
  }
  if (node.text) drawText(node.text, glyphs, out);
}
