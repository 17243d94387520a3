/**
 * The font port. Layout measures and shapes with these fonts; the SVG backend draws their glyph outlines;
 * the PDF backend embeds the same files. Fonts are data handed in by the edge (Node loads them from
 * assets/fonts, the browser fetches them), so everything under src/layout and src/render stays pure.
 */
import * as fontkit from 'fontkit';

export type FontStyle = 'normal' | 'bold' | 'italic' | 'bold italic';

export interface LoadedFont {
  /** Stable key used in Scene text nodes, e.g. "DejaVuSans-Bold". */
  key: string;
  /** The TTF file, for embedding (PDF). */
  data: Uint8Array;
  font: fontkit.Font;
}

export interface FontSet {
  /** The font for a markup family + style; unknown families fall back to the sans family. */
  resolve(family: string | undefined, style: FontStyle | undefined): LoadedFont;
  /** A font by its key (as written into a Scene). Throws for an unknown key. */
  get(key: string): LoadedFont;
  /**
   * Fonts tried, in order, for text the primary font lacks (layout picks one per script run, see
   * text-fallback.ts): DejaVu Sans when the primary is another face, then the loaded fallback chain
   * (FALLBACK_FONT_FILES order). Empty when nothing else is loaded.
   */
  fallbacks(primary: LoadedFont): readonly LoadedFont[];
}

/** The bundled font files: key → file name under assets/fonts. */
export const BUNDLED_FONT_FILES: Record<string, string> = {
  DejaVuSans: 'DejaVuSans.ttf',
  'DejaVuSans-Bold': 'DejaVuSans-Bold.ttf',
  'DejaVuSans-Oblique': 'DejaVuSans-Oblique.ttf',
  'DejaVuSans-BoldOblique': 'DejaVuSans-BoldOblique.ttf',
  DejaVuSansMono: 'DejaVuSansMono.ttf',
  'DejaVuSansMono-Bold': 'DejaVuSansMono-Bold.ttf',
  'DejaVuSansMono-Oblique': 'DejaVuSansMono-Oblique.ttf',
  'DejaVuSansMono-BoldOblique': 'DejaVuSansMono-BoldOblique.ttf',
  DejaVuSerif: 'DejaVuSerif.ttf',
  'DejaVuSerif-Bold': 'DejaVuSerif-Bold.ttf',
  'DejaVuSerif-Italic': 'DejaVuSerif-Italic.ttf',
  'DejaVuSerif-BoldItalic': 'DejaVuSerif-BoldItalic.ttf',
};

/**
 * The bundled fallback chain (issue #23), key → file name under assets/fonts, in the order tried after the
 * element's own font and DejaVu Sans: one Noto Sans face per script DejaVu lacks or covers thinly, then CJK
 * (Droid Sans Fallback: Han and kana, no Hangul) and Hangul (NanumSquare). TrueType outlines only: the PDF
 * writer embeds FontFile2. Sizes and licences: docs/fonts.md.
 */
export const FALLBACK_FONT_FILES: Record<string, string> = {
  NotoSansArabic: 'NotoSansArabic-Regular.ttf',
  NotoSansHebrew: 'NotoSansHebrew-Regular.ttf',
  NotoSansThai: 'NotoSansThai-Regular.ttf',
  NotoSansDevanagari: 'NotoSansDevanagari-Regular.ttf',
  NotoSansBengali: 'NotoSansBengali-Regular.ttf',
  NotoSansGujarati: 'NotoSansGujarati-Regular.ttf',
  NotoSansGurmukhi: 'NotoSansGurmukhi-Regular.ttf',
  NotoSansTamil: 'NotoSansTamil-Regular.ttf',
  NotoSansTelugu: 'NotoSansTelugu-Regular.ttf',
  NotoSansKannada: 'NotoSansKannada-Regular.ttf',
  NotoSansMalayalam: 'NotoSansMalayalam-Regular.ttf',
  NotoSansSinhala: 'NotoSansSinhala-Regular.ttf',
  NotoSansArmenian: 'NotoSansArmenian-Regular.ttf',
  NotoSansGeorgian: 'NotoSansGeorgian-Regular.ttf',
  NotoSansEthiopic: 'NotoSansEthiopic-Regular.ttf',
  NotoSansKhmer: 'NotoSansKhmer-Regular.ttf',
  NotoSansLao: 'NotoSansLao-Regular.ttf',
  NotoSansMyanmar: 'NotoSansMyanmar-Regular.ttf',
  DroidSansFallback: 'DroidSansFallbackFull.ttf',
  NanumSquare: 'NanumSquareR.ttf',
};

