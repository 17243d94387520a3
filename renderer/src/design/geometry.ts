/**
 * Element geometry for the designer, in px at 96 dpi (the unit of every template's positions): the box an
 * element occupies (what is selected, aligned, snapped and resized) and the element reshaped to a new box.
 * Boxes ignore rotation (the designer turns elements about their (x, y), as Konva does); scale is applied.
 */
import { assertNever } from '../../../src/base/assert-never';
import type { Element } from '../../../src/model/elements';

/** px at 96 dpi: left, top, width, height. */
export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** The box of an element. Shapes drawn about a centre (circle, ellipse, wedge, ring, arc) have it at (x, y). */
export function elementBox(el: Element): Box {
  const sx = Math.abs(el.scaleX);
  const sy = Math.abs(el.scaleY);
  const centred = (rx: number, ry: number): Box => ({
    x: el.x - rx * sx,
    y: el.y - ry * sy,
    width: 2 * rx * sx,
    height: 2 * ry * sy,
  });
  switch (el.type) {
    case 'text':
    case 'image':
    case 'barcode':
    case 'rect':
    case 'rfid':
      return { x: el.x, y: el.y, width: (el.width ?? 0) * sx, height: (el.height ?? 0) * sy };
    case 'circle':
    case 'wedge':
      return centred(el.radius, el.radius);
    case 'ellipse':
      return centred(el.radiusX, el.radiusY);
    case 'ring':
    case 'arc':
      return centred(el.outerRadius, el.outerRadius);
    case 'line': {
      const xs = el.points.filter((_, i) => i % 2 === 0);
      const ys = el.points.filter((_, i) => i % 2 === 1);
      const left = Math.min(...xs);
      const top = Math.min(...ys);
      return {
        x: el.x + left * sx,
        y: el.y + top * sy,
        width: (Math.max(...xs) - left) * sx,
        height: (Math.max(...ys) - top) * sy,
      };
    }
    default:
      return assertNever(el, 'element type');
  }
}

/** The element moved so that its box's top-left corner is at (x, y); its size unchanged. */
export function moveTo(el: Element, x: number, y: number): Element {
  const box = elementBox(el);
  return { ...el, x: el.x + (x - box.x), y: el.y + (y - box.y) };
}

/**
 * The element reshaped to fill `box`. A circle, wedge, ring or arc stays round: its diameter is the box's
 * smaller side, from the box's top-left corner (so a box on whole dots gives a shape on whole dots); a ring or
 * arc keeps its inner radius in proportion; a line's points are stretched.
 */
export function withBox(el: Element, box: Box): Element {
  const sx = Math.abs(el.scaleX) || 1;
  const sy = Math.abs(el.scaleY) || 1;
  const w = Math.max(0, box.width) / sx;
  const h = Math.max(0, box.height) / sy;
  switch (el.type) {
    case 'text':
    case 'image':
    case 'barcode':
    case 'rect':
    case 'rfid':
      return { ...el, x: box.x, y: box.y, width: w, height: h };
    case 'circle':
    case 'wedge': {
      const radius = Math.min(w, h) / 2;
      return { ...el, x: box.x + radius * sx, y: box.y + radius * sy, radius };
    }
    case 'ellipse':
      return { ...el, x: box.x + box.width / 2, y: box.y + box.height / 2, radiusX: w / 2, radiusY: h / 2 };
    case 'ring':
    case 'arc': {
      const outerRadius = Math.min(w, h) / 2;
      const ratio = el.outerRadius > 0 ? el.innerRadius / el.outerRadius : 0.5;
      return {
        ...el,
        x: box.x + outerRadius * sx,
        y: box.y + outerRadius * sy,
        outerRadius,
        innerRadius: outerRadius * ratio,
      };
    }
    case 'line': {
      const old = elementBox({ ...el, scaleX: 1, scaleY: 1, x: 0, y: 0 });
      const kx = old.width > 0 ? w / old.width : 1;
      const ky = old.height > 0 ? h / old.height : 1;
      const points = el.points.map((p, i) => (i % 2 === 0 ? (p - old.x) * kx : (p - old.y) * ky));
      return { ...el, x: box.x, y: box.y, points };
    }
    default:
      return assertNever(el, 'element type');
  }
}

/** The smallest box holding every box given (null for none). */
export function unionBox(boxes: readonly Box[]): Box | null {
  if (boxes.length === 0) return null;
  const left = Math.min(...boxes.map((b) => b.x));
  const top = Math.min(...boxes.map((b) => b.y));
  const right = Math.max(...boxes.map((b) => b.x + b.width));
  const bottom = Math.max(...boxes.map((b) => b.y + b.height));
  return { x: left, y: top, width: right - left, height: bottom - top };
}
