/**
 * Markup → Scene for one target: the single place where markup geometry (px at 96 dpi, Konva conventions)
 * becomes absolute drawing primitives in the target's units. Every backend draws the Scene it returns, so the
 * preview, the PDF, the SVG and the printed ZPL agree line for line. Pure: fonts and images come in.
 */
import { normaliseColor, isInvisible } from '../model/color';
import type { MarkupElement, MarkupElementOf } from '../model/elements';
import type { Markup } from '../model/schema';
import { stageToInches, PX_PER_INCH } from '../units/units';
import { encodeBarcode, placeBarcode, symbolKind, BarcodeValueError } from './barcode';
import type { EncodeOptions } from './barcode/geometry';
import { naturalBarcodeBox } from './barcode/natural-size';
import { normaliseStyle, type FontSet } from './fonts';
import { ImageError, type ImageAssets } from './images';
import { assertNever } from '../base/assert-never';
import {
  IDENTITY,
  type Matrix,
  type RfidWrite,
  type Scene,
  type SceneNode,
  type Stroke,
  type TextCut,
  type TextNode,
} from './scene';
import { arcPath, linePath, ringPath, wedgePath } from './shapes';
import { layoutText } from './text';
import { validateEpcHex, validateWordsHex } from '../model/epc';

export type LayoutTarget = { unit: 'px' } | { unit: 'dots'; dpi: number };

export interface LayoutOptions {
  fonts: FontSet;
  /** Every image URL of the markup, loaded (see collectImageUrls). */
  images?: ImageAssets;
  target: LayoutTarget;
  /**
   * 'throw' (outputs: a bad barcode value or a missing image fails the render with a typed error) or 'mark'
   * (live preview: draw a hatched box and add a warning, so typing a half-finished value never blanks it).
   */
  onInvalid?: 'throw' | 'mark';
}

/** A markup element that cannot be drawn as given (bad barcode value, missing image, bad RFID hex). */
export class ElementError extends Error {
  constructor(
    readonly element: number,
    readonly elementType: string,
    problem: string,
    override readonly cause?: unknown,
  ) {
    super(`elements[${element}] (${elementType}): ${problem}`);
    this.name = 'ElementError';
  }
}

const BLACK = '#000000';
const DEFAULT_BARCODE_BOX = { linear: { width: 200, height: 80 }, matrix: { width: 100, height: 100 } };

interface Ctx {
  opts: LayoutOptions;
  /** Scene units per markup px. */
  k: number;
  dpi: number;
  raster: boolean;
  stageWidthPx: number;
  warnings: string[];
  cuts: TextCut[];
  rfid: RfidWrite[];
}

/** Lays out one markup (one copy) for a target. */
export function layout(markup: Markup, opts: LayoutOptions): Scene {
  const dpi = opts.target.unit === 'dots' ? opts.target.dpi : PX_PER_INCH;
  const widthIn = stageToInches(markup.stage.width, markup.stage.unit);
  const heightIn = stageToInches(markup.stage.height, markup.stage.unit);
  const raster = opts.target.unit === 'dots';
  const ctx: Ctx = {
    opts,
    k: dpi / PX_PER_INCH,
    dpi,
    raster,
    stageWidthPx: widthIn * PX_PER_INCH,
    warnings: [],
    cuts: [],
    rfid: [],
  };
  const nodes: SceneNode[] = [];
  markup.elements.forEach((el, index) => {
    if (el.visible === false) return;
    const node = layoutElement(el, index, ctx);
    if (node) nodes.push(node);
  });
  return {
    unit: opts.target.unit,
    dpi,
    // Raster labels are whole dots: 4 in at 203 dpi is 812 dots.
    width: raster ? Math.round(widthIn * dpi) : widthIn * PX_PER_INCH,
    height: raster ? Math.round(heightIn * dpi) : heightIn * PX_PER_INCH,
    background: normaliseColor(markup.stage.background ?? '#ffffff'),
    nodes,
    rfid: ctx.rfid,
    warnings: ctx.warnings,
    ...(ctx.cuts.length ? { cuts: ctx.cuts } : {}),
  };
}

function color(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const c = normaliseColor(value);
  return isInvisible(c) ? undefined : c;
}

