/**
 * Embedded font subsets, built once and reused by every document of the process.
 *
 * Subsetting (fontkit's `createSubset().encode()`, ~10–20 ms for a DejaVu face) is what made each pdfkit label
 * slow, so a subset is keyed by WHICH glyphs it holds and cached with everything a document needs from it: the
 * compressed FontFile2, the /W array, the compressed ToUnicode CMap and the glyph id → CID map.
 *
 * Decision (issue #9): every subset of a font holds a fixed BASE set (the glyphs of printable ASCII, the Latin
 * ligatures and a few common symbols) plus the document's other glyphs, each bringing its whole 128-code-point
 * block (see subsetFor). Labels of Latin text, whatever their values, therefore share ONE subset per font for
 * the life of the process (a batch of European addresses shares one more, with Latin-1), and the output stays
 * a pure function of the scenes: the cache key is the set of extra blocks, not the order labels happened to
 * arrive in, as a subset that grows with every label would make it. Measured on shipping-4x6 (300 distinct
 * labels, one core): renderPdf 50 ms → 1 ms per label. The cost is size: DejaVu Sans and Sans-Bold embed
 * ~16 KB each (deflated) instead of ~10 KB for a per-label subset, so the label's PDF is ~43 KB instead of
 * pdfkit's ~26 KB.
 *
 * fontkit renumbers glyphs in a subset (0, then in inclusion order, then composite components), so content
 * streams write CIDs from `cidOf`, and the CIDFont maps CID → subset glyph with /CIDToGIDMap /Identity.
 */
import type { LoadedFont } from '../../../layout/fonts';
import { zlibSync } from 'fflate';
import { asciiBytes, num } from './pdf-file';

export interface FontSubset {
  /** `ABCDEF+DejaVuSans-Bold`: the six-letter tag marks a subset (pdffonts' "sub" column). */
  baseFont: string;
  /** Original glyph id → CID (= glyph id in the embedded subset). */
  cidOf: ReadonlyMap<number, number>;
  /** Advance per CID in text space units (1/1000 em), exactly as written in /W. */
  widths: Float64Array;
  /** Four hex digits per CID, for Identity-H strings. */
  hex: readonly string[];
  /** The characters each CID stands for (cmap reverse lookup, ligatures spelled out; '' when none maps to it). */
  unicode: readonly string[];
  /** `[0 [w0 w1 ...]]`. */
  w: string;
  /** FontDescriptor entries except /FontFile2. */
  descriptor: string;
  fontFile: Uint8Array;
  fontFileLength1: number;
  toUnicode: Uint8Array;
}

/**
 * Code points always in a subset: printable ASCII and the few symbols labels commonly carry. Latin-1 letters are
 * left out on purpose: they would double the embedded size of every label for the labels that never use them.
 */
const BASE_CODE_POINTS: readonly number[] = [
  ...range(0x20, 0x7e),
  0xa0,
  0xa9,
  0xae,
  0xb0,
  0xd7,
  0x2013,
  0x2014,
  0x2018,
  0x2019,
  0x201c,
  0x201d,
  0x2022,
  0x2026,
  0x20ac,
  0x2122,
  0x2116,
  // The Latin ligatures (fi, fl, ...), which layout substitutes in ordinary words.
  ...range(0xfb00, 0xfb06),
];

/** Glyphs below this code point bring their whole block; above it (symbols, presentation forms) only themselves. */
const BLOCKS_BELOW = 0x2000;

/** The characters a glyph reached from `cp` stands for: presentation forms (ligatures) spelled out. */
function charactersOf(cp: number): string {
  const s = String.fromCodePoint(cp);
  const presentationForm = (cp >= 0xfb00 && cp <= 0xfdff) || (cp >= 0xfe70 && cp <= 0xfeff);
  if (!presentationForm) return s;
  const spelled = s.normalize('NFKC');
  // Hebrew and Arabic forms (lam-alef ﻻ = "لا") are drawn in right-to-left runs, which text extractors (poppler,
  // pdf.js) put back in logical order character by character, a ligature's characters included: stored in
  // visual order, they come out in logical order ("الإمارات", not "اإلمارات").
  const rtl = cp >= 0xfb1d;
  return rtl ? [...spelled].reverse().join('') : spelled;
}

