/**
 * The font port. Layout measures and shapes with these fonts; the SVG backend draws their glyph outlines;
 * the PDF backend embeds the same files. Fonts are data handed in by the edge (Node loads them from
 * assets/fonts, the browser fetches them), so everything under src/layout and src/render stays pure.
 */
import * as fontkit from 'fontkit';
import { LruCache } from './lru';

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
  /**
   * The last link of the chain: the first font source marked `fallback` (fonts installed on the machine) with a
   * glyph for every character of `grapheme`, loaded when first needed; undefined when none has. Only asked for
   * what the bundled fonts lack.
   */
  lastResort(grapheme: string): LoadedFont | undefined;
  /** The families a template may name besides the bundled ones (user and system fonts), sorted. */
  families(): readonly string[];
}

/**
 * A font the set loads only when a template names its family or fallback reaches it: a user's font (the data
 * folder's fonts/) or one installed on the machine. Loading tens of system fonts up front would cost seconds
 * and hundreds of MB; most labels need none.
 */
export interface FontSource {
  /** Its key in Scenes, unique in the set, e.g. "user/AcmeSans-Bold.ttf". */
  key: string;
  /** The family a template names (markup `font.family`), matched without regard to case. */
  family: string;
  style: FontStyle;
  /** Also a link of the fallback chain, after the bundled fonts (user fonts, then system fonts: src/node/fonts.ts). */
  fallback: boolean;
  /** The font file's bytes; may throw (the file went away): the source is then skipped for good. */
  load(): Uint8Array;
}

export interface FontSetOptions {
  /** In order of preference: the first source of a family wins (user fonts before system fonts). */
  sources?: readonly FontSource[];
}

/**
 * Parses a single TrueType font (glyf outlines: what the PDF writer embeds as FontFile2), or says why not.
 * Collections (.ttc) and CFF-outline OpenType (.otf) are refused.
 */
export function parseTrueType(data: Uint8Array): fontkit.Font | string {
  let created: ReturnType<typeof fontkit.create>;
  try {
    // fontkit reads any Uint8Array (its typings say Buffer).
    created = fontkit.create(data as Buffer);
  } catch (e) {
    return `not a font file (${e instanceof Error ? e.message : String(e)})`;
  }
  if (!('unitsPerEm' in created)) return 'a font collection is not supported';
  const tables = (created as unknown as { directory?: { tables?: Record<string, unknown> } }).directory
    ?.tables;
  if (!tables?.glyf) return 'only TrueType outlines (glyf) are supported, not CFF';
  return created;
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

/**
 * The generic families templates default to, named by the hosted API and the bundled templates (any case). They
 * are always the bundled DejaVu faces (`familyOf`), never a user's or the machine's font of the same name, so a
 * template that names them prints the same on every machine and in the page's preview (issue #23, docs/fonts.md).
 */
const GENERIC_FAMILIES = new Set([
  '',
  'arial',
  'helvetica',
  'helvetica neue',
  'sans-serif',
  'sans',
  'system-ui',
  'dejavu sans',
  'serif',
  'times',
  'times new roman',
  'georgia',
  'garamond',
  'cambria',
  'palatino',
  'palatino linotype',
  'book antiqua',
  'dejavu serif',
  'monospace',
  'mono',
  'courier',
  'courier new',
  'consolas',
  'menlo',
  'monaco',
  'dejavu sans mono',
]);

/**
 * Whether `family` is drawn with the bundled fonts on every machine: a generic family (Arial, Helvetica, Times,
 * Courier…) or none. Any other name resolves to a user or system font of that name where there is one, so the
 * page's preview, which has only the bundled fonts, hands such a label to main.
 */
export function isBundledFamily(family: string | undefined): boolean {
  return GENERIC_FAMILIES.has((family ?? '').trim().toLowerCase());
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

/**
 * Builds a FontSet from font files already in memory (key → TTF bytes) and, optionally, font sources loaded on
 * first use.
 */
export function createFontSet(files: Record<string, Uint8Array>, options: FontSetOptions = {}): FontSet {
  const fonts = new Map<string, LoadedFont>();
  for (const [key, data] of Object.entries(files)) {
    // fontkit reads any Uint8Array (its typings say Buffer).
    const created = fontkit.create(data as Buffer);
    if (!('unitsPerEm' in created)) throw new Error(`font ${key}: a font collection is not supported`);
    fonts.set(key, { key, data, font: created });
  }
  const sources = options.sources ?? [];
  const sourceByKey = new Map(sources.map((src) => [src.key, src]));
  /** Sources that could not be loaded or parsed, never tried again. */
  const broken = new Set<string>();
  const load = (src: FontSource): LoadedFont | undefined => {
    const known = fonts.get(src.key);
    if (known || broken.has(src.key)) return known;
    let data: Uint8Array;
    try {
      data = src.load();
    } catch {
      broken.add(src.key);
      return undefined;
    }
    const parsed = parseTrueType(data);
    if (typeof parsed === 'string') {
      broken.add(src.key);
      return undefined;
    }
    const loaded = { key: src.key, data, font: parsed };
    fonts.set(src.key, loaded);
    return loaded;
  };
  const get = (key: string): LoadedFont => {
    const src = sourceByKey.get(key);
    const f = fonts.get(key) ?? (src && load(src));
    if (!f) throw new Error(`font "${key}" is not loaded`);
    return f;
  };
  const byFamily = new Map<string, FontSource[]>();
  for (const src of sources) {
    const name = src.family.trim().toLowerCase();
    let list = byFamily.get(name);
    if (!list) byFamily.set(name, (list = []));
    list.push(src);
  }
  const primarySans = FAMILY_KEYS.sans.normal;
  const chains = new Map<LoadedFont, readonly LoadedFont[]>();
  // Bounded: text sent to the HTTP API could otherwise grow it without end.
  const lastResorts = new LruCache<string, LoadedFont | null>(4096);
  const fallbackSources = sources.filter((src) => src.fallback);
  return {
    get,
    resolve(family, style) {
      // A user or system font the template names, in the style asked for, else its regular face; never for a
      // generic family (Arial…), which stays the bundled face on every machine.
      const named = isBundledFamily(family) ? undefined : byFamily.get((family ?? '').trim().toLowerCase());
      if (named) {
        const wanted = style ?? 'normal';
        for (const src of [
          ...named.filter((n) => n.style === wanted),
          ...named.filter((n) => n.style === 'normal'),
        ]) {
          const f = load(src);
          if (f) return f;
        }
      }
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
    lastResort(grapheme) {
      const hit = lastResorts.get(grapheme);
      if (hit !== undefined) return hit ?? undefined;
      const cps = [...grapheme].map((ch) => ch.codePointAt(0) ?? 0);
      let found: LoadedFont | undefined;
      for (const src of fallbackSources) {
        const f = load(src);
        if (f && cps.every((cp) => f.font.hasGlyphForCodePoint(cp))) {
          found = f;
          break;
        }
      }
      lastResorts.set(grapheme, found ?? null);
      return found;
    },
    families() {
      return [...new Set(sources.map((src) => src.family.trim()))].sort((a, b) => a.localeCompare(b));
    },
  };
}
