/**
 * Geometry → PDF path construction operators (m l c h re), in the scene's own units. SVG path data (M L H V
 * C S Q T A Z, absolute and relative) is converted exactly: quadratics become cubics, arcs become cubic
 * pieces of at most 90°, as pdfkit's SVG path parser does. Rounded rectangles and ellipses use pdfkit's own
 * Bézier constructions so both backends draw the same outlines.
 */
import { assertNever } from '../../../base/assert-never';
import { arcCenter, parsePathData } from '../../path-data';
import { num } from './pdf-file';

/** 4 (√2 − 1) / 3: the cubic control distance that approximates a quarter circle (pdfkit's KAPPA). */
const KAPPA = (4 * (Math.SQRT2 - 1)) / 3;

// Malformed path data throws the shared parser's error; pdf-direct has always called it PathSyntaxError.
export { PathDataError as PathSyntaxError } from '../../path-data';

/** Collects path operators as one string. */
class PathOps {
  out = '';
  m(x: number, y: number): void {
    this.out += `${num(x)} ${num(y)} m\n`;
  }
  l(x: number, y: number): void {
    this.out += `${num(x)} ${num(y)} l\n`;
  }
  c(x1: number, y1: number, x2: number, y2: number, x: number, y: number): void {
    this.out += `${num(x1)} ${num(y1)} ${num(x2)} ${num(y2)} ${num(x)} ${num(y)} c\n`;
  }
  h(): void {
    this.out += 'h\n';
  }
}

export function rectOps(x: number, y: number, w: number, h: number): string {
  return `${num(x)} ${num(y)} ${num(w)} ${num(h)} re\n`;
}

/** pdfkit's `roundedRect`: the radius is capped at half the shorter side. */
export function roundedRectOps(x: number, y: number, w: number, h: number, radius: number): string {
  const r = Math.min(radius, 0.5 * w, 0.5 * h);
  const c = r * (1 - KAPPA);
  const p = new PathOps();
  p.m(x + r, y);
  p.l(x + w - r, y);
  p.c(x + w - c, y, x + w, y + c, x + w, y + r);
  p.l(x + w, y + h - r);
  p.c(x + w, y + h - c, x + w - c, y + h, x + w - r, y + h);
  p.l(x + r, y + h);
  p.c(x + c, y + h, x, y + h - c, x, y + h - r);
  p.l(x, y + r);
  p.c(x, y + c, x + c, y, x + r, y);
  p.h();
  return p.out;
}

/** pdfkit's `ellipse`: four cubics from the leftmost point, clockwise on screen. */
export function ellipseOps(cx: number, cy: number, rx: number, ry: number): string {
  const x = cx - rx;
  const y = cy - ry;
  const ox = rx * KAPPA;
  const oy = ry * KAPPA;
  const xe = x + rx * 2;
  const ye = y + ry * 2;
  const p = new PathOps();
  p.m(x, cy);
  p.c(x, cy - oy, cx - ox, y, cx, y);
  p.c(cx + ox, y, xe, cy - oy, xe, cy);
  p.c(xe, cy + oy, cx + ox, ye, cx, ye);
  p.c(cx - ox, ye, x, cy + oy, x, cy);
  p.h();
  return p.out;
}

/** SVG path data → PDF operators. Throws PathSyntaxError for malformed data. */
export function svgPathOps(d: string): string {
  const p = new PathOps();
  let open = false;
  const subpathFrom = (x: number, y: number): void => {
    if (!open) {
      p.m(x, y);
      open = true;
    }
  };
  // Any nonzero arc flag counts as 1, as in pdfkit's parser.
  for (const seg of parsePathData(d, { lenientArcFlags: true })) {
    switch (seg.kind) {
      case 'moveTo':
        p.m(seg.x, seg.y);
        open = true;
        break;
      case 'lineTo':
        subpathFrom(seg.x0, seg.y0);
        p.l(seg.x, seg.y);
        break;
      case 'cubicTo':
        subpathFrom(seg.x0, seg.y0);
        p.c(seg.x1, seg.y1, seg.x2, seg.y2, seg.x, seg.y);
        break;
      case 'quadTo': {
        // Exact degree elevation: the cubic's controls lie 2/3 of the way from each end to the quad's control.
        const { x0, y0, x1, y1, x, y } = seg;
        subpathFrom(x0, y0);
        p.c(
          x0 + (2 / 3) * (x1 - x0),
          y0 + (2 / 3) * (y1 - y0),
          x + (2 / 3) * (x1 - x),
          y + (2 / 3) * (y1 - y),
          x,
          y,
        );
        break;
      }
      case 'arcTo':
        subpathFrom(seg.x0, seg.y0);
        arcOps(p, seg.x0, seg.y0, seg.rx, seg.ry, seg.rotation, seg.largeArc, seg.sweep, seg.x, seg.y);
        break;
      case 'close':
        if (open) p.h();
        open = false;
        break;
      default:
        assertNever(seg);
    }
  }
  return p.out;
}

/** An SVG elliptical arc (endpoint form) as cubic Béziers of at most 90° each. */
function arcOps(
  p: PathOps,
  x1: number,
  y1: number,
  rxIn: number,
  ryIn: number,
  rotationDeg: number,
  large: boolean,
  sweep: boolean,
  x2: number,
  y2: number,
): void {
  if (x1 === x2 && y1 === y2) return;
  if (rxIn === 0 || ryIn === 0) {
    p.l(x2, y2);
    return;
  }
  const { cx, cy, rx, ry, cos, sin, theta1, delta } = arcCenter(
    x1,
    y1,
    rxIn,
    ryIn,
    rotationDeg,
    large,
    sweep,
    x2,
    y2,
  );
  const segments = Math.max(1, Math.ceil(Math.abs(delta) / (Math.PI / 2) - 1e-9));
  const step = delta / segments;
  const k = (4 / 3) * Math.tan(step / 4);
  // Points on the unit circle → the rotated, scaled ellipse.
  const map = (ux: number, uy: number): [number, number] => [
    cos * rx * ux - sin * ry * uy + cx,
    sin * rx * ux + cos * ry * uy + cy,
  ];
  let t = theta1;
  for (let s = 0; s < segments; s++) {
    const c0 = Math.cos(t);
    const s0 = Math.sin(t);
    const t1 = t + step;
    const c1 = Math.cos(t1);
    const s1 = Math.sin(t1);
    const [ax, ay] = map(c0 - k * s0, s0 + k * c0);
    const [bx, by] = map(c1 + k * s1, s1 - k * c1);
    const [ex, ey] = s === segments - 1 ? [x2, y2] : map(c1, s1);
    p.c(ax, ay, bx, by, ex, ey);
    t = t1;
  }
}