function range(from: number, to: number): number[] {
  return Array.from({ length: to - from + 1 }, (_, i) => from + i);
}

/** A font's glyph sets: the base, and every cmap glyph by 128-code-point block. */
interface GlyphSets {
  base: number[];
  inBase: Set<number>;
  /** Block number (code point >> 7) of each glyph outside the base that the cmap reaches. */
  blockOf: Map<number, number>;
  /** The glyphs of each block, in code point order. */
  blocks: Map<number, number[]>;
  /** The characters of each glyph the cmap reaches, from its lowest code point (for ToUnicode). */
  unicodeOf: Map<number, string>;
}

const glyphSets = new WeakMap<LoadedFont, GlyphSets>();

function glyphSetsOf(font: LoadedFont): GlyphSets {
  let sets = glyphSets.get(font);
  if (sets) return sets;
  const f = font.font;
  const base: number[] = [];
  const inBase = new Set<number>();
  for (const cp of BASE_CODE_POINTS) {
    if (!f.hasGlyphForCodePoint(cp)) continue;
    const id = f.glyphForCodePoint(cp).id;
    if (!inBase.has(id)) {
      inBase.add(id);
      base.push(id);
    }
  }
  const blockOf = new Map<number, number>();
  const blocks = new Map<number, number[]>();
  const unicodeOf = new Map<number, string>();
  for (const cp of [...f.characterSet].sort((a, b) => a - b)) {
    const id = f.glyphForCodePoint(cp).id;
    if (id === 0 || unicodeOf.has(id)) continue;
    unicodeOf.set(id, charactersOf(cp));
    if (inBase.has(id) || cp >= BLOCKS_BELOW) continue;
    const block = cp >> 7;
    blockOf.set(id, block);
    let ids = blocks.get(block);
    if (!ids) {
      ids = [];
      blocks.set(block, ids);
    }
    ids.push(id);
  }
  sets = { base, inBase, blockOf, blocks, unicodeOf };
  glyphSets.set(font, sets);
  return sets;
}

/** Subsets kept per process; a label set with many different scripts only rebuilds the oldest. */
const MAX_SUBSETS = 64;
const subsets = new Map<string, FontSubset>();

/**
 * The cached subset of `font` that holds at least `glyphIds` (built on first use). A letter outside the base
 * brings its whole 128-code-point block (all of Latin-1, all of Hebrew, ...), so labels whose values differ in
 * a few accented letters still share one subset; glyphs from U+2000 up (symbols, presentation forms) and
 * glyphs no code point maps to (contextual forms) are added one by one.
 */
export function subsetFor(font: LoadedFont, glyphIds: ReadonlySet<number>): FontSubset {
  const sets = glyphSetsOf(font);
  const blocks = new Set<number>();
  const loose: number[] = [];
  for (const id of glyphIds) {
    if (sets.inBase.has(id)) continue;
    const block = sets.blockOf.get(id);
    if (block !== undefined) blocks.add(block);
    else loose.push(id);
  }
  const blockList = [...blocks].sort((a, b) => a - b);
  loose.sort((a, b) => a - b);
  const key = `${font.key}\u0000${blockList.join(',')}\u0000${loose.join(',')}`;
  let subset = subsets.get(key);
  if (subset) {
    // Refresh its place in the LRU order.
    subsets.delete(key);
    subsets.set(key, subset);
    return subset;
  }
  const ids = [...sets.base, ...blockList.flatMap((b) => sets.blocks.get(b) ?? []), ...loose];
  subset = buildSubset(font, ids, key, sets.unicodeOf);
  subsets.set(key, subset);
  if (subsets.size > MAX_SUBSETS) {
    const oldest = subsets.keys().next().value;
    if (oldest !== undefined) subsets.delete(oldest);
  }
  return subset;
}

/** fontkit's subset at runtime: includeGlyph takes an id, and the mapping is readable after encode(). */
interface TtfSubset {
  includeGlyph(id: number): number;
  encode(): Uint8Array;
  glyphs: number[];
}

