/**
 * Markup → Scene for one target: the single place where markup geometry (px at 96 dpi, Konva conventions)
 * becomes absolute drawing primitives in the target's units. Every backend draws the Scene it returns, so the
 * preview, the PDF, the SVG and the printed ZPL agree line for line. Pure: fonts and images come in.
 * Here: the element switch, placement (rotation, scale) and the shapes; text, images, barcodes and RFID are
 * drawn by draw-*.ts over the context of element-context.ts.
 */
import { normaliseColor } from '../model/color';
import type { MarkupElement } from '../model/elements';
import type { Markup } from '../model/schema';
import { inchesToPx, inchesToSceneUnits, PX_PER_INCH, sceneUnitsPerPx, stageToInches } from '../units/units';
import { assertNever } from '../base/assert-never';
import { IDENTITY, type Matrix, type Scene, type SceneNode } from './scene';
import { arcPath, linePath, ringPath, wedgePath } from './shapes';
import { color, strokeOf, type Ctx, type LayoutOptions } from './element-context';
import { drawBarcode } from './draw-barcode';
import { drawImage } from './draw-image';
import { addRfid } from './draw-rfid';
import { drawText } from './draw-text';

/** Lays out one markup (one copy) for a target. */
export function layout(markup: Markup, opts: LayoutOptions): Scene {
  const dpi = opts.target.unit === 'dots' ? opts.target.dpi : PX_PER_INCH;
  const widthIn = stageToInches(markup.stage.width, markup.stage.unit);
  const heightIn = stageToInches(markup.stage.height, markup.stage.unit);
  const raster = opts.target.unit === 'dots';
  const ctx: Ctx = {
    opts,
    k: sceneUnitsPerPx(dpi),
    dpi,
    raster,
    stageWidthPx: inchesToPx(widthIn),
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
    width: raster ? Math.round(inchesToSceneUnits(widthIn, dpi)) : inchesToSceneUnits(widthIn, dpi),
    height: raster ? Math.round(inchesToSceneUnits(heightIn, dpi)) : inchesToSceneUnits(heightIn, dpi),
    background: normaliseColor(markup.stage.background ?? '#ffffff'),
    nodes,
    rfid: ctx.rfid,
    warnings: ctx.warnings,
    ...(ctx.cuts.length ? { cuts: ctx.cuts } : {}),
  };
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
