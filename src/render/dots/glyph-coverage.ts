/**
 * Glyph coverage masks: each glyph's anti-aliased coverage (alpha 0..255 per dot, as EdgeList.fill samples
 * it) computed once per font, glyph, size and quarter-dot phase, then added into a text block's coverage at
 * every later use. The 4 × 4 sub-sample grid is a quarter-dot grid, so a glyph moved by whole quarter dots has
 * exactly the coverage of its phase moved by whole dots: a new text line costs a few additions per dot, not a
 * polygon scan. Pen positions are rounded to the quarter dot (at most 1/8 dot off; resvg places them exactly).
 */
import type { LoadedFont } from '../../layout/fonts';
import { createMonoBitmap } from '../bitmap';
import type { EdgeList } from './edges';
import { glyphContours } from './glyph-contours';
import type { Patch } from './patch-cache';
import type { Ink } from './spans';

/** A glyph's coverage: `cov` (width × height, alpha 0..255) with its first dot at (x, y) dots from the pen's dot. */
interface GlyphCoverage {
  x: number;
  y: number;
  width: number;
  height: number;
  cov: Uint8Array;
}

const MAX_PER_FONT = 20_000;
const perFont = new WeakMap<LoadedFont['font'], Map<string, GlyphCoverage | null>>();

function glyphCoverage(
  edges: EdgeList,
  font: LoadedFont,
  glyphId: number,
  sx: number,
  sy: number,
  phaseX: number,
  phaseY: number,
): GlyphCoverage | null {
  let map = perFont.get(font.font);
  if (!map) perFont.set(font.font, (map = new Map()));
  const key = `${glyphId}|${sx}|${sy}|${phaseX}${phaseY}`;
  let hit = map.get(key);
  if (hit !== undefined) return hit;
  hit = null;
  const contours = glyphContours(font, glyphId, Math.max(sx, sy) * font.font.unitsPerEm);
  if (contours.length > 0) {
    edges.reset();
    const ox = phaseX / 4;
    const oy = phaseY / 4;
    for (const c of contours) {
      for (let i = 0; i + 1 < c.length; i += 2) {
        const x = (c[i] ?? 0) * sx + ox;
        const y = -(c[i + 1] ?? 0) * sy + oy;
        if (i === 0) edges.moveTo(x, y);
        else edges.lineTo(x, y);
      }
      edges.close();
    }
    if (edges.count > 0) {
      const x0 = Math.floor(edges.minX) - 1;
      const y0 = Math.floor(edges.minY) - 1;
      const width = Math.ceil(edges.maxX) + 2 - x0;
      const height = Math.ceil(edges.maxY) + 2 - y0;
      hit = { x: x0, y: y0, width, height, cov: edges.coverageOf(width, height, x0, y0, 'nonzero') };
    }
  }
  if (map.size >= MAX_PER_FONT) map.clear();
  map.set(key, hit);
  return hit;
}

/** One glyph to place: pen position in device dots. */
export interface PlacedGlyph {
  id: number;
  x: number;
  y: number;
  /** A glyph of another font than the run's (a fallback font, issue #23), with its own dots per font unit. */
  font?: { font: LoadedFont; sx: number; sy: number };
}

/**
 * The mask of a run of glyphs of one font (a glyph may name its own) under an axis-aligned scale (sx, sy: dots per font unit), clipped to
 * a label of `labelWidth` × `labelHeight`: coverage added per dot, then the ink's threshold. Null when empty.
 */
export function glyphRunPatch(
  edges: EdgeList,
  font: LoadedFont,
  sx: number,
  sy: number,
  glyphs: readonly PlacedGlyph[],
  ink: Ink,
  labelWidth: number,
  labelHeight: number,
): Patch | null {
  const placed: { c: GlyphCoverage; x: number; y: number }[] = [];
  let minX = Infinity;
  let minY = Infinity;
  let maxX = -Infinity;
  let maxY = -Infinity;
  for (const g of glyphs) {
    const qx = Math.round(g.x * 4);
    const qy = Math.round(g.y * 4);
    const c = g.font
      ? glyphCoverage(edges, g.font.font, g.id, g.font.sx, g.font.sy, qx & 3, qy & 3)
      : glyphCoverage(edges, font, g.id, sx, sy, qx & 3, qy & 3);
    if (!c) continue;
    const x = (qx >> 2) + c.x;
    const y = (qy >> 2) + c.y;
    placed.push({ c, x, y });
    minX = Math.min(minX, x);
    minY = Math.min(minY, y);
    maxX = Math.max(maxX, x + c.width);
    maxY = Math.max(maxY, y + c.height);
  }
  const x0 = Math.max(0, minX) & ~7;
  const y0 = Math.max(0, minY);
  const x1 = Math.min(labelWidth, maxX);
  const y1 = Math.min(labelHeight, maxY);
  if (!(x0 < x1 && y0 < y1)) return null;
  const w = x1 - x0;
  const h = y1 - y0;
  // Rows of the sum padded to whole mask bytes, so eight dots are two 32-bit words: the threshold pass skips the
  // white between and around glyphs (most of a text block) a mask byte at a time (an ink needs 1 or more).
  const sw = (w + 7) & ~7;
  // Clamped: coverage that overlaps (kerned or touching glyphs) saturates at 255, as it did with Math.min.
  const sum = new Uint8ClampedArray(sw * h);
  const words = new Uint32Array(sum.buffer);
  for (const { c, x, y } of placed) {
    const fromRow = Math.max(0, y0 - y);
    const toRow = Math.min(c.height, y1 - y);
    const fromCol = Math.max(0, x0 - x);
    const toCol = Math.min(c.width, x1 - x);
    const cov = c.cov;
    for (let r = fromRow; r < toRow; r++) {
      const src = r * c.width - (y + r - y0) * sw - (x - x0);
      for (let d = (y + r - y0) * sw + (x - x0) + fromCol, end = d - fromCol + toCol; d < end; d++) {
        const v = cov[src + d] as number;
        if (v !== 0) sum[d] = (sum[d] as number) + v;
      }
    }
  }
  const mask = createMonoBitmap(w, h);
  const bits = mask.data;
  const need = ink.need;
  for (let r = 0; r < h; r++) {
    const row = r * sw;
    const out = r * mask.rowBytes;
    for (let k0 = 0; k0 < w; k0 += 8) {
      if (((words[(row + k0) >> 2] as number) | (words[(row + k0 + 4) >> 2] as number)) === 0) continue;
      let byte = 0;
      for (let k = k0, end = Math.min(w, k0 + 8); k < end; k++) {
        if ((sum[row + k] as number) >= need) byte |= 0x80 >> (k & 7);
      }
      if (byte !== 0) bits[out + (k0 >> 3)] = byte;
    }
  }
  return { x: x0, y: y0, mask };
}
