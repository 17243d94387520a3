/**
 * Printable-ASCII text shaped without a fontkit layout per string. Most label text is ASCII, and in a batch every
 * label brings new strings (a name, a tracking number): fontkit's `layout()` costs ~0.17 ms a string, most of a
 * label's layout time. For the bundled fonts, shaping ASCII is pairwise: each glyph is the font's glyph for its
 * character, with no offsets, and its advance depends only on the next character (pair kerning). Such text is
 * composed from fontkit's own results for each adjacent pair, each pair shaped once per font and script.
 *
 * Exact, not approximate: a font is used this way only if its tables make shaping of ASCII pairwise (checked once,
 * `pairwiseAsciiChars`), and each pair's fontkit result is checked for substitutions and offsets (a ligature such
 * as "fi" makes that string go to fontkit). test/layout/text-pairwise.test.ts compares both paths on every bundled
 * font.
 */
import type * as fontkit from 'fontkit';
import type { Shaped } from './shaped';

const FIRST = 0x20;
const LAST = 0x7e;
const SPAN = LAST - FIRST + 1;
/** Pair-table index of "no next character" (the last glyph of a string). */
const END = SPAN;
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;
const LETTER = /[A-Za-z]/;

interface FontState {
  /** Glyph id per printable character, -1 where the character may not take this path. */
  ids: Int32Array;
  /** A safe letter, prefixed to pairs that need the Latin script's lookups but have no letter of their own. */
  context: string;
  /** Advance of a glyph followed by another (or by END), per script: [latin][a * (SPAN + 1) + b]; NaN = not yet. */
  advances: [Float64Array, Float64Array];
}

const states = new WeakMap<fontkit.Font, FontState | null>();

/**
 * `text` shaped as fontkit would shape it left to right, or undefined when it cannot take this path (not
 * printable ASCII, a character the font's tables may substitute, a pair that forms a ligature).
 */
export function shapePairwiseAscii(font: fontkit.Font, text: string): Shaped | undefined {
  if (text === '' || !PRINTABLE_ASCII.test(text)) return undefined;
  const state = stateOf(font);
  if (!state) return undefined;
  // fontkit picks the script from the first letter; without one it uses the default script's lookups.
  const latin = LETTER.test(text) ? 1 : 0;
  const table = state.advances[latin];
  const shaped: Shaped = { ids: [], advances: [], xOffsets: [], yOffsets: [], advance: 0 };
  for (let i = 0; i < text.length; i++) {
    const a = text.charCodeAt(i) - FIRST;
    const id = state.ids[a] ?? -1;
    if (id < 0) return undefined;
    const b = i + 1 < text.length ? text.charCodeAt(i + 1) - FIRST : END;
    const k = a * (SPAN + 1) + b;
    let advance = table[k] ?? Number.NaN;
    if (Number.isNaN(advance)) {
      advance = pairAdvance(font, state, latin === 1, a, b);
      table[k] = advance;
    }
    // Infinity: this pair was shaped and is not pairwise (a ligature, an offset).
    if (!Number.isFinite(advance)) return undefined;
    shaped.ids.push(id);
    shaped.advances.push(advance);
    shaped.xOffsets.push(0);
    shaped.yOffsets.push(0);
    shaped.advance += advance;
  }
  return shaped;
}

/** fontkit's advance for character `a` followed by `b` (or END), or Infinity if the pair is not pairwise. */
function pairAdvance(font: fontkit.Font, state: FontState, latin: boolean, a: number, b: number): number {
  const pair = String.fromCharCode(a + FIRST) + (b === END ? '' : String.fromCharCode(b + FIRST));
  // A letter before the pair selects the Latin lookups; it can only change its own advance (no lookup of a
  // pairwise font moves the second glyph of a pair), so the pair's first glyph is read unchanged.
  const prefix = latin && !LETTER.test(pair) ? state.context : '';
  const run = font.layout(prefix + pair);
  const expected = [...(prefix + pair)].map((ch) => state.ids[ch.charCodeAt(0) - FIRST]);
  const glyphs = run.glyphs;
  if (glyphs.length !== expected.length) return Number.POSITIVE_INFINITY;
  for (let i = 0; i < glyphs.length; i++) {
    const p = run.positions[i];
    if (glyphs[i]?.id !== expected[i] || !p || p.xOffset !== 0 || p.yOffset !== 0)
      return Number.POSITIVE_INFINITY;
  }
  return run.positions[prefix.length]?.xAdvance ?? Number.POSITIVE_INFINITY;
}