/** Konva's default strokeWidth is 2: hosted markup with a stroke colour and no width relies on it. */
function strokeOf(el: MarkupElement, ctx: Ctx, fallbackWidth = 2): Stroke | undefined {
  const c = color(el.stroke);
  const width = (el.strokeWidth ?? fallbackWidth) * ctx.k;
  if (!c || width <= 0) return undefined;
  return { color: c, width };
}

/**
 * Konva draws each element translated to (x, y), rotated, then scaled. Elements with no rotation or scale
 * are placed absolutely (so barcodes snap to the dot grid directly); others sit in a group whose translation
 * is rounded to whole dots on raster targets.
 */
function layoutElement(el: MarkupElement, index: number, ctx: Ctx): SceneNode | undefined {
  const plain = el.rotation === 0 && el.scaleX === 1 && el.scaleY === 1;
  const ox = el.x * ctx.k;
  const oy = el.y * ctx.k;
  const local = plain ? { x: ox, y: oy } : { x: 0, y: 0 };
  const inner = drawElement(el, index, local, ctx);
  if (!inner) return undefined;
  if (plain && el.opacity >= 1) return inner;
  let transform: Matrix = IDENTITY;
  if (!plain) {
    const a = (el.rotation * Math.PI) / 180;
    const cos = Math.cos(a);
    const sin = Math.sin(a);
    const tx = ctx.raster ? Math.round(ox) : ox;
    const ty = ctx.raster ? Math.round(oy) : oy;
    // Snap right angles exactly so rotated barcodes stay on the dot grid.
    const snap = (v: number) => (Math.abs(v - Math.round(v)) < 1e-12 ? Math.round(v) : v);
    transform = [
      snap(cos) * el.scaleX,
      snap(sin) * el.scaleX,
      -snap(sin) * el.scaleY,
      snap(cos) * el.scaleY,
      tx,
      ty,
    ];
  }
  return { kind: 'group', transform, opacity: el.opacity, children: [inner], element: index };
}

function drawElement(
  el: MarkupElement,
  index: number,
  at: { x: number; y: number },
  ctx: Ctx,
): SceneNode | undefined {
  const k = ctx.k;
  switch (el.type) {
    case 'rect': {
      const fill = color(el.fill);
      const stroke = strokeOf(el, ctx);
      if (!fill && !stroke) return undefined;
      return {
        kind: 'rect',
        x: at.x,
        y: at.y,
        width: (el.width ?? 0) * k,
        height: (el.height ?? 0) * k,
        ...(el.cornerRadius ? { cornerRadius: el.cornerRadius * k } : {}),
        ...(fill ? { fill } : {}),
        ...(stroke ? { stroke } : {}),
        element: index,
      };
    }
    case 'circle':
    case 'ellipse': {
      const fill = color(el.fill);
      const stroke = strokeOf(el, ctx);
      if (!fill && !stroke) return undefined;
      const rx = (el.type === 'circle' ? el.radius : el.radiusX) * k;
      const ry = (el.type === 'circle' ? el.radius : el.radiusY) * k;
      return {
        kind: 'ellipse',
        cx: at.x,
        cy: at.y,
        rx,
        ry,
        ...(fill ? { fill } : {}),
        ...(stroke ? { stroke } : {}),
        element: index,
      };
    }
    case 'wedge':
    case 'ring':
    case 'arc': {
      const fill = color(el.fill);
      const stroke = strokeOf(el, ctx);
      if (!fill && !stroke) return undefined;
      const d =
        el.type === 'wedge'
          ? wedgePath(el.radius * k, el.angle)
          : el.type === 'ring'
            ? ringPath(el.innerRadius * k, el.outerRadius * k)
            : arcPath(el.innerRadius * k, el.outerRadius * k, el.angle);
      if (!d) return undefined;
      return offsetPath(d, at, {
        kind: 'path' as const,
        d,
        ...(fill ? { fill } : {}),
        ...(el.type === 'wedge' ? {} : { fillRule: 'evenodd' as const }),
        ...(stroke ? { stroke } : {}),
        element: index,
      });
    }
    case 'line': {
      const stroke = strokeOf(el, ctx);
      const fill = el.closed ? color(el.fill) : undefined;
      if (!stroke && !fill) return undefined;
      const pts = el.points.map((p, i) => p * k + (i % 2 === 0 ? at.x : at.y));
      return {
        kind: 'path',
        d: linePath(pts, el.closed),
        ...(fill ? { fill } : {}),
        ...(stroke
          ? {
              stroke: {
                ...stroke,
                lineCap: el.lineCap,
                ...(el.dash ? { dash: el.dash.map((v) => v * k) } : {}),
              },
            }
          : {}),
        element: index,
      };
    }
    case 'text':
      return drawText(el, index, at, ctx);
    case 'image':
      return drawImage(el, index, at, ctx);
    case 'barcode':
      return drawBarcode(el, index, at, ctx);
    case 'rfid':
      addRfid(el, index, ctx);
      return undefined;
    default:
      return assertNever(el, 'element type');
  }
}

