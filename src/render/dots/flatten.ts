/**
 * SVG path data → flattened polylines (straight segments only), in the path's own units. Curves are split
 * until they deviate from their chords by at most `tolerance` (the caller passes a tolerance in path units
 * that corresponds to a small fraction of a printer dot). Covers the whole path grammar: M L H V C S Q T A Z,
 * absolute and relative, parsed by ../path-data.
 */
import { assertNever } from '../../base/assert-never';
import { arcCenter, parsePathData } from '../path-data';

/** One subpath: flat [x0, y0, x1, y1, ...] and whether it was closed with Z. */
export interface Polyline {
  points: number[];
  closed: boolean;
}

const MAX_SEGMENTS = 512;

// The renderer catches PathDataError (malformed path data) and falls back to resvg.
export { PathDataError } from '../path-data';

/** Appends points of a quadratic curve from (x0, y0), excluding the start. */
function quad(
  out: number[],
  x0: number,
  y0: number,
  x1: number,
  y1: number,
  x2: number,
  y2: number,
  tol: number,
): void {
  const dd = Math.hypot(x0 - 2 * x1 + x2, y0 - 2 * y1 + y2);
  const n = Math.min(MAX_SEGMENTS, Math.max(1, Math.ceil(Math.sqrt(dd / (4 * tol)))));
  for (let i = 1; i <= n; i++) {
    const t = i / n;
    const u = 1 - t;
    out.push(u * u * x0 + 2 * u * t * x1 + t * t * x2, u * u * y0 + 2 * u * t * y1 + t * t * y2);
  }
}

/** Appends points of a cubic curve from (x0, y0), excluding the start. */
export function cubic(
  out: number[],
  x0: number,
  y0: number,
  x1: number,
  y1: number,
  x2: number,
  y2: number,
  x3: number,
  y3: number,
  tol: number,
): void {
  const dd = Math.max(
    Math.hypot(x0 - 2 * x1 + x2, y0 - 2 * y1 + y2),
    Math.hypot(x1 - 2 * x2 + x3, y1 - 2 * y2 + y3),
  );
  const n = Math.min(MAX_SEGMENTS, Math.max(1, Math.ceil(Math.sqrt((3 * dd) / (4 * tol)))));
  for (let i = 1; i <= n; i++) {
    const t = i / n;
    const u = 1 - t;
    const a = u * u * u;
    const b = 3 * u * u * t;
    const c = 3 * u * t * t;
    const e = t * t * t;
    out.push(a * x0 + b * x1 + c * x2 + e * x3, a * y0 + b * y1 + c * y2 + e * y3);
  }
}

/** Segments for an arc of `radius` through `sweep` radians with chord error ≤ tol. */
export function arcSegments(radius: number, sweep: number, tol: number): number {
  if (radius <= tol) return Math.max(1, Math.ceil(Math.abs(sweep) / (Math.PI / 2)));
  const step = 2 * Math.acos(Math.max(-1, 1 - tol / radius));
  return Math.min(MAX_SEGMENTS, Math.max(2, Math.ceil(Math.abs(sweep) / step)));
}

/** Appends an SVG elliptical arc (endpoint form, SVG 1.1 implementation notes F.6), excluding the start. */
function arc(
  out: number[],
  x1: number,
  y1: number,
  rxIn: number,
  ryIn: number,
  rotationDeg: number,
  large: boolean,
  sweepFlag: boolean,
  x2: number,
  y2: number,
  tol: number,
): void {
  if ((x1 === x2 && y1 === y2) || rxIn === 0 || ryIn === 0) {
    if (x1 !== x2 || y1 !== y2) out.push(x2, y2);
    return;
  }
  const { cx, cy, rx, ry, cos, sin, theta1, delta } = arcCenter(
    x1,
    y1,
    rxIn,
    ryIn,
    rotationDeg,
    large,
    sweepFlag,
    x2,
    y2,
  );
  const n = arcSegments(Math.max(rx, ry), delta, tol);
  for (let i = 1; i < n; i++) {
    const t = theta1 + (delta * i) / n;
    const ex = rx * Math.cos(t);
    const ey = ry * Math.sin(t);
    out.push(cos * ex - sin * ey + cx, sin * ex + cos * ey + cy);
  }
  out.push(x2, y2);
}

/** Parses and flattens path data. Throws PathDataError for malformed data. */
export function flattenPath(d: string, tol: number): Polyline[] {
  const lines: Polyline[] = [];
  let current: number[] | undefined;
  const subpathFrom = (x: number, y: number): number[] => {
    if (!current) {
      current = [x, y];
      lines.push({ points: current, closed: false });
    }
    return current;
  };
  for (const seg of parsePathData(d)) {
    switch (seg.kind) {
      case 'moveTo':
        current = [seg.x, seg.y];
        lines.push({ points: current, closed: false });
        break;
      case 'lineTo':
        // A line with no open subpath (no M, or after Z) has always started its subpath at its own end
        // point, not at the current point; kept so the rasterised output does not change.
        subpathFrom(seg.x, seg.y).push(seg.x, seg.y);
        break;
      case 'cubicTo':
        cubic(subpathFrom(seg.x0, seg.y0), seg.x0, seg.y0, seg.x1, seg.y1, seg.x2, seg.y2, seg.x, seg.y, tol);
        break;
      case 'quadTo':
        quad(subpathFrom(seg.x0, seg.y0), seg.x0, seg.y0, seg.x1, seg.y1, seg.x, seg.y, tol);
        break;
      case 'arcTo':
        arc(
          subpathFrom(seg.x0, seg.y0),
          seg.x0,
          seg.y0,
          seg.rx,
          seg.ry,
          seg.rotation,
          seg.largeArc,
          seg.sweep,
          seg.x,
          seg.y,
          tol,
        );
        break;
      case 'close':
        if (current) {
          const line = lines[lines.length - 1];
          if (line) line.closed = true;
        }
        current = undefined;
        break;
      default:
        assertNever(seg);
    }
  }
  return lines;
}
