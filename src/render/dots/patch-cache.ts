/**
 * Drawn shapes kept as 1-bit masks: a text block (or another shape) that is the same on every label of a batch
 * — sender address, captions, field labels — is flattened and scanned once per template and dpi, and every
 * later label just ORs (or clears) its bytes in. Exact: a mask is the set of dots the shape's ink reaches,
 * which does not depend on what is beneath; patches start on a byte boundary, so blitting is whole bytes.
 */
import { LruCache } from '../../layout/lru';
import { createMonoBitmap, type MonoBitmap } from '../bitmap';
import type { EdgeList, FillRule } from './edges';
import type { Ink, Paint } from './spans';

/** The dots a shape inks: `mask` placed with its first dot at label dot (x, y); x is a multiple of 8. */
export interface Patch {
  x: number;
  y: number;
  mask: MonoBitmap;
}

/** Enough for every static shape of a few templates at a few dpis (a text block's mask is a few KB). */
const cache = new LruCache<string, Patch | null>(2048);

export function cachedPatch(key: string): Patch | null | undefined {
  return cache.get(key);
}

export function storePatch(key: string, patch: Patch | null): void {
  cache.set(key, patch);
}

/** Fills the collected edges into a new mask clipped to `label`; null when nothing is inked. */
export function patchFromEdges(
  edges: EdgeList,
  label: MonoBitmap,
  rule: FillRule,
  ink: Ink,
  antialias: boolean,
): Patch | null {
  if (edges.count === 0) return null;
  const x0 = Math.max(0, Math.floor(edges.minX) - 1) & ~7;
  const y0 = Math.max(0, Math.floor(edges.minY) - 1);
  const x1 = Math.min(label.width, Math.ceil(edges.maxX) + 2);
  const y1 = Math.min(label.height, Math.ceil(edges.maxY) + 2);
  if (x0 >= x1 || y0 >= y1) return null;
  const mask = createMonoBitmap(x1 - x0, y1 - y0);
  edges.fill(mask, rule, { op: 'set', need: ink.need }, antialias, x0, y0);
  return { x: x0, y: y0, mask };
}

/** Applies a patch's ink to the label: sets (or clears) exactly its dots. */
export function blitPatch(label: MonoBitmap, patch: Patch, op: Paint): void {
  const { mask } = patch;
  const firstByte = patch.x >> 3;
  const bytes = Math.min(mask.rowBytes, label.rowBytes - firstByte);
  const rows = Math.min(mask.height, label.height - patch.y);
  const src = mask.data;
  const dst = label.data;
  for (let r = 0; r < rows; r++) {
    const s = r * mask.rowBytes;
    const d = (patch.y + r) * label.rowBytes + firstByte;
    if (op === 'set') {
      for (let i = 0; i < bytes; i++) {
        const v = src[s + i] ?? 0;
        if (v !== 0) dst[d + i] = (dst[d + i] ?? 0) | v;
      }
    } else {
      for (let i = 0; i < bytes; i++) {
        const v = src[s + i] ?? 0;
        if (v !== 0) dst[d + i] = (dst[d + i] ?? 0) & ~v;
      }
    }
  }
}