/** Shape paths are built around (0, 0); move them to the element's origin when it is placed absolutely. */
function offsetPath<T extends { d: string }>(d: string, at: { x: number; y: number }, node: T): T {
  if (at.x === 0 && at.y === 0) return node;
  return { ...node, d: translatePath(d, at.x, at.y) };
}

/** Translates absolute M/L/A/Z path data (as built in shapes.ts). */
function translatePath(d: string, dx: number, dy: number): string {
  const r = (n: number) => String(Math.round(n * 100) / 100);
  return d.replace(/([MLA])([^MLAZ]*)/g, (_m, cmd: string, args: string) => {
    const n = args
      .trim()
      .split(/[\s,]+/)
      .map(Number);
    if (cmd === 'A') {
      // rx ry rotation large sweep x y
      return `A${n.slice(0, 5).map(r).join(' ')} ${r((n[5] ?? 0) + dx)} ${r((n[6] ?? 0) + dy)}`;
    }
    return `${cmd}${r((n[0] ?? 0) + dx)} ${r((n[1] ?? 0) + dy)}`;
  });
}

function drawText(
  el: MarkupElementOf<'text'>,
  index: number,
  at: { x: number; y: number },
  ctx: Ctx,
): TextNode | undefined {
  if (!el.text) return undefined;
  const font = ctx.opts.fonts.resolve(el.font.family, normaliseStyle(el.font.style));
  // The hosted SDK's default width is the rest of the stage.
  const widthPx = el.width ?? Math.max(0, ctx.stageWidthPx - el.x);
  const { node, warnings, lost } = layoutText({
    text: el.text,
    box: {
      x: at.x,
      y: at.y,
      width: widthPx * ctx.k,
      ...(el.height !== undefined ? { height: el.height * ctx.k } : {}),
    },
    font,
    size: el.font.size * ctx.k,
    color: color(el.font.color) ?? color(el.fill) ?? BLACK,
    lineHeight: el.lineHeight,
    align: el.align,
    verticalAlign: el.verticalAlign,
    direction: el.direction,
    wrap: el.wrap,
    element: index,
  });
  ctx.warnings.push(...warnings);
  if (lost) ctx.cuts.push({ element: index, lost });
  return node.lines.length ? node : undefined;
}

function invalid(
  ctx: Ctx,
  index: number,
  type: string,
  box: { x: number; y: number; width: number; height: number },
  error: Error,
): SceneNode {
  if (ctx.opts.onInvalid !== 'mark') throw new ElementError(index, type, error.message, error);
  ctx.warnings.push(`elements[${index}] (${type}): ${error.message}`);
  // A hatched red box where the element would be: visible, and obviously not a label to print.
  const { x, y, width: w, height: h } = box;
  return {
    kind: 'path',
    d: `M${x} ${y}h${w}v${h}h${-w}ZM${x} ${y}L${x + w} ${y + h}M${x + w} ${y}L${x} ${y + h}`,
    stroke: { color: '#d00000', width: Math.max(1, ctx.k) },
    element: index,
  };
}

