/**
 * Scene → 1-bit bitmap without going through pixels: every primitive is drawn in printer dots straight into a
 * packed MonoBitmap. Barcode modules are sampled at dot centres (resvg draws them with crispEdges); everything
 * else reproduces resvg's anti-aliasing (a 4 × 4 sub-sample grid per dot, see EdgeList.fill) and its 50 %
 * threshold, so the bitmap is the one the resvg path made, less than 0.5 % of dots apart on every bundled
 * template, at a fraction of its time and memory.
 *
 *  - barcode modules and axis-aligned rects: whole spans/bytes, no polygon work (the fast path);
 *  - rects, rounded rects, ellipses, paths: flattened to polygons, nonzero or even-odd;
 *  - strokes: polygons per segment, join and cap (stroke.ts), dashes;
 *  - text: glyph coverage cached per font, glyph, size and quarter-dot phase (glyph-coverage.ts), or, under a
 *    rotation, outlines flattened once per font, glyph and size (glyph-contours.ts);
 *  - group transforms (any matrix) and opacity; colours with alpha become the grey they make over white and
 *    over black, thresholded like the resvg path, so a shape sets dots, clears them (white on black) or leaves them;
 *  - images: decoded through a port and thresholded/dithered once per image, size and mode (image-dots.ts);
 *  - whatever is drawn is kept as a mask per shape, transform and ink (patch-cache.ts): the static part of a
 *    template (frame, captions, sender) costs one blit per label.
 *
 * What it cannot draw faithfully throws MonoUnsupported, and the Node port falls back to resvg for that label
 * (src/node/resvg/dots-with-fallback.ts): an image under a rotation, skew or flip; a transparent image over something
 * already drawn (its dots would depend on the grey beneath, which a 1-bit canvas no longer has); malformed path
 * data or non-finite coordinates (resvg draws a prefix of such a path); a dash pattern far finer than a dot;
 * images with no image source (browser). Pure: no node:* imports.
 */
import type { FontSet } from '../../layout/fonts';
import { assertNever } from '../../base/assert-never';
import type {
  BarcodeNode,
  Color,
  ImageNode,
  Matrix,
  Scene,
  SceneNode,
  Stroke,
  TextNode,
} from '../../layout/scene';
import { createMonoBitmap, type MonoBitmap } from '../bitmap';
import type { MonoOptions } from '../rgba-to-mono';
import { EdgeList, type FillRule } from './edges';
import { axisAligned, multiply, scaleOf } from './matrix';
import { glyphRunPatch, type PlacedGlyph } from './glyph-coverage';
import { glyphContours } from './glyph-contours';
import { drawImageDots, imageDots, type MonoImageSource } from './image-dots';
import { blitPatch, cachedPatch, patchFromEdges, storePatch } from './patch-cache';
import { arcSegments, flattenPath, PathDataError, type Polyline } from './flatten';
import { anyBlack, dotFrom, fillDotRect, fillRectAntialiased, type Ink } from './spans';
import { strokePolygons } from './stroke';
import { inkTable, type InkTable } from './inks';
import { textKey } from './text-key';
import { MonoUnsupported } from './unsupported';

export interface MonoRenderOptions extends MonoOptions {
  /** Output resolution; default the scene's own (a `dots` scene: one dot per unit). */
  dpi?: number;
  /** Dots per scene unit, instead of `dpi`. */
  scale?: number;
  /** Decodes images; without it a scene with an image is MonoUnsupported. */
  images?: MonoImageSource;
}

/** Chord error of flattened curves, in dots: far below what a 50 % threshold can show. */
const TOLERANCE_DOTS = 0.1;

/** Bitmap size of a scene: whole dots, rounded (4 in at 203 dpi → 812), as the resvg path sizes it. */
export function monoSize(
  scene: Scene,
  opts: { dpi?: number; scale?: number } = {},
): {
  width: number;
  height: number;
} {
  const scale = opts.scale ?? (opts.dpi ?? scene.dpi) / scene.dpi;
  if (!(scale > 0)) throw new Error(`raster scale must be positive, got ${scale}`);
  return {
    width: Math.max(1, Math.round(scene.width * scale)),
    height: Math.max(1, Math.round(scene.height * scale)),
  };
}

