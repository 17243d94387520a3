/**
 * Strokes as polygons: each segment of a flattened polyline becomes a quadrilateral of the stroke width, each
 * vertex gets its join (miter up to SVG's default limit of 4, else bevel; round; bevel) and each open end its
 * cap (butt, square, round), all in the shape's own units. Every polygon is emitted with the same orientation,
 * so filling them together with the nonzero rule gives their union: the stroke's outline without seams.
 * Dashes split the polylines first (the pattern restarts on each subpath, as in resvg).
 */
import { arcSegments, type Polyline } from './flatten';

export interface StrokeStyle {
  width: number;
  lineCap?: 'butt' | 'round' | 'square';
  lineJoin?: 'miter' | 'round' | 'bevel';
  dash?: readonly number[];
}

/** More dash periods than this along one path is not a label (and would cost unbounded memory). */
const MAX_DASH_PERIODS = 50_000;

/** SVG's default stroke-miterlimit. */
const MITER_LIMIT = 4;

/** Receives one polygon (flat [x, y, ...], counter-clockwise in y-down units). */
export type PolygonSink = (points: number[]) => void;

function emitOriented(sink: PolygonSink, p: number[]): void {
  let area = 0;
  const n = p.length;
  for (let i = 0; i < n; i += 2) {
    const j = (i + 2) % n;
    area += (p[i] ?? 0) * (p[j + 1] ?? 0) - (p[j] ?? 0) * (p[i + 1] ?? 0);
  }
  if (area === 0) return;
  if (area < 0) {
    const r: number[] = [];
    for (let i = n - 2; i >= 0; i -= 2) r.push(p[i] ?? 0, p[i + 1] ?? 0);
    sink(r);
  } else sink(p);
}

function circle(sink: PolygonSink, cx: number, cy: number, r: number, tol: number): void {
  const n = Math.max(8, arcSegments(r, 2 * Math.PI, tol));
  const p: number[] = [];
  for (let i = 0; i < n; i++) {
    const a = (2 * Math.PI * i) / n;
    p.push(cx + r * Math.cos(a), cy + r * Math.sin(a));
  }
  emitOriented(sink, p);
}

/** Removes repeated points; closes by dropping a last point equal to the first. */
function clean(line: Polyline): number[] {
  const p = line.points;
  const out: number[] = [];
  for (let i = 0; i + 1 < p.length; i += 2) {
    const x = p[i] ?? 0;
    const y = p[i + 1] ?? 0;
    const k = out.length;
    if (k >= 2 && out[k - 2] === x && out[k - 1] === y) continue;
    out.push(x, y);
  }
  if (line.closed && out.length >= 4 && out[0] === out[out.length - 2] && out[1] === out[out.length - 1]) {
    out.length -= 2;
  }
  return out;
}

/** Splits polylines by a dash pattern into open pieces. */
export function dashPolylines(lines: readonly Polyline[], dash: readonly number[]): Polyline[] {
  const pattern = dash.length % 2 === 1 ? [...dash, ...dash] : [...dash];
  const total = pattern.reduce((a, b) => a + b, 0);
  if (pattern.length === 0 || pattern.some((d) => !(d >= 0)) || !(total > 0)) return [...lines];
  let length = 0;
  for (const line of lines) {
    const p = line.points;
    for (let i = 2; i + 1 < p.length; i += 2)
      length += Math.hypot((p[i] ?? 0) - (p[i - 2] ?? 0), (p[i + 1] ?? 0) - (p[i - 1] ?? 0));
  }
  if (length / total > MAX_DASH_PERIODS) {
    // Dashes far finer than a dot: the renderer reports this as unsupported and the resvg path draws it.
    throw new RangeError(`dash pattern too fine: ${Math.round(length / total)} periods`);
  }
  const out: Polyline[] = [];
  for (const line of lines) {
    const p = clean(line);
    if (line.closed && p.length >= 4) p.push(p[0] ?? 0, p[1] ?? 0);
    let index = 0;
    let left = pattern[0] ?? 0;
    let on = true;
    let piece: number[] | undefined = [p[0] ?? 0, p[1] ?? 0];
    for (let i = 2; i + 1 < p.length; i += 2) {
      let x0 = p[i - 2] ?? 0;
      let y0 = p[i - 1] ?? 0;
      const x1 = p[i] ?? 0;
      const y1 = p[i + 1] ?? 0;
      let len = Math.hypot(x1 - x0, y1 - y0);
      while (len > left) {
        const t = left / len;
        const x = x0 + (x1 - x0) * t;
        const y = y0 + (y1 - y0) * t;
        if (on && piece) {
          piece.push(x, y);
          out.push({ points: piece, closed: false });
          piece = undefined;
        } else piece = [x, y];
        on = !on;
        len -= left;
        x0 = x;
        y0 = y;
        index = (index + 1) % pattern.length;
        left = pattern[index] ?? 0;
      }
      left -= len;
      if (on && piece) piece.push(x1, y1);
    }
    if (on && piece && piece.length >= 4) out.push({ points: piece, closed: false });
  }
  return out;
}

