/**
 * Scene colours for the backends. Layout normalises every colour to `#rrggbb` or `#rrggbbaa`; SVG 1.1
 * viewers and PDF both want the alpha apart from the colour, so each backend splits it here.
 */
import type { Color } from '../layout/scene';

export interface ParsedColor {
  /** `#rrggbb`, lower case, without alpha. */
  hex: string;
  /** Channels 0..255. */
  r: number;
  g: number;
  b: number;
  /** 0..1. */
  alpha: number;
}

const HEX = /^#([0-9a-f]{3,4}|[0-9a-f]{6}|[0-9a-f]{8})$/i;

/**
 * Splits a scene colour into `#rrggbb` and alpha. Also takes the short `#rgb`/`#rgba` forms.
 * Throws on anything else: layout promised normalised colours, so another form is a layout bug.
 */
export function parseColor(color: Color): ParsedColor {
  const m = HEX.exec(color.trim());
  if (!m?.[1]) throw new Error(`invalid colour "${color}": expected #rrggbb or #rrggbbaa`);
  let digits = m[1].toLowerCase();
  if (digits.length <= 4) digits = [...digits].map((c) => c + c).join('');
  const byte = (i: number): number => parseInt(digits.slice(i, i + 2), 16);
  const alpha = digits.length === 8 ? byte(6) / 255 : 1;
  return { hex: `#${digits.slice(0, 6)}`, r: byte(0), g: byte(2), b: byte(4), alpha };
}

/** The same alpha with black as the colour (for the raster mask pass). */
export function blackWithAlphaOf(color: Color): Color {
  const { alpha } = parseColor(color);
  if (alpha >= 1) return '#000000';
  return `#000000${Math.round(alpha * 255)
    .toString(16)
    .padStart(2, '0')}`;
}
