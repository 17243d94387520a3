/** Small SVG text helpers: short numbers and escaped attribute values. */
import type { Color, Stroke } from '../../layout/scene';
import { parseColor } from '../color';

/** A coordinate or length with at most 2 decimals (0.01 scene unit: far below a printer dot). */
export function num(n: number): string {
  const r = Math.round(n * 100) / 100;
  return Object.is(r, -0) ? '0' : String(r);
}

/**
 * A scale factor or matrix coefficient with up to 6 decimals: font-unit scales (12 px / 2048 units = 0.00586)
 * and rotation cosines need more than 2 decimals or glyphs and rotated elements drift visibly.
 */
export function fine(n: number): string {
  const r = Math.round(n * 1e6) / 1e6;
  return Object.is(r, -0) ? '0' : String(r);
}

/** Escapes text for a double-quoted attribute or element content. */
export function esc(s: string): string {
  return s.replace(/[&<>"]/g, (c) =>
    c === '&' ? '&amp;' : c === '<' ? '&lt;' : c === '>' ? '&gt;' : '&quot;',
  );
}

/** ` fill="#rrggbb"` plus ` fill-opacity` when the colour has alpha; ` fill="none"` for no fill. */
export function fillAttrs(fill: Color | undefined): string {
  if (fill === undefined) return ' fill="none"';
  const c = parseColor(fill);
  return ` fill="${c.hex}"` + (c.alpha < 1 ? ` fill-opacity="${fine(c.alpha)}"` : '');
}

/** Stroke attributes; the empty string for no stroke (SVG's default). */
export function strokeAttrs(stroke: Stroke | undefined): string {
  if (!stroke || stroke.width <= 0) return '';
  const c = parseColor(stroke.color);
  let s = ` stroke="${c.hex}" stroke-width="${num(stroke.width)}"`;
  if (c.alpha < 1) s += ` stroke-opacity="${fine(c.alpha)}"`;
  if (stroke.lineCap) s += ` stroke-linecap="${stroke.lineCap}"`;
  if (stroke.lineJoin) s += ` stroke-linejoin="${stroke.lineJoin}"`;
  if (stroke.dash && stroke.dash.length > 0) s += ` stroke-dasharray="${stroke.dash.map(num).join(' ')}"`;
  return s;
}
