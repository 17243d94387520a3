/**
 * Glyph outlines for the 1-bit rasteriser: the same outlines the SVG backend draws (glyph-paths.ts, font
 * units, y up), flattened once per font, glyph and pixel size, so a batch of labels flattens each letter once.
 */
import type * as fontkit from 'fontkit';
import type { LoadedFont } from '../../layout/fonts';
import { glyphPath } from '../../layout/glyph-paths';
import { flattenPath } from './flatten';

/** Closed contours, flat [x, y, ...] in font units (y up). */
export type GlyphContours = readonly Float64Array[];

/** Chord error of a flattened glyph curve, in dots. */
const TOLERANCE_DOTS = 0.08;
/** Sizes are bucketed to this many dots per em before flattening (a finer bucket would not change a dot). */
const EM_BUCKET = 0.5;
/** Cap per font: a long batch of varied sizes must not grow memory without bound. */
const MAX_PER_FONT = 20_000;

const perFont = new WeakMap<fontkit.Font, Map<string, GlyphContours>>();

/** Contours of `glyphId` flattened for drawing at `dotsPerEm` dots per em. Empty for a space. */
export function glyphContours(font: LoadedFont, glyphId: number, dotsPerEm: number): GlyphContours {
  let map = perFont.get(font.font);
  if (!map) perFont.set(font.font, (map = new Map()));
  const bucket = Math.max(EM_BUCKET, Math.round(dotsPerEm / EM_BUCKET) * EM_BUCKET);
  const key = `${glyphId}@${bucket}`;
  let contours = map.get(key);
  if (!contours) {
    const d = glyphPath(font, glyphId);
    const tol = (TOLERANCE_DOTS * font.font.unitsPerEm) / bucket;
    contours = d === '' ? [] : flattenPath(d, tol).map((l) => Float64Array.from(l.points));
    if (map.size >= MAX_PER_FONT) map.clear();
    map.set(key, contours);
  }
  return contours;
}
