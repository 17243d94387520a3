/**
 * The printer's fonts, as bundled open fonts inside the cells the ZPL II guide documents ("Font Matrices").
 *
 * - `0` (CG Triumvirate Bold Condensed, scalable) and `P`–`V` (scaled with their default sizes): DejaVu Sans
 *   Bold, em = the command's height, squeezed horizontally so an average character is as wide as the printer's
 *   (ZERO_WIDTH_FACTOR, measured: docs/zpl.md "Fonts").
 * - bitmap fonts `A`–`H` and `GS`: fixed cells, magnified by whole numbers (1–10) in height and width; each
 *   character drawn with DejaVu Sans Mono scaled to its cell (one advance a cell).
 */
export interface BitmapFontCell {
  /** Matrix height and width in dots, and the gap between characters, at 203 dpi (8 dots/mm). */
  height: number;
  width: number;
  gap: number;
}

/** The guide's font matrices at 8 dots/mm; A–D, F, G are the same dots at every resolution. */
const CELLS_8: Record<string, BitmapFontCell> = {
  A: { height: 9, width: 5, gap: 1 },
  B: { height: 11, width: 7, gap: 2 },
  C: { height: 18, width: 10, gap: 2 },
  D: { height: 18, width: 10, gap: 2 },
  E: { height: 28, width: 15, gap: 5 },
  F: { height: 26, width: 13, gap: 3 },
  G: { height: 60, width: 40, gap: 8 },
  H: { height: 21, width: 13, gap: 6 },
};

/** OCR-B (E) and OCR-A (H) have cells of their own at 12 and 24 dots/mm. */
const OCR_CELLS_12: Record<string, BitmapFontCell> = {
  E: { height: 42, width: 20, gap: 5 },
  H: { height: 34, width: 22, gap: 9 },
};
const OCR_CELLS_24: Record<string, BitmapFontCell> = {
  E: { height: 56, width: 32, gap: 8 },
  H: { height: 48, width: 32, gap: 14 },
};

/** Default height × width (dots) of the smooth fonts P–V at 8 dots/mm. */
const SMOOTH_8: Record<string, { height: number; width: number }> = {
  P: { height: 20, width: 18 },
  Q: { height: 28, width: 24 },
  R: { height: 35, width: 31 },
  S: { height: 40, width: 35 },
  T: { height: 48, width: 42 },
  U: { height: 59, width: 53 },
  V: { height: 80, width: 71 },
};

export type ZplFontKind =
  { kind: 'scalable'; height: number; width: number } | { kind: 'bitmap'; cell: BitmapFontCell };

/** What font letter `f` is at `dpi`; undefined for a letter the printer would not know (^CW aliases aside). */
export function fontOf(f: string, dpi: number): ZplFontKind | undefined {
  const letter = f.toUpperCase();
  if (letter === '0') return { kind: 'scalable', height: 15, width: 12 };
  const smooth = SMOOTH_8[letter];
  if (smooth) return { kind: 'scalable', height: smooth.height, width: smooth.width };
  if (dpi >= 500) {
    const ocr = OCR_CELLS_24[letter];
    if (ocr) return { kind: 'bitmap', cell: ocr };
  } else if (dpi >= 250) {
    const ocr = OCR_CELLS_12[letter];
    if (ocr) return { kind: 'bitmap', cell: ocr };
  }
  const cell = CELLS_8[letter];
  return cell ? { kind: 'bitmap', cell } : undefined;
}

/**
 * DejaVu Sans Bold is wider than CG Triumvirate Bold Condensed: at ^A0N,h,h the printer's characters average
 * this much of DejaVu Sans Bold's width at em = h (measured against zpl-renderer-js: docs/zpl.md "Fonts").
 */
export const ZERO_WIDTH_FACTOR = 0.73;
/** Where the baseline sits in a character cell of height h, from its top: capitals fill the cell's top. */
export const CELL_BASELINE = { scalable: 0.76, bitmap: 0.75 } as const;
/** Scalable text: the sans face (^A0, P–V); bitmap fonts: the monospaced face, one character a cell. */
export const SCALABLE_FACE = 'DejaVuSans-Bold';
export const BITMAP_FACE = 'DejaVuSansMono';
/** DejaVu Sans Mono's advance, as a fraction of its em. */
export const MONO_ADVANCE_EM = 0.602;