function buildSubset(
  font: LoadedFont,
  ids: readonly number[],
  key: string,
  unicodeOf: ReadonlyMap<number, string>,
): FontSubset {
  // Level 9 (fflate, not the injected compressor): it runs once per subset, and the bytes stay the same whatever
  // compressor the first caller injected.
  const deflate = (b: Uint8Array): Uint8Array => zlibSync(b, { level: 9 });
  const f = font.font;
  const sub = f.createSubset() as unknown as TtfSubset;
  for (const id of ids) sub.includeGlyph(id);
  const ttf = sub.encode();
  // sub.glyphs is every glyph in the subset in CID order, composite components included.
  const glyphs = sub.glyphs;
  const cidOf = new Map<number, number>();
  const scale = 1000 / f.unitsPerEm;
  const widths = new Float64Array(glyphs.length);
  const hex: string[] = [];
  const unicode: string[] = [];
  glyphs.forEach((gid, cid) => {
    if (!cidOf.has(gid)) cidOf.set(gid, cid);
    const g = f.getGlyph(gid);
    widths[cid] = Math.round(g.advanceWidth * scale * 100) / 100;
    hex.push(cid.toString(16).padStart(4, '0'));
    // Not g.codePoints: fontkit fills those from whatever text last laid the glyph out (cache state).
    unicode.push(unicodeOf.get(gid) ?? '');
  });
  const tag = subsetTag(key);
  const baseFont = `${tag}+${f.postscriptName.replace(/[^!-~]|[/[\]()<>{}%#]/g, '')}`;
  const bbox = f.bbox;
  const capHeight = (f.capHeight as number | undefined) || f.ascent;
  // Flags: symbolic (4, required for a CID font's non-standard glyph set), plus fixed pitch and italic.
  const fixedPitch = (f as unknown as { post?: { isFixedPitch?: number } }).post?.isFixedPitch;
  const flags = 4 | (fixedPitch ? 1 : 0) | (f.italicAngle !== 0 ? 64 : 0);
  const descriptor =
    `/Type /FontDescriptor /FontName /${baseFont} /Flags ${flags} ` +
    `/FontBBox [${[bbox.minX, bbox.minY, bbox.maxX, bbox.maxY].map((v) => num(v * scale)).join(' ')}] ` +
    `/ItalicAngle ${num(f.italicAngle)} /Ascent ${num(f.ascent * scale)} /Descent ${num(f.descent * scale)} ` +
    `/CapHeight ${num(capHeight * scale)} /StemV 0`;
  return {
    baseFont,
    cidOf,
    widths,
    hex,
    unicode,
    w: `[0 [${Array.from(widths, num).join(' ')}]]`,
    descriptor,
    fontFile: deflate(ttf),
    fontFileLength1: ttf.length,
    toUnicode: deflate(asciiBytes(toUnicodeCMap(hex, unicode))),
  };
}

/** Six capital letters from the subset's key (stable across runs, different per glyph set). */
function subsetTag(key: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) h = Math.imul(h ^ key.charCodeAt(i), 0x01000193) >>> 0;
  let tag = '';
  for (let i = 0; i < 6; i++) {
    tag += String.fromCharCode(65 + (h % 26));
    h = Math.floor(h / 26) + i * 7919;
  }
  return tag;
}

/** A ToUnicode CMap (CID → UTF-16BE), 100 bfchar entries per block as the CMap syntax asks. */
function toUnicodeCMap(hex: readonly string[], unicode: readonly string[]): string {
  const entries: string[] = [];
  unicode.forEach((s, cid) => {
    if (s === '') return;
    let u = '';
    for (let i = 0; i < s.length; i++) u += s.charCodeAt(i).toString(16).padStart(4, '0');
    entries.push(`<${hex[cid]}> <${u}>`);
  });
  let blocks = '';
  for (let i = 0; i < entries.length; i += 100) {
    const part = entries.slice(i, i + 100);
    blocks += `${part.length} beginbfchar\n${part.join('\n')}\nendbfchar\n`;
  }
  return (
    '/CIDInit /ProcSet findresource begin\n12 dict begin\nbegincmap\n' +
    '/CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> def\n' +
    '/CMapName /Adobe-Identity-UCS def\n/CMapType 2 def\n' +
    '1 begincodespacerange\n<0000> <ffff>\nendcodespacerange\n' +
    blocks +
    'endcmap\nCMapName currentdict /CMap defineresource pop\nend\nend\n'
  );
}