/** Draws `scene` into a new 1-bit bitmap. Throws MonoUnsupported when it cannot do so faithfully. */
export function renderMono(scene: Scene, fonts: FontSet, opts: MonoRenderOptions = {}): MonoBitmap {
  const { width, height } = monoSize(scene, opts);
  const bitmap = createMonoBitmap(width, height);
  // The viewBox is stretched to the rounded size, exactly as renderSvg + resvg do.
  const base: Matrix = [width / scene.width, 0, 0, height / scene.height, 0, 0];
  const painter = new MonoPainter(bitmap, fonts, opts);
  try {
    if (painter.paintOf(scene.background, 1)?.op === 'set') fillDotRect(bitmap, 0, 0, width, height, 'set');
    for (const node of scene.nodes) painter.draw(node, base, 1);
  } catch (e) {
    if (e instanceof PathDataError || e instanceof RangeError) throw new MonoUnsupported(e.message);
    throw e;
  }
  return bitmap;
}

const hundredths = (n: number): number => Math.round(n * 100) / 100;

class MonoPainter {
  private readonly edges = new EdgeList();
  private readonly inks: InkTable;

  constructor(
    private readonly bitmap: MonoBitmap,
    private readonly fonts: FontSet,
    private readonly opts: MonoRenderOptions,
  ) {
    this.inks = inkTable(opts.threshold ?? 128);
  }

  /** What a colour at `opacity` does to a dot (inks.ts). */
  paintOf(color: Color | undefined, opacity: number): Ink | undefined {
    return this.inks.paintOf(color, opacity);
  }

  draw(node: SceneNode, m: Matrix, opacity: number): void {
    switch (node.kind) {
      case 'group': {
        const o = opacity * Math.max(0, Math.min(1, node.opacity));
        if (o <= 0) return;
        const gm = multiply(m, node.transform);
        for (const child of node.children) this.draw(child, gm, o);
        return;
      }
      case 'rect':
        this.rect(
          node.x,
          node.y,
          node.width,
          node.height,
          node.cornerRadius ?? 0,
          node.fill,
          node.stroke,
          m,
          opacity,
        );
        return;
      case 'ellipse': {
        if (!(node.rx > 0 && node.ry > 0)) return;
        const geometry = (): Polyline[] => {
          const n = Math.max(8, arcSegments(Math.max(node.rx, node.ry), 2 * Math.PI, this.tolerance(m)));
          const points: number[] = [];
          for (let i = 0; i < n; i++) {
            const t = (2 * Math.PI * i) / n;
            points.push(node.cx + node.rx * Math.cos(t), node.cy + node.ry * Math.sin(t));
          }
          return [{ points, closed: true }];
        };
        const key = `e|${node.cx}|${node.cy}|${node.rx}|${node.ry}`;
        this.shape(key, geometry, 'nonzero', node.fill, node.stroke, m, opacity);
        return;
      }
      case 'path': {
        const geometry = (): Polyline[] => flattenPath(node.d, this.tolerance(m));
        this.shape(`p|${node.d}`, geometry, node.fillRule ?? 'nonzero', node.fill, node.stroke, m, opacity);
        return;
      }
      case 'text':
        this.text(node, m, opacity);
        return;
      case 'image':
        this.image(node, m, opacity);
        return;
      case 'barcode':
        this.barcode(node, m, opacity);
        return;
      default:
        assertNever(node, 'scene node');
    }
  }

  private tolerance(m: Matrix): number {
    const s = scaleOf(m);
    return s > 0 ? TOLERANCE_DOTS / s : 1;
  }

