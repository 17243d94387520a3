/**
 * Shaping with fontkit (kerning, ligatures, Arabic joining, mark positioning, as fontkit does them), cached.
 *
 * Results are in FONT units (unitsPerEm per em), so one cache entry serves every font size: the preview
 * re-lays out on each keystroke and each size change, and nearly every word it measures was measured before.
 */
import type * as fontkit from 'fontkit';
import { visualRuns } from './bidi';
import { LruCache } from './lru';
import type { Shaped } from './shaped';
import { shapePairwiseAscii } from './text-pairwise';

export type { Shaped } from './shaped';

/** Entries per font: a few labels' worth of words and lines; each is a few hundred bytes. */
const CACHE_ENTRIES = 2000;
const caches = new WeakMap<fontkit.Font, LruCache<string, Shaped>>();

function cacheOf(font: fontkit.Font): LruCache<string, Shaped> {
  let c = caches.get(font);
  if (!c) caches.set(font, (c = new LruCache(CACHE_ENTRIES)));
  return c;
}

const EMPTY: Shaped = { ids: [], advances: [], xOffsets: [], yOffsets: [], advance: 0 };

/** Shapes a single-direction run. RTL results come back in visual order, like LTR ones. */
export function shapeRun(font: fontkit.Font, text: string, rtl: boolean): Shaped {
  if (text === '') return EMPTY;
  const cache = cacheOf(font);
  const key = (rtl ? 'r' : 'l') + text;
  const hit = cache.get(key);
  if (hit) return hit;
  const fast = rtl ? undefined : shapePairwiseAscii(font, text);
  if (fast) {
    cache.set(key, fast);
    return fast;
  }

  const run = font.layout(text, undefined, undefined, undefined, rtl ? 'rtl' : 'ltr');
  const shaped: Shaped = { ids: [], advances: [], xOffsets: [], yOffsets: [], advance: 0 };
  run.glyphs.forEach((g, i) => {
    const p = run.positions[i];
    shaped.ids.push(g.id);
    shaped.advances.push(p?.xAdvance ?? 0);
    shaped.xOffsets.push(p?.xOffset ?? 0);
    shaped.yOffsets.push(p?.yOffset ?? 0);
    shaped.advance += p?.xAdvance ?? 0;
  });
  // fontkit reverses RTL runs only inside its OpenType/AAT engines; a font without GSUB, GPOS or morx comes
  // back in logical order.
  if (rtl && !fontkitReversesRtl(font)) {
    shaped.ids.reverse();
    shaped.advances.reverse();
    shaped.xOffsets.reverse();
    shaped.yOffsets.reverse();
  }
  cache.set(key, shaped);
  return shaped;
}

function fontkitReversesRtl(font: fontkit.Font): boolean {
  const tables = font as unknown as { GSUB?: unknown; GPOS?: unknown; morx?: unknown };
  return Boolean(tables.GSUB ?? tables.GPOS ?? tables.morx);
}

/**
 * Shapes one line in visual order: bidi runs (paragraph direction `base`) shaped separately and concatenated
 * left to right. Cached as a whole, so measuring a word or a line twice costs one map lookup.
 */
export function shapeLine(font: fontkit.Font, text: string, base: 'ltr' | 'rtl'): Shaped {
  if (text === '') return EMPTY;
  const cache = cacheOf(font);
  const key = (base === 'rtl' ? 'R' : 'L') + text;
  const hit = cache.get(key);
  if (hit) return hit;

  const runs = visualRuns(text, base);
  let shaped: Shaped;
  const only = runs.length === 1 ? runs[0] : undefined;
  if (only) {
    shaped = shapeRun(font, only.text, only.rtl);
  } else {
    shaped = { ids: [], advances: [], xOffsets: [], yOffsets: [], advance: 0 };
    for (const run of runs) {
      const part = shapeRun(font, run.text, run.rtl);
      shaped.ids.push(...part.ids);
      shaped.advances.push(...part.advances);
      shaped.xOffsets.push(...part.xOffsets);
      shaped.yOffsets.push(...part.yOffsets);
      shaped.advance += part.advance;
    }
  }
  cache.set(key, shaped);
  return shaped;
}

/** Characters that draw nothing and need no glyph: controls, default-ignorables (ZWJ, bidi marks), separators. */
const NEEDS_NO_GLYPH = /[\p{Cc}\p{Default_Ignorable_Code_Point}\p{Zl}\p{Zp}]/u;

/** The distinct characters of `text` that `font` has no glyph for, in order of first appearance. */
export function missingCharacters(font: fontkit.Font, text: string): string[] {
  const missing = new Set<string>();
  const seen = new Set<number>();
  for (const ch of text) {
    const cp = ch.codePointAt(0) ?? 0;
    if (seen.has(cp)) continue;
    seen.add(cp);
    if (!NEEDS_NO_GLYPH.test(ch) && !font.hasGlyphForCodePoint(cp)) missing.add(ch);
  }
  return [...missing];
}
