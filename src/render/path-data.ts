/**
 * SVG path data → absolute, normalised segments, in the path's own units. One parser for every backend that
 * draws `<path d>` itself (the 1-bit rasteriser flattens the segments, pdf-direct turns them into PDF
 * operators). Covers the whole grammar: M L H V C S Q T A Z, absolute and relative, implicit repeated
 * commands. H and V become lineTo, S and T become cubicTo and quadTo with the reflected control point; arcs
 * keep their endpoint parameters so each backend approximates them its own way.
 */

/** Thrown for malformed path data; each backend then falls back to resvg or pdfkit. */
export class PathDataError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PathDataError';
  }
}

/**
 * One absolute segment. `x0, y0` is the current point the segment starts from; `x, y` is where it ends.
 * `close` ends at the start of its subpath, which is where a following drawing command starts from.
 */
export type PathSegment =
  | { kind: 'moveTo'; x: number; y: number }
  | { kind: 'lineTo'; x0: number; y0: number; x: number; y: number }
  | {
      kind: 'cubicTo';
      x0: number;
      y0: number;
      x1: number;
      y1: number;
      x2: number;
      y2: number;
      x: number;
      y: number;
    }
  | { kind: 'quadTo'; x0: number; y0: number; x1: number; y1: number; x: number; y: number }
  | {
      kind: 'arcTo';
      x0: number;
      y0: number;
      /** Radii as written (may be negative or zero); rotation in degrees. */
      rx: number;
      ry: number;
      rotation: number;
      largeArc: boolean;
      sweep: boolean;
      x: number;
      y: number;
    }
  | { kind: 'close'; x: number; y: number };

export interface PathDataOptions {
  /**
   * Read any nonzero arc flag as 1, as pdfkit's parser does, instead of rejecting flags other than 0 and 1.
   * pdf-direct sets this so its output keeps matching pdfkit's.
   */
  lenientArcFlags?: boolean;
}

