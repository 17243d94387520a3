/**
 * Font fallback (issue #23): a line the element's font cannot draw whole is split into runs, each shaped with
 * one font of the chain (the element's font first, then `FontSet.fallbacks`).
 *
 * Runs follow scripts, not single characters: a run of one script (spaces, digits and punctuation joining the
 * run before them) takes the first font that has all its letters, so Arabic joins, Indic clusters reorder and
 * kerning works inside a run as in one font; digits, spaces or punctuation that font lacks take the first font
 * that has each (each grapheme cluster, a base with its marks, stays in one font). What nothing covers stays in
 * the element's font and draws its .notdef (the layout warns).
 *
 * Text the element's font covers whole (all ASCII text with the bundled fonts) goes straight to `shapeLine`, the
 * path it took before fallback existed: one coverage check on top, none for printable ASCII (checked once per
 * font).
 */
import { visualRuns } from './bidi';
import type { LoadedFont } from './fonts';
import { LruCache } from './lru';
import type { Shaped } from './shaped';
import { graphemes } from './text-break';
import { shapeLine, shapeRun } from './text-shape';

/** A shaped line whose glyphs may come from several fonts; lengths in the PRIMARY font's units. */
export interface MixedShaped extends Shaped {
  /** The font of each glyph, when any is not the primary font (absent: all are the primary's). */
  fonts?: LoadedFont[];
}

/** Characters that draw nothing and need no glyph: controls, default-ignorables (ZWJ, bidi marks), separators. */
const NEEDS_NO_GLYPH = /[\p{Cc}\p{Default_Ignorable_Code_Point}\p{Zl}\p{Zp}]/u;
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

/**
 * Per font: whether it covers printable ASCII, and per code point 0 unknown / 1 covered / 2 not, in pages of
 * 4096 made when first touched — bounded (1.1 MB per font at worst) whatever text the HTTP API is sent.
 */
interface Coverage {
  ascii: boolean;
  pages: Map<number, Uint8Array>;
}
const coverage = new WeakMap<LoadedFont, Coverage>();

function coverageOf(font: LoadedFont): Coverage {
  let c = coverage.get(font);
  if (!c) {
    let ascii = true;
    for (let cp = 0x20; cp <= 0x7e && ascii; cp++) ascii = font.font.hasGlyphForCodePoint(cp);
    coverage.set(font, (c = { ascii, pages: new Map() }));
  }
  return c;
}

/** Whether `font` has a glyph for every character of `text` that needs one. */
export function fontCovers(font: LoadedFont, text: string): boolean {
  const c = coverageOf(font);
  if (c.ascii && PRINTABLE_ASCII.test(text)) return true;
  for (const ch of text) {
    const cp = ch.codePointAt(0) ?? 0;
    let page = c.pages.get(cp >> 12);
    if (!page) c.pages.set(cp >> 12, (page = new Uint8Array(4096)));
    let known = page[cp & 4095] ?? 0;
    if (known === 0) {
      known = NEEDS_NO_GLYPH.test(ch) || font.font.hasGlyphForCodePoint(cp) ? 1 : 2;
      page[cp & 4095] = known;
    }
    if (known === 2) return false;
  }
  return true;
}

/** The last link of a chain: a font for a grapheme nothing before it covers (`FontSet.lastResort`). */
export type LastResort = (grapheme: string) => LoadedFont | undefined;

/** The distinct characters of `text` that no font of `fonts`, nor `lastResort`, covers, in order of first appearance. */
export function uncoveredCharacters(
  fonts: readonly LoadedFont[],
  text: string,
  lastResort?: LastResort,
): string[] {
  const primary = fonts[0];
  if (primary && fontCovers(primary, text)) return [];
  const missing = new Set<string>();
  for (const ch of text) {
    if (missing.has(ch) || fonts.some((f) => fontCovers(f, ch))) continue;
    if (!NEEDS_NO_GLYPH.test(ch) && lastResort?.(ch) === undefined) missing.add(ch);
  }
  return [...missing];
}

/**
 * Scripts that pick a font together. Han, kana and Bopomofo are one: Japanese mixes them in a word and one CJK
 * font draws them all. Scripts not listed are 'other' (still split from their neighbours by coverage).
 */
const SCRIPTS: readonly (readonly [string, RegExp])[] = [
  ['Latn', /\p{Script=Latin}/u],
  ['Cjk', /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Bopomofo}]/u],
  ['Hang', /\p{Script=Hangul}/u],
  ['Arab', /\p{Script=Arabic}/u],
  ['Hebr', /\p{Script=Hebrew}/u],
  ['Grek', /\p{Script=Greek}/u],
  ['Cyrl', /\p{Script=Cyrillic}/u],
  ['Thai', /\p{Script=Thai}/u],
  ['Deva', /\p{Script=Devanagari}/u],
  ['Beng', /\p{Script=Bengali}/u],
  ['Gujr', /\p{Script=Gujarati}/u],
  ['Guru', /\p{Script=Gurmukhi}/u],
  ['Taml', /\p{Script=Tamil}/u],
  ['Telu', /\p{Script=Telugu}/u],
  ['Knda', /\p{Script=Kannada}/u],
  ['Mlym', /\p{Script=Malayalam}/u],
  ['Sinh', /\p{Script=Sinhala}/u],
  ['Armn', /\p{Script=Armenian}/u],
  ['Geor', /\p{Script=Georgian}/u],
  ['Ethi', /\p{Script=Ethiopic}/u],
  ['Khmr', /\p{Script=Khmer}/u],
  ['Laoo', /\p{Script=Lao}/u],
  ['Mymr', /\p{Script=Myanmar}/u],
];
const COMMON = /[\p{Script=Common}\p{Script=Inherited}]/u;
/** Per code point, in pages of 4096 made when first touched: 0 unknown, 1 Common, 2 + index in SCRIPTS, 255 other. */
const scriptPages = new Map<number, Uint8Array>();
const OTHER = 255;

