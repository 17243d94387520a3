/**
 * Konva's wedge, ring and arc as SVG path data, checked the way a user sees them: rasterised (resvg), with
 * pixels known to be inside or outside the shape. Angles are clockwise from 3 o'clock (y points down).
 */
import { Resvg } from '@resvg/resvg-js';
import { describe, expect, it } from 'vitest';
import { arcPath, linePath, ringPath, wedgePath } from '../../src/layout/shapes';

const SIZE = 120;
const C = SIZE / 2;

/** Is the pixel at polar (radius, degrees clockwise from 3 o'clock) around the centre dark? */
function darkAtPolar(d: string, evenOdd: boolean, points: [number, number][]): boolean[] {
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="${SIZE}" height="${SIZE}">` +
    `<path transform="translate(${C} ${C})" d="${d}"${evenOdd ? ' fill-rule="evenodd"' : ''} fill="#000"/></svg>`;
  const img = new Resvg(svg, { font: { loadSystemFonts: false }, background: 'white' }).render();
  return points.map(([r, deg]) => {
    const a = (deg * Math.PI) / 180;
    const x = Math.round(C + r * Math.cos(a));
    const y = Math.round(C + r * Math.sin(a));
    return (img.pixels[(y * img.width + x) * 4] ?? 255) < 128;
  });
}

describe('wedgePath', () => {
  it('fills from 0° to the angle, clockwise, down to the centre', () => {
    const d = wedgePath(50, 90);
    // 45° is inside (lower right quadrant), 135° and 315° are not, past the radius is not.
    expect(
      darkAtPolar(d, false, [
        [25, 45],
        [45, 45],
        [25, 135],
        [25, 315],
        [56, 45],
      ]),
    ).toEqual([true, true, false, false, false]);
  });

  it('takes the long way round past 180° (270°: three quadrants, the fourth empty)', () => {
    const d = wedgePath(50, 270);
    expect(
      darkAtPolar(d, false, [
        [30, 45],
        [30, 135],
        [30, 225],
        [30, 315],
      ]),
    ).toEqual([true, true, true, false]);
  });

  it('is a full disc at 360° and nothing at 0°', () => {
    expect(
      darkAtPolar(wedgePath(50, 360), false, [
        [30, 0],
        [30, 90],
        [30, 180],
        [30, 270],
        [0, 0],
      ]),
    ).toEqual([true, true, true, true, true]);
    expect(wedgePath(50, 0)).toBe('');
  });
});

describe('ringPath', () => {
  it('is the band between the radii, with an empty hole under the even-odd rule', () => {
    const d = ringPath(20, 40);
    expect(
      darkAtPolar(d, true, [
        [0, 0],
        [10, 0],
        [30, 0],
        [30, 90],
        [30, 200],
        [45, 0],
      ]),
    ).toEqual([false, false, true, true, true, false]);
  });

  it('accepts the radii in either order, and is a disc with no inner radius', () => {
    expect(ringPath(40, 20)).toBe(ringPath(20, 40));
    expect(
      darkAtPolar(ringPath(0, 40), true, [
        [0, 0],
        [30, 90],
      ]),
    ).toEqual([true, true]);
  });
});

describe('arcPath', () => {
  it('is the ring section from 0° to the angle, clockwise', () => {
    const d = arcPath(20, 40, 180);
    expect(
      darkAtPolar(d, true, [
        [30, 10],
        [30, 90],
        [30, 170],
        [30, 270],
        [10, 90],
        [45, 90],
      ]),
    ).toEqual([true, true, true, false, false, false]);
  });

  it('takes the long way round past 180°', () => {
    const d = arcPath(20, 40, 300);
    expect(
      darkAtPolar(d, true, [
        [30, 90],
        [30, 200],
        [30, 280],
        [30, 330],
      ]),
    ).toEqual([true, true, true, false]);
  });

  it('is a whole ring at 360° and nothing at 0°', () => {
    expect(arcPath(20, 40, 360)).toBe(ringPath(20, 40));
    expect(arcPath(20, 40, 0)).toBe('');
  });
});

describe('linePath', () => {
  it('joins point pairs, closing only on request, with at most 2 decimals', () => {
    expect(linePath([0, 0, 10.123, 5, 20, 0], false)).toBe('M0 0L10.12 5L20 0');
    expect(linePath([0, 0, 10, 5, 20, 0], true)).toBe('M0 0L10 5L20 0Z');
  });
});