const TOKEN = /([MmZzLlHhVvCcSsQqTtAa])|([-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)|([\s,]+)|(.)/g;

function tokenize(d: string): (string | number)[] {
  const out: (string | number)[] = [];
  TOKEN.lastIndex = 0;
  for (let m = TOKEN.exec(d); m; m = TOKEN.exec(d)) {
    if (m[1]) out.push(m[1]);
    else if (m[2]) out.push(Number(m[2]));
    else if (m[4]) throw new PathDataError(`unexpected "${m[4]}" in path data`);
  }
  return out;
}

/** Parses path data into absolute segments. Throws PathDataError for malformed data. */
export function parsePathData(d: string, options: PathDataOptions = {}): PathSegment[] {
  const tokens = tokenize(d);
  const segments: PathSegment[] = [];
  let x = 0;
  let y = 0;
  let startX = 0;
  let startY = 0;
  // The previous segment's last control point, reflected by S (after C/S) and T (after Q/T).
  let controlX = 0;
  let controlY = 0;
  let prev = '';
  let cmd = '';
  let i = 0;
  const number = (): number => {
    const t = tokens[i++];
    if (typeof t !== 'number') throw new PathDataError(`path data: expected a number after "${cmd}"`);
    return t;
  };
  const flag = (): boolean => {
    const v = number();
    if (options.lenientArcFlags) return v !== 0;
    if (v !== 0 && v !== 1) throw new PathDataError('path data: arc flag must be 0 or 1');
    return v === 1;
  };
  while (i < tokens.length) {
    const t = tokens[i];
    if (typeof t === 'string') {
      cmd = t;
      i++;
    } else if (cmd === '' || cmd === 'Z' || cmd === 'z') {
      throw new PathDataError('path data: numbers without a command');
    } else if (cmd === 'M') cmd = 'L';
    else if (cmd === 'm') cmd = 'l';
    const rel = cmd === cmd.toLowerCase();
    const ox = rel ? x : 0;
    const oy = rel ? y : 0;
    const up = cmd.toUpperCase();
    const x0 = x;
    const y0 = y;
    switch (up) {
      case 'M':
        x = ox + number();
        y = oy + number();
        startX = x;
        startY = y;
        segments.push({ kind: 'moveTo', x, y });
        break;
      case 'L':
      case 'H':
      case 'V':
        if (up !== 'V') x = ox + number();
        if (up !== 'H') y = oy + number();
        segments.push({ kind: 'lineTo', x0, y0, x, y });
        break;
      case 'C':
      case 'S': {
        let x1 = x;
        let y1 = y;
        if (up === 'C') {
          x1 = ox + number();
          y1 = oy + number();
        } else if (prev === 'C' || prev === 'S') {
          x1 = 2 * x - controlX;
          y1 = 2 * y - controlY;
        }
        const x2 = ox + number();
        const y2 = oy + number();
        x = ox + number();
        y = oy + number();
        segments.push({ kind: 'cubicTo', x0, y0, x1, y1, x2, y2, x, y });
        controlX = x2;
        controlY = y2;
        break;
      }
      case 'Q':
      case 'T': {
        let x1 = x;
        let y1 = y;
        if (up === 'Q') {
          x1 = ox + number();
          y1 = oy + number();
        } else if (prev === 'Q' || prev === 'T') {
          x1 = 2 * x - controlX;
          y1 = 2 * y - controlY;
        }
        x = ox + number();
        y = oy + number();
        segments.push({ kind: 'quadTo', x0, y0, x1, y1, x, y });
        controlX = x1;
        controlY = y1;
        break;
      }
      case 'A': {
        const rx = number();
        const ry = number();
        const rotation = number();
        const largeArc = flag();
        const sweep = flag();
        x = ox + number();
        y = oy + number();
        segments.push({ kind: 'arcTo', x0, y0, rx, ry, rotation, largeArc, sweep, x, y });
        break;
      }
      case 'Z':
        x = startX;
        y = startY;
        segments.push({ kind: 'close', x, y });
        break;
      default:
        throw new PathDataError(`path data: unknown command "${cmd}"`);
    }
    prev = up;
  }
  return segments;
}

/** An elliptical arc in centre form: what both backends approximate (points or cubic curves). */
export interface ArcCenter {
  cx: number;
  cy: number;
  /** Radii, scaled up when the endpoints are farther apart than the written radii allow. */
  rx: number;
  ry: number;
  /** cos and sin of the ellipse's rotation. */
  cos: number;
  sin: number;
  /** Start angle and signed sweep, radians (on the unit circle before scaling and rotation). */
  theta1: number;
  delta: number;
}

/**
 * Endpoint → centre parameterisation of an arc (SVG 1.1 implementation notes F.6.5–F.6.6). The caller handles
 * the degenerate cases first (equal endpoints, a zero radius): each backend treats them its own way.
 */
export function arcCenter(
  x1: number,
  y1: number,
  rxIn: number,
  ryIn: number,
  rotationDeg: number,
  large: boolean,
  sweep: boolean,
  x2: number,
  y2: number,
): ArcCenter {
  let rx = Math.abs(rxIn);
  let ry = Math.abs(ryIn);
  const phi = (rotationDeg * Math.PI) / 180;
  const cos = Math.cos(phi);
  const sin = Math.sin(phi);
  const dx = (x1 - x2) / 2;
  const dy = (y1 - y2) / 2;
  const xp = cos * dx + sin * dy;
  const yp = -sin * dx + cos * dy;
  const lambda = (xp * xp) / (rx * rx) + (yp * yp) / (ry * ry);
  if (lambda > 1) {
    const s = Math.sqrt(lambda);
    rx *= s;
    ry *= s;
  }
  const num = rx * rx * ry * ry - rx * rx * yp * yp - ry * ry * xp * xp;
  const den = rx * rx * yp * yp + ry * ry * xp * xp;
  let coef = Math.sqrt(Math.max(0, num / den));
  if (large === sweep) coef = -coef;
  const cxp = (coef * rx * yp) / ry;
  const cyp = (-coef * ry * xp) / rx;
  const cx = cos * cxp - sin * cyp + (x1 + x2) / 2;
  const cy = sin * cxp + cos * cyp + (y1 + y2) / 2;
  const angle = (ux: number, uy: number, vx: number, vy: number): number =>
    Math.atan2(ux * vy - uy * vx, ux * vx + uy * vy);
  const theta1 = angle(1, 0, (xp - cxp) / rx, (yp - cyp) / ry);
  let delta = angle((xp - cxp) / rx, (yp - cyp) / ry, (-xp - cxp) / rx, (-yp - cyp) / ry);
  if (!sweep && delta > 0) delta -= 2 * Math.PI;
  if (sweep && delta < 0) delta += 2 * Math.PI;
  return { cx, cy, rx, ry, cos, sin, theta1, delta };
}