/** The script of a code point ('' for Common and Inherited: digits, spaces, punctuation, marks). */
function scriptOf(ch: string): string {
  const cp = ch.codePointAt(0) ?? 0;
  let page = scriptPages.get(cp >> 12);
  if (!page) scriptPages.set(cp >> 12, (page = new Uint8Array(4096)));
  let code = page[cp & 4095] ?? 0;
  if (code === 0) {
    const index = SCRIPTS.findIndex(([, re]) => re.test(ch));
    code = COMMON.test(ch) ? 1 : index >= 0 ? index + 2 : OTHER;
    page[cp & 4095] = code;
  }
  return code === 1 ? '' : code === OTHER ? 'other' : (SCRIPTS[code - 2]?.[0] ?? 'other');
}

/** The script of a grapheme: its first character's that is not Common or Inherited. */
function graphemeScript(g: string): string {
  for (const ch of g) {
    const s = scriptOf(ch);
    if (s !== '') return s;
  }
  return '';
}

/** A piece of a single-direction run in one font, in logical order. */
export interface FontRun {
  text: string;
  font: LoadedFont;
}

/**
 * Splits a single-direction run (logical order) into pieces by font: script runs, each in the first font of
 * `[primary, ...chain]` covering it whole, else grapheme by grapheme; a grapheme none covers is `lastResort`'s.
 */
export function fontRuns(
  text: string,
  primary: LoadedFont,
  chain: readonly LoadedFont[],
  lastResort?: LastResort,
): FontRun[] {
  if ((chain.length === 0 && !lastResort) || fontCovers(primary, text)) return [{ text, font: primary }];
  const all = [primary, ...chain];
  // 1. Script runs; Common graphemes join the run before them (at the start, the run after them).
  const scriptRuns: { script: string; gs: string[] }[] = [];
  for (const g of graphemes(text)) {
    const script = graphemeScript(g);
    const last = scriptRuns[scriptRuns.length - 1];
    if (last && (script === '' || script === last.script)) last.gs.push(g);
    else if (last && last.script === '') {
      last.script = script;
      last.gs.push(g);
    } else scriptRuns.push({ script, gs: [g] });
  }
  // 2. A font per script run, or per grapheme when none covers the run.
  const out: FontRun[] = [];
  const push = (piece: string, font: LoadedFont): void => {
    const last = out[out.length - 1];
    if (last && last.font === font) last.text += piece;
    else out.push({ text: piece, font });
  };
  for (const run of scriptRuns) {
    const runText = run.gs.join('');
    // The first font with all of the script's own graphemes draws the run (Droid Sans Fallback for a Japanese
    // run with Latin digits, not a later font that happens to have both); digits, spaces and punctuation it
    // lacks go to the first font that has them.
    const own = run.gs.filter((g) => graphemeScript(g) !== '').join('');
    const scriptFont = all.find((f) => fontCovers(f, own === '' ? runText : own));
    if (scriptFont && fontCovers(scriptFont, runText)) {
      push(runText, scriptFont);
      continue;
    }
    for (const g of run.gs) {
      const font =
        scriptFont && fontCovers(scriptFont, g)
          ? scriptFont
          : (all.find((f) => fontCovers(f, g)) ?? lastResort?.(g));
      push(g, font ?? primary);
    }
  }
  return out;
}

const CACHE_ENTRIES = 2000;
const caches = new WeakMap<LoadedFont, LruCache<string, MixedShaped>>();

/**
 * Shapes one line in visual order like `shapeLine`, each font run with its own font, every length converted
 * to the primary font's units. `chain` and `lastResort` must be the same for every call with this `primary`
 * (they are its FontSet's), as results are cached per primary font.
 */
export function shapeLineWithFallback(
  primary: LoadedFont,
  chain: readonly LoadedFont[],
  text: string,
  base: 'ltr' | 'rtl',
  lastResort?: LastResort,
): MixedShaped {
  if ((chain.length === 0 && !lastResort) || fontCovers(primary, text))
    return shapeLine(primary.font, text, base);
  let cache = caches.get(primary);
  if (!cache) caches.set(primary, (cache = new LruCache(CACHE_ENTRIES)));
  const key = (base === 'rtl' ? 'R' : 'L') + text;
  const hit = cache.get(key);
  if (hit) return hit;

  const out: MixedShaped & { fonts: LoadedFont[] } = {
    ids: [],
    advances: [],
    xOffsets: [],
    yOffsets: [],
    advance: 0,
    fonts: [],
  };
  for (const run of visualRuns(text, base)) {
    const pieces = fontRuns(run.text, primary, chain, lastResort);
    // Each piece comes back in visual order; an RTL run's pieces are drawn last-first.
    if (run.rtl) pieces.reverse();
    for (const piece of pieces) {
      const s = shapeRun(piece.font.font, piece.text, run.rtl);
      const k = primary.font.unitsPerEm / piece.font.font.unitsPerEm;
      s.ids.forEach((id, i) => {
        out.ids.push(id);
        out.advances.push((s.advances[i] ?? 0) * k);
        out.xOffsets.push((s.xOffsets[i] ?? 0) * k);
        out.yOffsets.push((s.yOffsets[i] ?? 0) * k);
        out.fonts.push(piece.font);
      });
      out.advance += s.advance * k;
    }
  }
  const result: MixedShaped = out.fonts.every((f) => f === primary)
    ? {
        ids: out.ids,
        advances: out.advances,
        xOffsets: out.xOffsets,
        yOffsets: out.yOffsets,
        advance: out.advance,
      }
    : out;
  cache.set(key, result);
  return result;
}