type Family = 'sans' | 'mono' | 'serif';

const FAMILY_KEYS: Record<Family, Record<FontStyle, string>> = {
  sans: {
    normal: 'DejaVuSans',
    bold: 'DejaVuSans-Bold',
    italic: 'DejaVuSans-Oblique',
    'bold italic': 'DejaVuSans-BoldOblique',
  },
  mono: {
    normal: 'DejaVuSansMono',
    bold: 'DejaVuSansMono-Bold',
    italic: 'DejaVuSansMono-Oblique',
    'bold italic': 'DejaVuSansMono-BoldOblique',
  },
  serif: {
    normal: 'DejaVuSerif',
    bold: 'DejaVuSerif-Bold',
    italic: 'DejaVuSerif-Italic',
    'bold italic': 'DejaVuSerif-BoldItalic',
  },
};

const MONO = /mono|courier|consol|menlo|monaco|code/i;
const SERIF = /^(serif|times|georgia|garamond|cambria|palatino|book antiqua|dejavu serif)/i;

/** Markup families (the hosted default is Arial) to one of our three bundled families. */
export function familyOf(family: string | undefined): Family {
  const name = (family ?? '').trim();
  if (MONO.test(name)) return 'mono';
  if (SERIF.test(name)) return 'serif';
  return 'sans';
}

/** Normalises `font.style` strings such as "Bold", "italic bold", "700". */
export function normaliseStyle(style: string | undefined): FontStyle {
  const s = (style ?? '').toLowerCase();
  const bold = /bold|[6-9]00/.test(s);
  const italic = /italic|oblique/.test(s);
  if (bold && italic) return 'bold italic';
  if (bold) return 'bold';
  if (italic) return 'italic';
  return 'normal';
}

/** Builds a FontSet from font files already in memory (key → TTF bytes). */
export function createFontSet(files: Record<string, Uint8Array>): FontSet {
  const fonts = new Map<string, LoadedFont>();
  for (const [key, data] of Object.entries(files)) {
    // fontkit reads any Uint8Array (its typings say Buffer).
    const created = fontkit.create(data as Buffer);
    if (!('unitsPerEm' in created)) throw new Error(`font ${key}: a font collection is not supported`);
    fonts.set(key, { key, data, font: created });
  }
  const get = (key: string): LoadedFont => {
    const f = fonts.get(key);
    if (!f) throw new Error(`font "${key}" is not loaded`);
    return f;
  };
  const primarySans = FAMILY_KEYS.sans.normal;
  const chains = new Map<LoadedFont, readonly LoadedFont[]>();
  return {
    get,
    resolve(family, style) {
      const key = FAMILY_KEYS[familyOf(family)][style ?? 'normal'];
      return fonts.get(key) ?? get(primarySans);
    },
    fallbacks(primary) {
      let chain = chains.get(primary);
      if (!chain) {
        const keys = [primarySans, ...Object.keys(FALLBACK_FONT_FILES)];
        chain = keys.flatMap((k) => {
          const f = fonts.get(k);
          return f && f !== primary ? [f] : [];
        });
        chains.set(primary, chain);
      }
      return chain;
    },
  };
}
