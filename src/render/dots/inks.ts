/**
 * Colours → inks for the 1-bit painter (render-mono.ts), memoised per colour and opacity.
 */
import type { Color } from '../../layout/scene';
import { parseColor } from '../color';
import type { Ink } from './spans';

export interface InkTable {
  /**
   * What a colour at `opacity` does to a dot, as the resvg path decides it: a dot covered with anti-aliased
   * alpha `c` (0..255, see EdgeList.fill) gets the colour at alpha c/255 × its own; the grey that leaves over a
   * white dot and over a black dot is thresholded. The ink sets dots (darkens a white dot) or clears them
   * (lightens a black one), with the smallest coverage that does it; undefined when it changes neither.
   */
  paintOf(color: Color | undefined, opacity: number): Ink | undefined;
}

/** Inks thresholded at `threshold` (0..255, a grey below it is black), as the resvg path thresholds. */
export function inkTable(threshold: number): InkTable {
  const inks = new Map<string, Ink | null>();
  const computeInk = (color: Color, opacity: number): Ink | undefined => {
    const p = parseColor(color);
    const luma = 0.299 * p.r + 0.587 * p.g + 0.114 * p.b;
    const a = p.alpha * Math.min(1, opacity);
    const thr = threshold;
    const overWhite = (c: number): number => Math.round(255 - (c / 255) * a * (255 - luma));
    const overBlack = (c: number): number => Math.round((c / 255) * a * luma);
    if (overWhite(255) < thr) {
      for (let c = 1; c <= 255; c++) if (overWhite(c) < thr) return { op: 'set', need: c };
    }
    if (overBlack(255) >= thr) {
      for (let c = 1; c <= 255; c++) if (overBlack(c) >= thr) return { op: 'clear', need: c };
    }
    return undefined;
  };
  return {
    paintOf(color, opacity) {
      if (color === undefined || !(opacity > 0)) return undefined;
      const key = `${color}|${opacity}`;
      let ink = inks.get(key);
      if (ink === undefined) {
        ink = computeInk(color, opacity) ?? null;
        inks.set(key, ink);
      }
      return ink ?? undefined;
    },
  };
}
