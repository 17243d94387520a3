/** Affine matrices of the rasteriser (SVG `matrix(a b c d e f)` order, as the Scene's). */
import type { Matrix } from '../../layout/scene';

/** m × n: n applied first, then m. */
export const multiply = (m: Matrix, n: Matrix): Matrix => [
  m[0] * n[0] + m[2] * n[1],
  m[1] * n[0] + m[3] * n[1],
  m[0] * n[2] + m[2] * n[3],
  m[1] * n[2] + m[3] * n[3],
  m[0] * n[4] + m[2] * n[5] + m[4],
  m[1] * n[4] + m[3] * n[5] + m[5],
];

/** Largest length a unit vector can get under m (close enough to turn a dot tolerance into local units). */
export const scaleOf = (m: Matrix): number => Math.max(Math.hypot(m[0], m[1]), Math.hypot(m[2], m[3]));

/** No rotation or skew: axis-aligned rectangles stay axis-aligned. */
export const axisAligned = (m: Matrix): boolean => m[1] === 0 && m[2] === 0;
