/**
 * Which bundled font files a set of markups needs, so the browser SDK fetches those (~700 KB each) rather than
 * all twelve. Mirrors FontSet.resolve (src/layout/fonts.ts), which a test checks key for key.
 */
import { familyOf, normaliseStyle, type FontStyle } from '../layout/fonts';
import type { Markup } from '../model/schema';

const BASE = { sans: 'DejaVuSans', mono: 'DejaVuSansMono', serif: 'DejaVuSerif' } as const;
const SUFFIX: Record<'sans' | 'mono' | 'serif', Record<FontStyle, string>> = {
  sans: { normal: '', bold: '-Bold', italic: '-Oblique', 'bold italic': '-BoldOblique' },
  mono: { normal: '', bold: '-Bold', italic: '-Oblique', 'bold italic': '-BoldOblique' },
  serif: { normal: '', bold: '-Bold', italic: '-Italic', 'bold italic': '-BoldItalic' },
};

/** The font key FontSet.resolve picks for a markup family and style. */
export function fontKeyFor(family: string | undefined, style: string | undefined): string {
  const f = familyOf(family);
  return BASE[f] + SUFFIX[f][normaliseStyle(style)];
}

/** The sans regular (barcode text, fallback) plus every font a visible text element uses. */
export function fontKeysFor(markups: readonly Markup[]): string[] {
  const keys = new Set<string>([BASE.sans]);
  for (const markup of markups) {
    for (const el of markup.elements) {
      if (el.type === 'text' && el.visible !== false) keys.add(fontKeyFor(el.font.family, el.font.style));
    }
  }
  return [...keys];
}