function drawImage(
  el: MarkupElementOf<'image'>,
  index: number,
  at: { x: number; y: number },
  ctx: Ctx,
): SceneNode | undefined {
  const image = ctx.opts.images?.get(el.url);
  const k = ctx.k;
  const box = {
    x: at.x,
    y: at.y,
    width: (el.width ?? image?.width ?? 0) * k,
    height: (el.height ?? image?.height ?? 0) * k,
  };
  if (!image)
    return invalid(
      ctx,
      index,
      'image',
      { ...box, width: box.width || 20 * k, height: box.height || 20 * k },
      new ImageError(el.url, 'was not loaded'),
    );
  let { x, y, width, height } = box;
  if (el.fit === 'contain' && image.width > 0 && image.height > 0) {
    const scale = Math.min(width / image.width, height / image.height);
    const w = image.width * scale;
    const h = image.height * scale;
    x += (width - w) / 2;
    y += (height - h) / 2;
    width = w;
    height = h;
  }
  if (width <= 0 || height <= 0) return undefined;
  return {
    kind: 'image',
    x,
    y,
    width,
    height,
    mime: image.mime,
    data: image.data,
    monochrome: el.monochrome,
    element: index,
  };
}

function encodeOptions(el: MarkupElementOf<'barcode'>): EncodeOptions {
  const ec = el.eclevel?.toUpperCase();
  if (el.format === 'qrcode' && (ec === 'L' || ec === 'M' || ec === 'Q' || ec === 'H'))
    return { qrErrorCorrection: ec };
  if (el.format === 'pdf417' && ec !== undefined && /^[0-8]$/.test(ec)) {
    return { pdf417ErrorCorrection: Number(ec) as EncodeOptions['pdf417ErrorCorrection'] };
  }
  return {};
}

function drawBarcode(
  el: MarkupElementOf<'barcode'>,
  index: number,
  at: { x: number; y: number },
  ctx: Ctx,
): SceneNode | undefined {
  const k = ctx.k;
  const matrix = symbolKind(el.format) === 'matrix' && el.format !== 'pdf417';
  const fallback = matrix ? DEFAULT_BARCODE_BOX.matrix : DEFAULT_BARCODE_BOX.linear;
  let geometry;
  try {
    geometry = encodeBarcode(el.format, el.text, encodeOptions(el));
  } catch (e) {
    if (!(e instanceof BarcodeValueError)) throw e;
    const marked = { width: (el.width ?? fallback.width) * k, height: (el.height ?? fallback.height) * k };
    return invalid(ctx, index, `barcode ${el.format}`, { ...at, ...marked }, e);
  }
  // A side the element leaves out is the symbol's natural size (barcode/natural-size.ts), at its own x/y.
  const natural =
    el.width === undefined || el.height === undefined
      ? naturalBarcodeBox(geometry, el.humanReadable)
      : undefined;
  const box = {
    x: at.x,
    y: at.y,
    width: (el.width ?? natural?.width ?? 0) * k,
    height: (el.height ?? natural?.height ?? 0) * k,
  };
  const font = ctx.opts.fonts.resolve('Arial', 'normal');
  const barColor = color(el.color) ?? color(el.fill) ?? BLACK;
  const placed = placeBarcode(
    geometry,
    box,
    { unit: ctx.raster ? 'dots' : 'px', dpi: ctx.dpi },
    {
      ...(el.humanReadable !== undefined ? { humanReadable: el.humanReadable } : {}),
      color: barColor,
      element: index,
      layoutText: (text, textBox, size) =>
        layoutText({
          text,
          box: textBox,
          font,
          size,
          color: barColor,
          align: 'center',
          wrap: 'none',
          ellipsis: false,
          element: index,
        }).node,
    },
  );
  ctx.warnings.push(...placed.warnings.map((w) => `elements[${index}]: ${w}`));
  return placed.node;
}

function addRfid(el: MarkupElementOf<'rfid'>, index: number, ctx: Ctx): void {
  try {
    // Validated here, before any output exists: a bad EPC never becomes half a job.
    const hex = el.bank === 'epc' ? validateEpcHex(el.epc, el.bits) : validateWordsHex('user', el.epc);
    ctx.rfid.push({ element: index, bank: el.bank, hex, lock: el.lock });
  } catch (e) {
    const error = new ElementError(index, 'rfid', (e as Error).message, e);
    // The live preview ('mark') must survive a half-typed EPC: warn and write nothing. Outputs use 'throw'.
    if (ctx.opts.onInvalid === 'mark') {
      ctx.warnings.push(error.message);
      return;
    }
    throw error;
  }
}
