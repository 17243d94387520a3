/**
 * Polygon fill by scanlines, sampled at dot centres: a dot is black when its centre lies inside the shape
 * (what resvg's anti-aliased output thresholded at 50 % approximates). Contours are collected in device units
 * (dots, y down) as straight edges, then filled in one pass over the rows they touch with the nonzero or
 * even-odd rule, writing whole spans.
 */
import type { MonoBitmap } from '../bitmap';
import { dotFrom, fillSpan, type Ink } from './spans';

export type FillRule = 'nonzero' | 'evenodd';

/** Alpha a sub-row adds per covered quarter of a partly covered dot, and for a whole dot (last sub-row: 63). */
export const PARTIAL = 16;
export const FULL = 64;
export const FULL_LAST = 63;

/** Straight edges of closed contours, in device units. Reused between shapes to avoid allocation. */
export class EdgeList {
  /** Per edge: x at the top end, y top, y bottom, dx/dy, winding (+1 downwards, -1 upwards). */
  private xTop = new Float64Array(256);
  private yTop = new Float64Array(256);
  private yBottom = new Float64Array(256);
  private slope = new Float64Array(256);
  private winding = new Int8Array(256);
  count = 0;
  /** Bounding box of the edges added since the last reset. */
  minX = Infinity;
  maxX = -Infinity;
  minY = Infinity;
  maxY = -Infinity;
  private startX = 0;
  private startY = 0;
  private lastX = 0;
  private lastY = 0;
  private open = false;

  reset(): void {
    this.count = 0;
    this.minX = this.minY = Infinity;
    this.maxX = this.maxY = -Infinity;
    this.open = false;
  }

  moveTo(x: number, y: number): void {
    this.close();
    this.startX = this.lastX = x;
    this.startY = this.lastY = y;
    this.open = true;
  }

  lineTo(x: number, y: number): void {
    if (!this.open) {
      this.moveTo(x, y);
      return;
    }
    this.edge(this.lastX, this.lastY, x, y);
    this.lastX = x;
    this.lastY = y;
  }

  /** Closes the current contour back to its start (every filled contour is closed, as SVG fills it). */
  close(): void {
    if (this.open) this.edge(this.lastX, this.lastY, this.startX, this.startY);
    this.open = false;
  }

  /** A closed polygon from flat [x0, y0, x1, y1, ...] coordinates. */
  polygon(points: ArrayLike<number>, n = points.length): void {
    if (n < 6) return;
    this.moveTo(points[0] ?? 0, points[1] ?? 0);
    for (let i = 2; i + 1 < n; i += 2) this.lineTo(points[i] ?? 0, points[i + 1] ?? 0);
    this.close();
  }

  private edge(x0: number, y0: number, x1: number, y1: number): void {
    if (!(Number.isFinite(x0) && Number.isFinite(y0) && Number.isFinite(x1) && Number.isFinite(y1))) {
      throw new RangeError('EdgeList: non-finite coordinate');
    }
    if (x0 < this.minX) this.minX = x0;
    if (x0 > this.maxX) this.maxX = x0;
    if (y0 < this.minY) this.minY = y0;
    if (y0 > this.maxY) this.maxY = y0;
    if (x1 < this.minX) this.minX = x1;
    if (x1 > this.maxX) this.maxX = x1;
    if (y1 < this.minY) this.minY = y1;
    if (y1 > this.maxY) this.maxY = y1;
    if (y0 === y1) return; // horizontal edges never cross a row centre
    if (this.count === this.xTop.length) this.grow();
    const i = this.count++;
    const down = y1 > y0;
    this.yTop[i] = down ? y0 : y1;
    this.yBottom[i] = down ? y1 : y0;
    this.xTop[i] = down ? x0 : x1;
    this.slope[i] = (x1 - x0) / (y1 - y0);
    this.winding[i] = down ? 1 : -1;
  }

  private grow(): void {
    const n = this.xTop.length * 2;
    const g = <T extends Float64Array | Int8Array>(a: T, make: (n: number) => T): T => {
      const b = make(n);
      b.set(a);
      return b;
    };
    this.xTop = g(this.xTop, (k) => new Float64Array(k));
    this.yTop = g(this.yTop, (k) => new Float64Array(k));
    this.yBottom = g(this.yBottom, (k) => new Float64Array(k));
    this.slope = g(this.slope, (k) => new Float64Array(k));
    this.winding = g(this.winding, (k) => new Int8Array(k));
  }

  // Scratch for fill(), kept between calls.
  private keys = new Float64Array(256);
  private active = new Uint32Array(256);
  private activeX = new Float64Array(256);
  private newEdges = new Uint32Array(256);
  private newX = new Float64Array(256);
  private crossX = new Float64Array(256);
  private crossW = new Int8Array(256);

  /** Set while `coverageOf` runs: where the per-dot sub-sample counts go instead of a bitmap. */
  private sumInto: Uint8Array | undefined;

