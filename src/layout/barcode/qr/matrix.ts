/**
 * The QR module matrix (ISO/IEC 18004 clauses 7.6–7.9): function patterns, codewords placed in two-module
 * columns, and the data mask with the lowest penalty score. Modules are row-major, 1 = dark; x is the column.
 */
import { alignmentCentres, EC_LEVEL_BITS, symbolSize, type QrEcLevel } from './tables';

/** A symbol being built: `modules` and which of them are function patterns (never masked or overwritten). */
class Grid {
  readonly size: number;
  readonly modules: Uint8Array;
  readonly isFunction: Uint8Array;

  constructor(readonly version: number) {
    this.size = symbolSize(version);
    this.modules = new Uint8Array(this.size * this.size);
    this.isFunction = new Uint8Array(this.size * this.size);
  }

  setFunction(x: number, y: number, dark: boolean): void {
    const i = y * this.size + x;
    this.modules[i] = dark ? 1 : 0;
    this.isFunction[i] = 1;
  }
}

/** The finished symbol of `codewords` (data and EC, interleaved) at `version` and `level`. */
export function buildMatrix(version: number, level: QrEcLevel, codewords: Uint8Array): Uint8Array {
  const grid = new Grid(version);
  const n = grid.size;
  drawFunctionPatterns(grid, level);
  placeCodewords(grid, codewords);
  const patterns = maskPatterns(grid);
  const candidate = new Uint8Array(n * n);
  const setModule = (x: number, y: number, dark: boolean): void => {
    candidate[y * n + x] = dark ? 1 : 0;
  };
  let best = candidate;
  let bestPenalty = Infinity;
  patterns.forEach((pattern, mask) => {
    for (let i = 0; i < candidate.length; i++) candidate[i] = grid.modules[i]! ^ pattern[i]!;
    drawFormatBits(setModule, n, level, mask);
    const p = penalty(candidate, n);
    if (p < bestPenalty) {
      best = candidate.slice();
      bestPenalty = p;
    }
  });
  return best;
}

// Per version, the eight masks as XOR patterns over its data modules (function modules 0): masking is then one
// XOR per module. Built on first use of a version: 8 × 31 kB for version 40, under 4 MB if all 40 are used.
const maskCache = new Map<number, Uint8Array[]>();

function maskPatterns(grid: Grid): Uint8Array[] {
  const hit = maskCache.get(grid.version);
  if (hit) return hit;
  const n = grid.size;
  const patterns = Array.from({ length: 8 }, (_, mask) => {
    const pattern = new Uint8Array(n * n);
    for (let y = 0; y < n; y++) {
      for (let x = 0; x < n; x++) {
        if (!grid.isFunction[y * n + x] && masked(mask, x, y)) pattern[y * n + x] = 1;
      }
    }
    return pattern;
  });
  maskCache.set(grid.version, patterns);
  return patterns;
}

function drawFunctionPatterns(grid: Grid, level: QrEcLevel): void {
  const n = grid.size;
  for (let i = 0; i < n; i++) {
    grid.setFunction(6, i, i % 2 === 0);
    grid.setFunction(i, 6, i % 2 === 0);
  }
  // Finder patterns with their light separators (7×7 plus one module of separator inside the symbol).
  for (const [cx, cy] of [
    [3, 3],
    [n - 4, 3],
    [3, n - 4],
  ] as const) {
    for (let dy = -4; dy <= 4; dy++) {
      for (let dx = -4; dx <= 4; dx++) {
        const x = cx + dx;
        const y = cy + dy;
        if (x < 0 || x >= n || y < 0 || y >= n) continue;
        const ring = Math.max(Math.abs(dx), Math.abs(dy));
        grid.setFunction(x, y, ring !== 2 && ring !== 4);
      }
    }
  }
  const centres = alignmentCentres(grid.version);
  const last = centres.length - 1;
  centres.forEach((cy, i) => {
    centres.forEach((cx, j) => {
      // No alignment pattern where a finder pattern is.
      if ((i === 0 && j === 0) || (i === 0 && j === last) || (i === last && j === 0)) return;
      for (let dy = -2; dy <= 2; dy++) {
        for (let dx = -2; dx <= 2; dx++)
          grid.setFunction(cx + dx, cy + dy, Math.max(Math.abs(dx), Math.abs(dy)) !== 1);
      }
    });
  });
  // Reserve the format areas (the real bits go in once the mask is known) and draw the version information.
  drawFormatBits((x, y, dark) => grid.setFunction(x, y, dark), grid.size, level, 0);
  drawVersionBits(grid);
}

/** Format information (clause 7.9.1): level and mask, BCH(15,5) protected, XOR 101010000010010, twice. */
function drawFormatBits(
  set: (x: number, y: number, dark: boolean) => void,
  n: number,
  level: QrEcLevel,
  mask: number,
): void {
  const data = (EC_LEVEL_BITS[level] << 3) | mask;
  let rem = data;
  for (let i = 0; i < 10; i++) rem = (rem << 1) ^ ((rem >>> 9) * 0x537);
  const bits = ((data << 10) | rem) ^ 0x5412;
  const bit = (i: number): boolean => ((bits >>> i) & 1) !== 0;
  // Around the top-left finder: down column 8 (skipping the timing row), then left along row 8.
  for (let i = 0; i <= 5; i++) set(8, i, bit(i));
  set(8, 7, bit(6));
  set(8, 8, bit(7));
  set(7, 8, bit(8));
  for (let i = 9; i < 15; i++) set(14 - i, 8, bit(i));
  // The copy: row 8 under the top-right finder, column 8 beside the bottom-left one.
  for (let i = 0; i < 8; i++) set(n - 1 - i, 8, bit(i));
  for (let i = 8; i < 15; i++) set(8, n - 15 + i, bit(i));
  set(8, n - 8, true); // the dark module
}