  private rect(
    x: number,
    y: number,
    w: number,
    h: number,
    radius: number,
    fill: Color | undefined,
    stroke: Stroke | undefined,
    m: Matrix,
    opacity: number,
  ): void {
    if (!(w > 0 && h > 0)) return;
    const r = Math.min(Math.max(0, radius), w / 2, h / 2);
    const strokePaint = stroke && stroke.width > 0 ? this.paintOf(stroke.color, opacity) : undefined;
    const simpleStroke =
      strokePaint === undefined ||
      ((stroke?.lineJoin ?? 'miter') === 'miter' && !(stroke?.dash && stroke.dash.length > 0));
    if (r === 0 && axisAligned(m) && simpleStroke) {
      // Axis-aligned: the fill and a mitred stroke are unions of rectangles; write their spans directly.
      this.deviceRect(m, x, y, x + w, y + h, this.paintOf(fill, opacity));
      if (stroke && strokePaint) {
        const hw = stroke.width / 2;
        const [ox0, oy0, ox1, oy1] = [x - hw, y - hw, x + w + hw, y + h + hw];
        const [ix0, iy0, ix1, iy1] = [x + hw, y + hw, x + w - hw, y + h - hw];
        if (ix0 >= ix1 || iy0 >= iy1) this.deviceRect(m, ox0, oy0, ox1, oy1, strokePaint);
        else {
          this.deviceRect(m, ox0, oy0, ox1, iy0, strokePaint);
          this.deviceRect(m, ox0, iy1, ox1, oy1, strokePaint);
          this.deviceRect(m, ox0, iy0, ix0, iy1, strokePaint);
          this.deviceRect(m, ix1, iy0, ox1, iy1, strokePaint);
        }
      }
      return;
    }
    const geometry = (): Polyline[] => {
      if (r === 0) return [{ points: [x, y, x + w, y, x + w, y + h, x, y + h], closed: true }];
      const d =
        `M${x + r} ${y}H${x + w - r}A${r} ${r} 0 0 1 ${x + w} ${y + r}V${y + h - r}` +
        `A${r} ${r} 0 0 1 ${x + w - r} ${y + h}H${x + r}A${r} ${r} 0 0 1 ${x} ${y + h - r}` +
        `V${y + r}A${r} ${r} 0 0 1 ${x + r} ${y}Z`;
      return flattenPath(d, this.tolerance(m));
    };
    this.shape(`r|${x}|${y}|${w}|${h}|${r}`, geometry, 'nonzero', fill, stroke, m, opacity);
  }

  /**
   * A local-space axis-aligned rectangle under an axis-aligned matrix: anti-aliased like resvg's rects, or
   * sampled at dot centres (`crisp`, resvg's crispEdges for barcode modules).
   */
  private deviceRect(
    m: Matrix,
    x0: number,
    y0: number,
    x1: number,
    y1: number,
    ink: Ink | undefined,
    crisp = false,
  ): void {
    if (!ink) return;
    const ax = m[0] * x0 + m[4];
    const bx = m[0] * x1 + m[4];
    const ay = m[3] * y0 + m[5];
    const by = m[3] * y1 + m[5];
    const [left, right] = ax < bx ? [ax, bx] : [bx, ax];
    const [top, bottom] = ay < by ? [ay, by] : [by, ay];
    if (crisp) fillDotRect(this.bitmap, dotFrom(left), dotFrom(top), dotFrom(right), dotFrom(bottom), ink.op);
    else fillRectAntialiased(this.bitmap, left, top, right, bottom, ink);
  }

