/**
 * Colours as the hosted markup writes them (`#rrggbb`) plus the short forms and CSS names people type by hand.
 * Everything is normalised to `#rrggbb` or `#rrggbbaa` before it reaches a Scene.
 */

const NAMED: Record<string, string> = {
  black: '#000000',
  white: '#ffffff',
  red: '#ff0000',
  green: '#008000',
  blue: '#0000ff',
  yellow: '#ffff00',
  orange: '#ffa500',
  gray: '#808080',
  grey: '#808080',
  lightgray: '#d3d3d3',
  lightgrey: '#d3d3d3',
  darkgray: '#a9a9a9',
  darkgrey: '#a9a9a9',
  silver: '#c0c0c0',
  navy: '#000080',
  purple: '#800080',
  transparent: '#00000000',
  none: '#00000000',
};

const HEX = /^#(?:[0-9a-fA-F]{3,4}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})$/;

/** True when `value` is a colour we can draw. */
export function isColor(value: string): boolean {
  return HEX.test(value) || Object.hasOwn(NAMED, value.toLowerCase());
}

/** `#rgb`, `#rgba`, `#rrggbb`, `#rrggbbaa` or a CSS name → lowercase `#rrggbb` / `#rrggbbaa`. */
export function normaliseColor(value: string): string {
  const named = NAMED[value.toLowerCase()];
  if (named) return named;
  if (!HEX.test(value)) throw new Error(`not a colour: "${value}"`);
  const hex = value.slice(1).toLowerCase();
  if (hex.length === 3 || hex.length === 4) {
    return '#' + [...hex].map((c) => c + c).join('');
  }
  return '#' + hex;
}

/** True when the colour draws nothing (fully transparent). */
export function isInvisible(color: string | undefined): boolean {
  return color === undefined || (color.length === 9 && color.endsWith('00'));
}