/** Emits the polygons whose union is the stroke of `lines`. `tol` is the flattening tolerance (same units). */
export function strokePolygons(
  lines: readonly Polyline[],
  style: StrokeStyle,
  tol: number,
  sink: PolygonSink,
): void {
  const hw = style.width / 2;
  if (!(hw > 0)) return;
  const cap = style.lineCap ?? 'butt';
  const join = style.lineJoin ?? 'miter';
  const dashed = style.dash && style.dash.length > 0 ? dashPolylines(lines, style.dash) : lines;
  for (const line of dashed) {
    const p = clean(line);
    const n = p.length / 2;
    if (n === 1) {
      // A zero-length subpath: round and square caps still paint a dot (SVG), butt paints nothing.
      const x = p[0] ?? 0;
      const y = p[1] ?? 0;
      if (cap === 'round') circle(sink, x, y, hw, tol);
      if (cap === 'square')
        emitOriented(sink, [x - hw, y - hw, x + hw, y - hw, x + hw, y + hw, x - hw, y + hw]);
      continue;
    }
    if (n === 0) continue;
    const closed = line.closed && n >= 3;
    const segs = closed ? n : n - 1;
    for (let s = 0; s < segs; s++) {
      const a = s;
      const b = (s + 1) % n;
      const x0 = p[2 * a] ?? 0;
      const y0 = p[2 * a + 1] ?? 0;
      const x1 = p[2 * b] ?? 0;
      const y1 = p[2 * b + 1] ?? 0;
      const len = Math.hypot(x1 - x0, y1 - y0);
      const ux = (x1 - x0) / len;
      const uy = (y1 - y0) / len;
      const nx = -uy * hw;
      const ny = ux * hw;
      emitOriented(sink, [x0 + nx, y0 + ny, x1 + nx, y1 + ny, x1 - nx, y1 - ny, x0 - nx, y0 - ny]);
      // The join at the segment's end, with the next segment.
      if (closed || s + 1 < segs) {
        const c = (b + 1) % n;
        const x2 = p[2 * c] ?? 0;
        const y2 = p[2 * c + 1] ?? 0;
        const len2 = Math.hypot(x2 - x1, y2 - y1);
        joinAt(sink, x1, y1, ux, uy, (x2 - x1) / len2, (y2 - y1) / len2, hw, join, tol);
      }
    }
    if (!closed && cap !== 'butt') {
      capAt(sink, p[0] ?? 0, p[1] ?? 0, p[2] ?? 0, p[3] ?? 0, hw, cap, tol);
      const k = p.length;
      capAt(sink, p[k - 2] ?? 0, p[k - 1] ?? 0, p[k - 4] ?? 0, p[k - 3] ?? 0, hw, cap, tol);
    }
  }
}

function joinAt(
  sink: PolygonSink,
  x: number,
  y: number,
  u1x: number,
  u1y: number,
  u2x: number,
  u2y: number,
  hw: number,
  join: 'miter' | 'round' | 'bevel',
  tol: number,
): void {
  const cross = u1x * u2y - u1y * u2x;
  const dot = u1x * u2x + u1y * u2y;
  if (Math.abs(cross) < 1e-9 && dot > 0) return; // straight on: the quads already meet
  if (join === 'round') {
    circle(sink, x, y, hw, tol);
    return;
  }
  // The outer side of the turn is opposite to the side the path turns to.
  const s = cross > 0 ? -1 : 1;
  const ax = x + s * -u1y * hw;
  const ay = y + s * u1x * hw;
  const bx = x + s * -u2y * hw;
  const by = y + s * u2x * hw;
  const ratio = 1 / Math.sqrt(Math.max(1e-12, (1 + dot) / 2));
  if (join === 'miter' && ratio <= MITER_LIMIT) {
    const mx = -u1y - u2y;
    const my = u1x + u2x;
    const ml = Math.hypot(mx, my);
    if (ml > 1e-12) {
      const d = (hw * ratio) / ml;
      emitOriented(sink, [x, y, ax, ay, x + s * mx * d, y + s * my * d, bx, by]);
      return;
    }
  }
  emitOriented(sink, [x, y, ax, ay, bx, by]);
}

/** The cap at end (x, y) of a segment coming from (fx, fy). */
function capAt(
  sink: PolygonSink,
  x: number,
  y: number,
  fx: number,
  fy: number,
  hw: number,
  cap: 'round' | 'square',
  tol: number,
): void {
  if (cap === 'round') {
    circle(sink, x, y, hw, tol);
    return;
  }
  const len = Math.hypot(x - fx, y - fy);
  const ux = ((x - fx) / len) * hw;
  const uy = ((y - fy) / len) * hw;
  emitOriented(sink, [x - uy, y + ux, x - uy + ux, y + ux + uy, x + uy + ux, y - ux + uy, x + uy, y - ux]);
}