  /**
   * Fill, then stroke, of a shape given as flattened polylines (computed only on a cache miss): each becomes a
   * mask cached under `key` (the shape's geometry) plus transform, ink and label size, so a static shape costs
   * one blit per label.
   */
  private shape(
    key: string,
    geometry: () => readonly Polyline[],
    rule: FillRule,
    fill: Color | undefined,
    stroke: Stroke | undefined,
    m: Matrix,
    opacity: number,
  ): void {
    const fillPaint = this.paintOf(fill, opacity);
    const strokePaint = stroke && stroke.width > 0 ? this.paintOf(stroke.color, opacity) : undefined;
    if (!fillPaint && !strokePaint) return;
    const base = `${key}|${rule}|${m.join(',')}|${this.bitmap.width}x${this.bitmap.height}`;
    const fillKey = fillPaint ? `${base}|f${fillPaint.need}` : '';
    const strokeKey =
      stroke && strokePaint
        ? `${base}|s${strokePaint.need}|${stroke.width}|${stroke.lineCap ?? ''}|${stroke.lineJoin ?? ''}|${stroke.dash?.join(' ') ?? ''}`
        : '';
    let fillPatch = fillPaint ? cachedPatch(fillKey) : null;
    let strokePatch = strokePaint ? cachedPatch(strokeKey) : null;
    if (fillPatch === undefined || strokePatch === undefined) {
      const lines = geometry();
      const edges = this.edges;
      if (fillPaint && fillPatch === undefined) {
        edges.reset();
        for (const line of lines) this.addContour(line.points, line.points.length, m);
        fillPatch = patchFromEdges(edges, this.bitmap, rule, fillPaint, true);
        storePatch(fillKey, fillPatch);
      }
      if (stroke && strokePaint && strokePatch === undefined) {
        edges.reset();
        strokePolygons(lines, stroke, this.tolerance(m), (poly) => this.addContour(poly, poly.length, m));
        strokePatch = patchFromEdges(edges, this.bitmap, 'nonzero', strokePaint, true);
        storePatch(strokeKey, strokePatch);
      }
    }
    if (fillPaint && fillPatch) blitPatch(this.bitmap, fillPatch, fillPaint.op);
    if (strokePaint && strokePatch) blitPatch(this.bitmap, strokePatch, strokePaint.op);
  }

  private addContour(points: ArrayLike<number>, n: number, m: Matrix): void {
    if (n < 4) return;
    const [a, b, c, d, e, f] = m;
    const edges = this.edges;
    for (let i = 0; i + 1 < n; i += 2) {
      const x = points[i] ?? 0;
      const y = points[i + 1] ?? 0;
      const dx = a * x + c * y + e;
      const dy = b * x + d * y + f;
      if (i === 0) edges.moveTo(dx, dy);
      else edges.lineTo(dx, dy);
    }
    edges.close();
  }

  private text(node: TextNode, m: Matrix, opacity: number): void {
    const paint = this.paintOf(node.color, opacity);
    if (!paint) return;
    const key = textKey(node, m, paint, this.bitmap);
    let patch = cachedPatch(key);
    if (patch === undefined) {
      const font = this.fonts.get(node.font);
      const s = node.size / font.font.unitsPerEm;
      const dotsPerEm = node.size * scaleOf(m);
      const edges = this.edges;
      edges.reset();
      if (axisAligned(m) && m[0] > 0 && m[3] > 0 && dotsPerEm > 0) {
        // Upright text: glyph coverage masks, cached per glyph, size and quarter-dot phase.
        const placed: PlacedGlyph[] = [];
        for (const line of node.lines) {
          for (const g of line.glyphs) {
            const p: PlacedGlyph = {
              id: g.id,
              x: m[0] * (line.x + g.x) + m[4],
              y: m[3] * (line.baseline + g.y) + m[5],
            };
            if (g.font !== undefined) {
              // A fallback font's glyph (issue #23), scaled by that font's units per em.
              const other = this.fonts.get(g.font);
              const k = node.size / other.font.unitsPerEm;
              p.font = { font: other, sx: m[0] * k, sy: m[3] * k };
            }
            placed.push(p);
          }
        }
        patch = glyphRunPatch(
          edges,
          font,
          m[0] * s,
          m[3] * s,
          placed,
          paint,
          this.bitmap.width,
          this.bitmap.height,
        );
        storePatch(key, patch);
      } else if (dotsPerEm > 0) {
        for (const line of node.lines) {
          for (const g of line.glyphs) {
            const gFont = g.font === undefined ? font : this.fonts.get(g.font);
            const gs = g.font === undefined ? s : node.size / gFont.font.unitsPerEm;
            const contours = glyphContours(gFont, g.id, dotsPerEm);
            if (contours.length === 0) continue;
            // Font units (y up) → scene units at the pen position → device.
            const gm = multiply(m, [gs, 0, 0, -gs, line.x + g.x, line.baseline + g.y]);
            for (const contour of contours) this.addContour(contour, contour.length, gm);
          }
        }
      }
      if (patch === undefined) {
        patch = patchFromEdges(edges, this.bitmap, 'nonzero', paint, true);
        storePatch(key, patch);
      }
    }
    if (patch) blitPatch(this.bitmap, patch, paint.op);
  }