/**
 * Reads the font's tables for the pairwise path now (~30–70 ms a font, once), so the first label that uses it
 * does not pay for it: the live preview calls it for the common fonts while the app is idle.
 */
export function prepareAsciiShaping(font: fontkit.Font): void {
  stateOf(font);
}

function stateOf(font: fontkit.Font): FontState | null {
  let state = states.get(font);
  if (state === undefined) {
    state = analyse(font);
    states.set(font, state);
  }
  return state;
}

function analyse(font: fontkit.Font): FontState | null {
  const ids = new Int32Array(SPAN).fill(-1);
  for (let cp = FIRST; cp <= LAST; cp++) {
    const id = font.hasGlyphForCodePoint(cp) ? font.glyphForCodePoint(cp).id : 0;
    if (id > 0) ids[cp - FIRST] = id;
  }
  const unsafe = unsafeAsciiGlyphs(font as unknown as OtFont, new Set([...ids].filter((id) => id > 0)));
  if (!unsafe) return null;
  for (let i = 0; i < SPAN; i++) if (unsafe.has(ids[i] ?? -1)) ids[i] = -1;
  let context = '';
  for (const ch of 'xnHoe') if ((ids[ch.charCodeAt(0) - FIRST] ?? -1) > 0) context ||= ch;
  if (!context) return null;
  const table = (): Float64Array => new Float64Array(SPAN * (SPAN + 1)).fill(Number.NaN);
  return { ids, context, advances: [table(), table()] };
}

// ---------------------------------------------------------------------------------------------------------------
// Which ASCII glyphs the font's OpenType lookups may touch in a way that is not pair kerning.

/** The features fontkit's default shaper applies to left-to-right Latin and script-less text. */
const DEFAULT_FEATURES = new Set([
  'rvrn',
  'ltra',
  'ltrm',
  'ccmp',
  'locl',
  'rlig',
  'mark',
  'mkmk',
  'calt',
  'clig',
  'liga',
  'rclt',
  'curs',
  'kern',
]);

/** The parts of fontkit's parsed GSUB/GPOS tables read here (fontkit's typings do not describe them). */
interface Coverage {
  version: number;
  glyphs?: ArrayLike<number>;
  rangeRecords?: ArrayLike<{ start: number; end: number }>;
}
type ClassDef = {
  version: number;
  startGlyph?: number;
  classValueArray?: ArrayLike<number>;
  classRangeRecord?: ArrayLike<{ start: number; end: number; class: number }>;
};
interface SubTable {
  version?: number;
  lookupType?: number;
  extension?: SubTable;
  coverage?: Coverage;
  valueFormat2?: Record<string, boolean>;
  ligatureSets?: { toArray?(): LigatureSet[] } & ArrayLike<LigatureSet>;
  markCoverage?: Coverage;
  mark1Coverage?: Coverage;
  backtrackCoverage?: Coverage[];
  lookaheadCoverage?: Coverage[];
  inputCoverage?: Coverage[];
  coverages?: Coverage[];
  ruleSets?: { input: number[] }[][];
  chainRuleSets?: { backtrack: number[]; input: number[]; lookahead: number[] }[][];
  classDef?: ClassDef;
  classSet?: ({ classes: number[] }[] | null)[];
  backtrackClassDef?: ClassDef;
  inputClassDef?: ClassDef;
  lookaheadClassDef?: ClassDef;
  chainClassSet?: ({ backtrack: number[]; input: number[]; lookahead: number[] }[] | null)[];
}
type LigatureSet = { toArray?(): { components: number[] }[] } & ArrayLike<{ components: number[] }>;
interface LayoutTable {
  version?: number;
  featureVariations?: unknown;
  featureList: ArrayLike<{ tag: string; feature: { lookupListIndexes: number[] } }>;
  /** fontkit's LazyArray (decodes an entry on `get`) or a plain array. */
  lookupList: { get?(index: number): Lookup | undefined } & ArrayLike<Lookup>;
}
interface Lookup {
  lookupType: number;
  subTables: { toArray?(): SubTable[] } & ArrayLike<SubTable>;
}
interface OtFont {
  GSUB?: LayoutTable;
  GPOS?: LayoutTable;
  GDEF?: { glyphClassDef?: ClassDef };
  morx?: unknown;
}

