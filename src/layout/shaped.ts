/** The result of shaping, shared by the fontkit path (text-shape.ts) and the pairwise ASCII path (text-pairwise.ts). */

/** Glyphs of a shaped line or run in visual order; all lengths in font units, y up (fontkit's convention). */
export interface Shaped {
  ids: number[];
  /** Pen advance after each glyph. */
  advances: number[];
  xOffsets: number[];
  yOffsets: number[];
  /** Sum of `advances`: the advance width. */
  advance: number;
}