  /**
   * The anti-aliased coverage of the collected contours over `width` × `height` dots starting at device dot
   * (originX, originY): per dot, the alpha (0..255) resvg would give it, sampled as `fill` samples.
   */
  coverageOf(width: number, height: number, originX: number, originY: number, rule: FillRule): Uint8Array {
    const out = new Uint8Array(width * height);
    this.sumInto = out;
    try {
      const shape = { width, height, rowBytes: 0, data: out };
      this.fill(shape, rule, { op: 'set', need: 256 }, true, originX, originY);
    } finally {
      this.sumInto = undefined;
    }
    return out;
  }

  /** Per dot of the current row: alpha from partly covered sub-rows (anti-aliased fills). */
  private coverage = new Uint8Array(0);
  /** Per dot of the current row: change of the running alpha of wholly covered sub-rows. */
  private delta = new Int16Array(0);

  /**
   * Fills the collected contours into `bitmap` with `rule`, writing `ink` on the dots it covers. Clipped to the
   * bitmap: never touches a dot outside [0, width) × [0, height).
   *
   * Anti-aliased (the default) mirrors resvg's rasteriser (tiny-skia's 4× supersampler): four sub-rows per
   * dot, sampled at their centres (an edge counts where top < y ≤ bottom), span ends rounded to quarter dots.
   * A sub-row adds alpha to a dot: 16 per covered quarter where the span starts or ends inside the dot, and
   * 64 (63 on the dot's last sub-row) where it covers the whole dot, so a full dot is 255 and a dot half
   * covered from the left is 128 (black) but half covered from the top only 127 (white): measured, not
   * guessed (docs/performance.md). The ink lands where the alpha reaches `ink.need` (128 for black: resvg's
   * grey 127 is below the 50 % threshold). Without anti-aliasing (resvg's crispEdges, used for barcode
   * modules), a dot is inside when its centre is.
   *
   * `originX`/`originY`: the device dot that `bitmap`'s first dot stands for (a patch of a larger label; whole
   * dots, so sampling is unchanged).
   */
  fill(
    bitmap: MonoBitmap,
    rule: FillRule,
    ink: Ink | undefined,
    antialias = true,
    originX = 0,
    originY = 0,
  ): void {
    this.close();
    const n = this.count;
    if (n === 0 || !ink) return;
    if (this.active.length < n) {
      const size = Math.max(n, this.active.length * 2);
      this.active = new Uint32Array(size);
      this.activeX = new Float64Array(size);
      this.newEdges = new Uint32Array(size);
      this.newX = new Float64Array(size);
      this.crossX = new Float64Array(size);
      this.crossW = new Int8Array(size);
    }
    if (this.coverage.length < bitmap.width + 2) {
      this.coverage = new Uint8Array(bitmap.width + 2);
      this.delta = new Int16Array(bitmap.width + 2);
    }
    const {
      yTop,
      yBottom,
      xTop,
      slope,
      winding,
      active,
      activeX,
      newEdges,
      newX,
      crossX,
      crossW,
      coverage,
      delta,
    } = this;
    // Edges in order of their top, by a native sort of packed keys (sixteenth of a dot, edge index).
    const keys =
      this.keys.length >= n ? this.keys.subarray(0, n) : (this.keys = new Float64Array(n * 2)).subarray(0, n);
    const base = Math.floor(this.minY * 16);
    for (let i = 0; i < n; i++) keys[i] = (Math.floor((yTop[i] ?? 0) * 16) - base) * 1048576 + i;
    keys.sort();
    const firstRow = Math.max(originY, Math.floor(this.minY));
    const endRow = Math.min(originY + bitmap.height, Math.ceil(this.maxY) + 1);
    const quarterLeft = originX * 4;
    const evenOdd = rule === 'evenodd';
    const sub = antialias ? 4 : 1;
    const quarterWidth = bitmap.width * 4;
    const need = antialias ? ink.need : 1;
    let next = 0;
    let activeCount = 0;
    for (let y = firstRow; y < endRow; y++) {
      let touchedFrom = bitmap.width;
      let touchedTo = 0;
      for (let k = 0; k < sub; k++) {
        const yc = y + (k + 0.5) / sub;
        const ycKey = (Math.floor(yc * 16) - base) * 1048576 + 1048575;
        // Active edges with their x at this line, kept sorted by x: edges still active keep their order from
        // the previous line (an insertion sort fixes the few swaps), and the newly admitted ones (edges whose top
        // is at or above the line, to the sixteenth; checked exactly below) are sorted and merged in.
        let kept = 0;
        for (let j = 0; j < activeCount; j++) {
          const e = active[j] ?? 0;
          if ((yBottom[e] ?? 0) < yc) continue;
          const x = (xTop[e] ?? 0) + (yc - (yTop[e] ?? 0)) * (slope[e] ?? 0);
          let p = kept++;
          while (p > 0 && (activeX[p - 1] ?? 0) > x) {
            active[p] = active[p - 1] ?? 0;
            activeX[p] = activeX[p - 1] ?? 0;
            p--;
          }
          active[p] = e;
          activeX[p] = x;
        }
        let added = 0;
        while (next < n && (keys[next] ?? 0) <= ycKey) {
          const e = (keys[next++] ?? 0) % 1048576;
          if ((yBottom[e] ?? 0) < yc) continue;
          const x = (xTop[e] ?? 0) + (yc - (yTop[e] ?? 0)) * (slope[e] ?? 0);
          let p = added++;
          while (p > 0 && (newX[p - 1] ?? 0) > x) {
            newEdges[p] = newEdges[p - 1] ?? 0;
            newX[p] = newX[p - 1] ?? 0;
            p--;
          }
          newEdges[p] = e;
          newX[p] = x;
        }
        if (added > 0) {
          // Merge from the back, in place (active has room for every edge).
          let i = kept - 1;
          let j = added - 1;
          for (let o = kept + added - 1; j >= 0; o--) {
            if (i >= 0 && (activeX[i] ?? 0) > (newX[j] ?? 0)) {
              active[o] = active[i] ?? 0;
              activeX[o] = activeX[i--] ?? 0;
            } else {
              active[o] = newEdges[j] ?? 0;
              activeX[o] = newX[j--] ?? 0;
            }
          }
        }
        activeCount = kept + added;
        let crossings = 0;
        for (let j = 0; j < activeCount; j++) {
          const e = active[j] ?? 0;
          if ((yTop[e] ?? 0) >= yc) continue;
          crossX[crossings] = activeX[j] ?? 0;
          crossW[crossings++] = winding[e] ?? 0;
        }
        let wind = 0;
        for (let c = 0; c + 1 < crossings; c++) {
          wind += crossW[c] ?? 0;
          if (!(evenOdd ? (wind & 1) !== 0 : wind !== 0)) continue;
          // Merge consecutive inside intervals into one span.
          const start = crossX[c] ?? 0;
          while (c + 1 < crossings - 1) {
            const w2 = wind + (crossW[c + 1] ?? 0);
            if (!(evenOdd ? (w2 & 1) !== 0 : w2 !== 0)) break;
            wind = w2;
            c++;
          }
          const end = crossX[c + 1] ?? 0;
          if (!antialias) {
            fillSpan(bitmap, y - originY, dotFrom(start) - originX, dotFrom(end) - originX, ink.op);
            continue;
          }
          // Quarter-dot columns [qa, qb), as resvg's supersampler weighs them (alpha units, see spanAlpha).
          const qa = Math.max(0, Math.min(quarterWidth, Math.round(start * 4) - quarterLeft));
          const qb = Math.max(0, Math.min(quarterWidth, Math.round(end * 4) - quarterLeft));
          if (qa >= qb) continue;
          let da = qa >> 2;
          const db = qb >> 2;
          if (da < touchedFrom) touchedFrom = da;
          if (((qb - 1) >> 2) + 1 > touchedTo) touchedTo = ((qb - 1) >> 2) + 1;
          if (da === db) {
            coverage[da] = (coverage[da] ?? 0) + PARTIAL * (qb - qa);
            continue;
          }
          if ((qa & 3) !== 0) {
            coverage[da] = (coverage[da] ?? 0) + PARTIAL * (4 - (qa & 3));
            da++;
          }
          // Whole dots da..db-1: a running sum, applied once per row below.
          if (db > da) {
            const full = k === 3 ? FULL_LAST : FULL;
            delta[da] = (delta[da] ?? 0) + full;
            delta[db] = (delta[db] ?? 0) - full;
          }
          if ((qb & 3) !== 0) coverage[db] = (coverage[db] ?? 0) + PARTIAL * (qb & 3);
        }
      }
      const sum = this.sumInto;
      if (sum && touchedFrom < touchedTo) {
        // Coverage wanted as numbers (glyph masks): add the row's counts, clear them for the next row.
        const row = (y - originY) * bitmap.width;
        let run = 0;
        for (let x = touchedFrom; x < touchedTo; x++) {
          run += delta[x] ?? 0;
          sum[row + x] = Math.min(255, (sum[row + x] ?? 0) + (coverage[x] ?? 0) + run);
          coverage[x] = 0;
          delta[x] = 0;
        }
        delta[touchedTo] = 0;
        coverage[touchedTo] = 0;
      } else if (antialias && touchedFrom < touchedTo) {
        // Dots with enough sub-samples inside, as spans; the row's coverage is cleared for the next row.
        let runStart = -1;
        let run = 0;
        for (let x = touchedFrom; x <= touchedTo; x++) {
          run += delta[x] ?? 0;
          const inside = x < touchedTo && (coverage[x] ?? 0) + run >= need;
          coverage[x] = 0;
          delta[x] = 0;
          if (inside && runStart < 0) runStart = x;
          else if (!inside && runStart >= 0) {
            fillSpan(bitmap, y - originY, runStart, x, ink.op);
            runStart = -1;
          }
        }
      }
      if (next >= n && activeCount === 0) break;
    }
  }
}