/** Version information (clause 7.10), versions 7 and up: BCH(18,6), beside the top-right and bottom-left finders. */
function drawVersionBits(grid: Grid): void {
  if (grid.version < 7) return;
  let rem = grid.version;
  for (let i = 0; i < 12; i++) rem = (rem << 1) ^ ((rem >>> 11) * 0x1f25);
  const bits = (grid.version << 12) | rem;
  for (let i = 0; i < 18; i++) {
    const dark = ((bits >>> i) & 1) !== 0;
    const a = grid.size - 11 + (i % 3);
    const b = Math.floor(i / 3);
    grid.setFunction(a, b, dark);
    grid.setFunction(b, a, dark);
  }
}

/** Codeword bits in the zigzag of two-module columns from the bottom right (clause 7.7.3); remainder bits stay light. */
function placeCodewords(grid: Grid, codewords: Uint8Array): void {
  const n = grid.size;
  const total = codewords.length * 8;
  let i = 0;
  for (let right = n - 1; right >= 1; right -= 2) {
    if (right === 6) right = 5; // the vertical timing pattern takes column 6
    const upward = ((right + 1) & 2) === 0;
    for (let vert = 0; vert < n; vert++) {
      const y = upward ? n - 1 - vert : vert;
      for (let j = 0; j < 2; j++) {
        const at = y * n + right - j;
        if (grid.isFunction[at] || i >= total) continue;
        grid.modules[at] = ((codewords[i >>> 3] ?? 0) >>> (7 - (i & 7))) & 1;
        i++;
      }
    }
  }
}

/** Whether mask pattern `mask` (table 10) flips the module in column x, row y. */
function masked(mask: number, x: number, y: number): boolean {
  switch (mask) {
    case 0:
      return (x + y) % 2 === 0;
    case 1:
      return y % 2 === 0;
    case 2:
      return x % 3 === 0;
    case 3:
      return (x + y) % 3 === 0;
    case 4:
      return (Math.floor(x / 3) + Math.floor(y / 2)) % 2 === 0;
    case 5:
      return ((x * y) % 2) + ((x * y) % 3) === 0;
    case 6:
      return (((x * y) % 2) + ((x * y) % 3)) % 2 === 0;
    default:
      return (((x + y) % 2) + ((x * y) % 3)) % 2 === 0;
  }
}

// Penalty weights N1–N4 (clause 7.8.3.1).
const N1 = 3;
const N2 = 3;
const N3 = 40;
const N4 = 10;

/**
 * Penalty score of a masked symbol (clause 7.8.3): runs of five or more same-coloured modules, 2×2 blocks,
 * finder-like 1:1:3:1:1 patterns with four light modules on a side (outside the symbol counts as light), and
 * the distance of the dark share from 50 %.
 */
export function penalty(m: Uint8Array, n: number): number {
  let score = 0;
  for (let a = 0; a < n; a++) score += linePenalty(m, a * n, 1, n) + linePenalty(m, a, n, n);
  let dark = 0;
  for (let y = 0; y < n; y++) {
    const row = y * n;
    for (let x = 0; x < n; x++) {
      const v = m[row + x]!;
      dark += v;
      if (
        x < n - 1 &&
        y < n - 1 &&
        v === m[row + x + 1] &&
        v === m[row + n + x] &&
        v === m[row + n + x + 1]
      ) {
        score += N2;
      }
    }
  }
  const total = n * n;
  return score + (Math.ceil(Math.abs(dark * 20 - total * 10) / total) - 1) * N4;
}

// The last 11 modules as bits, newest lowest: a finder-like core 1011101 after four light modules, or before them.
const LIGHT_THEN_CORE = 0b00001011101;
const CORE_THEN_LIGHT = 0b10111010000;

/** Run and finder-like penalties of one row or column: `n` modules from `start`, `step` apart. */
function linePenalty(m: Uint8Array, start: number, step: number, n: number): number {
  let score = 0;
  let run = 0;
  let colour = -1;
  // Starts all light: the modules before the symbol are its quiet zone.
  let window = 0;
  for (let b = 0, i = start; b < n; b++, i += step) {
    const v = m[i]!;
    if (v === colour) {
      run++;
      if (run === 5) score += N1;
      else if (run > 5) score++;
    } else {
      colour = v;
      run = 1;
    }
    window = ((window << 1) | v) & 0x7ff;
    if (window === LIGHT_THEN_CORE && b >= 6) score += N3;
    if (window === CORE_THEN_LIGHT) score += N3;
  }
  // And the quiet zone after it.
  for (let k = 0; k < 4; k++) {
    window = (window << 1) & 0x7ff;
    if (window === CORE_THEN_LIGHT) score += N3;
  }
  return score;
}