  private barcode(node: BarcodeNode, m: Matrix, opacity: number): void {
    const paint = this.paintOf(node.color, opacity);
    const r = node.rects;
    if (paint) {
      // Modules are drawn with crispEdges (no anti-aliasing) by the resvg path too: whole dots stay whole.
      if (axisAligned(m)) {
        for (let i = 0; i + 3 < r.length; i += 4) {
          const x = r[i] ?? 0;
          const y = r[i + 1] ?? 0;
          const w = r[i + 2] ?? 0;
          const h = r[i + 3] ?? 0;
          if (w > 0 && h > 0) this.deviceRect(m, x, y, x + w, y + h, paint, true);
        }
      } else {
        const edges = this.edges;
        edges.reset();
        for (let i = 0; i + 3 < r.length; i += 4) {
          const x = r[i] ?? 0;
          const y = r[i + 1] ?? 0;
          const w = r[i + 2] ?? 0;
          const h = r[i + 3] ?? 0;
          if (w > 0 && h > 0) this.addContour([x, y, x + w, y, x + w, y + h, x, y + h], 8, m);
        }
        edges.fill(this.bitmap, 'nonzero', paint, false);
      }
    }
    if (node.text) this.text(node.text, m, opacity);
  }

  private image(node: ImageNode, m: Matrix, opacity: number): void {
    if (!(node.width > 0 && node.height > 0)) return;
    const source = this.opts.images;
    if (!source) throw new MonoUnsupported('an image needs an image source');
    if (!axisAligned(m) || !(m[0] > 0 && m[3] > 0)) {
      throw new MonoUnsupported('an image under a rotation, skew or flip');
    }
    // The box as renderSvg writes it (0.01 scene unit), so resvg decodes the image at the very same sub-dot
    // position: error diffusion amplifies the smallest grey difference into a different dot pattern.
    const x = m[0] * hundredths(node.x) + m[4];
    const y = m[3] * hundredths(node.y) + m[5];
    const w = m[0] * hundredths(node.width);
    const h = m[3] * hundredths(node.height);
    if (![x, y, w, h].every(Number.isFinite)) throw new MonoUnsupported('non-finite image box');
    const x0 = Math.floor(x);
    const y0 = Math.floor(y);
    const x1 = Math.ceil(x + w);
    const y1 = Math.ceil(y + h);
    // Clip the box to the label (plus nothing: dots outside are never drawn).
    const bx0 = Math.max(0, x0);
    const by0 = Math.max(0, y0);
    const bx1 = Math.min(this.bitmap.width, x1);
    const by1 = Math.min(this.bitmap.height, y1);
    if (bx0 >= bx1 || by0 >= by1) return;
    const placement = {
      boxX: bx0,
      boxY: by0,
      boxWidth: bx1 - bx0,
      boxHeight: by1 - by0,
      x,
      y,
      width: w,
      height: h,
    };
    const dots = imageDots(node, placement, opacity, source, this.opts);
    if (!dots.opaque && anyBlack(this.bitmap, bx0, by0, bx1, by1)) {
      throw new MonoUnsupported('a transparent image over other content');
    }
    drawImageDots(this.bitmap, dots);
  }
}
