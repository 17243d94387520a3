/**
 * Konva's shape conventions as SVG path data (reference/markup.md): circle-like shapes are centred on the
 * element's origin; angles are degrees, clockwise from the positive x axis (y points down).
 */

const f = (n: number) => String(Math.round(n * 100) / 100);

function polar(r: number, degrees: number): [number, number] {
  const a = (degrees * Math.PI) / 180;
  return [r * Math.cos(a), r * Math.sin(a)];
}

/** A full circle of radius r around (0, 0) as two half arcs (one arc cannot close on itself). */
function circlePath(r: number): string {
  return `M${f(r)} 0A${f(r)} ${f(r)} 0 1 1 ${f(-r)} 0A${f(r)} ${f(r)} 0 1 1 ${f(r)} 0Z`;
}

/** Wedge: from 0 to `angle` degrees clockwise, filled to the centre. */
export function wedgePath(radius: number, angle: number): string {
  if (angle >= 360) return circlePath(radius);
  if (angle <= 0 || radius <= 0) return '';
  const [x, y] = polar(radius, angle);
  return `M0 0L${f(radius)} 0A${f(radius)} ${f(radius)} 0 ${angle > 180 ? 1 : 0} 1 ${f(x)} ${f(y)}Z`;
}

/** Ring: between inner and outer radius, full turn (fill with the even-odd rule). */
export function ringPath(innerRadius: number, outerRadius: number): string {
  const outer = Math.max(innerRadius, outerRadius);
  const inner = Math.min(innerRadius, outerRadius);
  return inner > 0 ? `${circlePath(outer)}${circlePath(inner)}` : circlePath(outer);
}

/** Arc: the ring section from 0 to `angle` degrees clockwise. */
export function arcPath(innerRadius: number, outerRadius: number, angle: number): string {
  if (angle >= 360) return ringPath(innerRadius, outerRadius);
  if (angle <= 0) return '';
  const outer = Math.max(innerRadius, outerRadius);
  const inner = Math.min(innerRadius, outerRadius);
  const large = angle > 180 ? 1 : 0;
  const [ox, oy] = polar(outer, angle);
  const [ix, iy] = polar(inner, angle);
  return (
    `M${f(outer)} 0A${f(outer)} ${f(outer)} 0 ${large} 1 ${f(ox)} ${f(oy)}` +
    `L${f(ix)} ${f(iy)}A${f(inner)} ${f(inner)} 0 ${large} 0 ${f(inner)} 0Z`
  );
}

/** Polyline through [x1, y1, x2, y2, ...], closed on request. */
export function linePath(points: readonly number[], closed: boolean): string {
  let d = '';
  for (let i = 0; i + 1 < points.length; i += 2)
    d += `${i === 0 ? 'M' : 'L'}${f(points[i] ?? 0)} ${f(points[i + 1] ?? 0)}`;
  return closed && d ? `${d}Z` : d;
}