const list = <T>(a: ({ toArray?(): T[] } & ArrayLike<T>) | undefined): T[] =>
  !a ? [] : a.toArray ? a.toArray() : Array.from(a);

/**
 * The ASCII glyphs (`ascii`) that a default-feature lookup may substitute or move other than by pair kerning, or
 * null when the font's shaping of ASCII text is not pairwise at all (a contextual rule or mark attachment that can
 * fire on ASCII, kerning that moves a pair's second glyph, an ASCII glyph that GDEF does not class as a base glyph,
 * AAT tables, font variations).
 */
export function unsafeAsciiGlyphs(font: OtFont, ascii: ReadonlySet<number>): Set<number> | null {
  if (font.morx) return null;
  // Lookups skip glyphs by their GDEF class (ignoreMarks, ignoreLigatures, ...): a kerning pair or a ligature
  // could then reach across an ASCII glyph, which no pair shows. Only plain base glyphs keep shaping pairwise.
  const classes = font.GDEF?.glyphClassDef;
  if (classes && [...ascii].some((g) => classOf(classes, g) !== 1)) return null;
  const unsafe = new Set<number>();
  for (const [table, isGsub] of [
    [font.GSUB, true],
    [font.GPOS, false],
  ] as const) {
    if (!table) continue;
    if (table.featureVariations) return null;
    const used = new Set<number>();
    for (const record of list(table.featureList)) {
      if (DEFAULT_FEATURES.has(record.tag)) for (const i of record.feature.lookupListIndexes) used.add(i);
    }
    // Only the lookups the default features use: decoding the whole list costs more than the rest together.
    const lookups = table.lookupList;
    for (const index of used) {
      const lookup = lookups.get ? lookups.get(index) : lookups[index];
      if (!lookup) continue;
      for (let sub of list(lookup.subTables)) {
        let type = lookup.lookupType;
        if ((isGsub && type === 7) || (!isGsub && type === 9)) {
          type = sub.lookupType ?? 0;
          if (!sub.extension) return null;
          sub = sub.extension;
        }
        if (!subTableIsPairwise(sub, type, isGsub, ascii, unsafe)) return null;
      }
    }
  }
  return unsafe;
}

/** Adds the glyphs `sub` may touch to `unsafe`; false if it breaks pairwise shaping for the whole font. */
function subTableIsPairwise(
  sub: SubTable,
  type: number,
  isGsub: boolean,
  ascii: ReadonlySet<number>,
  unsafe: Set<number>,
): boolean {
  const markUnsafe = (c: Coverage | undefined): void => {
    for (const g of coverageGlyphs(c)) if (ascii.has(g)) unsafe.add(g);
  };
  if (isGsub) {
    switch (type) {
      case 1: // single
      case 2: // multiple
      case 3: // alternate
        markUnsafe(sub.coverage);
        return true;
      case 4: {
        // Two-glyph ligatures ("fi") show in the pair check; a longer one of ASCII glyphs ("ffi") makes its
        // first glyph unsafe. Ligatures that need a mark cannot form in ASCII text.
        const sets = list(sub.ligatureSets);
        coverageGlyphs(sub.coverage).forEach((g, i) => {
          const longAscii = (lig: { components: number[] }): boolean =>
            lig.components.length > 1 && lig.components.every((c) => ascii.has(c));
          if (ascii.has(g) && list(sets[i]).some(longAscii)) unsafe.add(g);
        });
        return true;
      }
      case 5:
      case 6:
        return !contextCanMatch(sub, ascii);
      case 8: // reverse chaining single substitution
        return ![sub.coverage, ...(sub.backtrackCoverage ?? []), ...(sub.lookaheadCoverage ?? [])].every(
          (c) => coversAny(c, ascii),
        );
      default:
        return false;
    }
  }
  switch (type) {
    case 1: // single adjustment
    case 3: // cursive attachment
      markUnsafe(sub.coverage);
      return true;
    case 2: // pair adjustment: pairwise as long as the second glyph keeps its place
      return !Object.values(sub.valueFormat2 ?? {}).some(Boolean);
    case 4:
    case 5:
      return !coversAny(sub.markCoverage, ascii);
    case 6:
      return !coversAny(sub.mark1Coverage, ascii);
    case 7:
    case 8:
      return !contextCanMatch(sub, ascii);
    default:
      return false;
  }
}

