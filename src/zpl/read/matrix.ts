/** Field orientation (N, R, I, B: 0, 90, 180, 270 degrees clockwise) as matrices on the dot grid. */
import type { Matrix } from '../../layout/scene';

export type Orientation = 'N' | 'R' | 'I' | 'B';

export function orientationOf(v: string | undefined, fallback: Orientation): Orientation {
  const o = (v ?? '').trim().toUpperCase();
  return o === 'N' || o === 'R' || o === 'I' || o === 'B' ? o : fallback;
}

export function multiply(a: Matrix, b: Matrix): Matrix {
  return [
    a[0] * b[0] + a[2] * b[1],
    a[1] * b[0] + a[3] * b[1],
    a[0] * b[2] + a[2] * b[3],
    a[1] * b[2] + a[3] * b[3],
    a[0] * b[4] + a[2] * b[5] + a[4],
    a[1] * b[4] + a[3] * b[5] + a[5],
  ];
}

export const translate = (x: number, y: number): Matrix => [1, 0, 0, 1, x, y];

const ROTATION: Record<Orientation, Matrix> = {
  N: [1, 0, 0, 1, 0, 0],
  R: [0, 1, -1, 0, 0, 0],
  I: [-1, 0, 0, -1, 0, 0],
  B: [0, -1, 1, 0, 0, 0],
};

/**
 * Places a field drawn in local coordinates (origin its top-left, `width` × `height` before rotation) so that
 * its rotated box has its top-left at (x, y): `^FO`'s rule for every orientation.
 */
export function placeTopLeft(o: Orientation, x: number, y: number, width: number, height: number): Matrix {
  const offset: Record<Orientation, [number, number]> = {
    N: [x, y],
    R: [x + height, y],
    I: [x + width, y + height],
    B: [x, y + width],
  };
  const [tx, ty] = offset[o];
  return multiply(translate(tx, ty), ROTATION[o]);
}

/**
 * `^FT`'s rule: the local point (0, `anchorY`) — the baseline's start for text, the bottom-left for bar codes
 * and graphics — lands on (x, y), the field rotated about it.
 */
export function placeAnchor(o: Orientation, x: number, y: number, anchorY: number): Matrix {
  return multiply(multiply(translate(x, y), ROTATION[o]), translate(0, -anchorY));
}