/** Whether some rule of a (chaining) context subtable can match a sequence of `ascii` glyphs. */
function contextCanMatch(sub: SubTable, ascii: ReadonlySet<number>): boolean {
  const allAscii = (glyphs: readonly number[]): boolean => glyphs.every((g) => ascii.has(g));
  switch (sub.version) {
    case 1:
      if (!coversAny(sub.coverage, ascii)) return false;
      return (
        (sub.ruleSets ?? []).some((set) => (set ?? []).some((r) => allAscii(r.input))) ||
        (sub.chainRuleSets ?? []).some((set) =>
          (set ?? []).some((r) => allAscii(r.backtrack) && allAscii(r.input) && allAscii(r.lookahead)),
        )
      );
    case 2: {
      if (!coversAny(sub.coverage, ascii)) return false;
      if (sub.classSet) {
        const classes = classesOf(sub.classDef, ascii);
        return sub.classSet.some(
          (set, first) =>
            classes.has(first) && (set ?? []).some((r) => r.classes.every((c) => classes.has(c))),
        );
      }
      const back = classesOf(sub.backtrackClassDef, ascii);
      const input = classesOf(sub.inputClassDef, ascii);
      const ahead = classesOf(sub.lookaheadClassDef, ascii);
      return (sub.chainClassSet ?? []).some(
        (set, first) =>
          input.has(first) &&
          (set ?? []).some(
            (r) =>
              r.backtrack.every((c) => back.has(c)) &&
              r.input.every((c) => input.has(c)) &&
              r.lookahead.every((c) => ahead.has(c)),
          ),
      );
    }
    case 3:
      return [
        ...(sub.coverages ?? []),
        ...(sub.backtrackCoverage ?? []),
        ...(sub.inputCoverage ?? []),
        ...(sub.lookaheadCoverage ?? []),
      ].every((c) => coversAny(c, ascii));
    default:
      return true;
  }
}

function coverageGlyphs(c: Coverage | undefined): number[] {
  if (!c) return [];
  if (c.version === 1) return Array.from(c.glyphs ?? []);
  const out: number[] = [];
  for (const r of Array.from(c.rangeRecords ?? [])) for (let g = r.start; g <= r.end; g++) out.push(g);
  return out;
}

function coversAny(c: Coverage | undefined, glyphs: ReadonlySet<number>): boolean {
  return coverageGlyphs(c).some((g) => glyphs.has(g));
}

/** The classes `glyphs` fall in (class 0 for a glyph the definition does not list), as fontkit reads them. */
function classesOf(def: ClassDef | undefined, glyphs: ReadonlySet<number>): Set<number> {
  const out = new Set<number>();
  for (const g of glyphs) out.add(classOf(def, g));
  return out;
}

function classOf(def: ClassDef | undefined, glyph: number): number {
  if (def?.version === 1) {
    const i = glyph - (def.startGlyph ?? 0);
    const values = def.classValueArray;
    if (values && i >= 0 && i < values.length) return values[i] ?? 0;
  } else if (def?.version === 2) {
    for (const r of Array.from(def.classRangeRecord ?? []))
      if (r.start <= glyph && glyph <= r.end) return r.class;
  }
  return 0;
}
