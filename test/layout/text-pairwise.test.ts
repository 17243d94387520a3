/**
 * The pairwise ASCII shaper must give exactly what fontkit gives (glyphs, advances, offsets) on every bundled
 * font, or decline; and it must actually take the common case (else the batch is silently slow again).
 */
import fc from 'fast-check';
import type * as fontkit from 'fontkit';
import { describe, expect, it } from 'vitest';
import { BUNDLED_FONT_FILES } from '../../src/layout/fonts';
import { shapePairwiseAscii, unsafeAsciiGlyphs } from '../../src/layout/text-pairwise';
import { loadBundledFonts } from '../../src/node/fonts';

const fonts = loadBundledFonts();
const keys = Object.keys(BUNDLED_FONT_FILES);

/** fontkit's own shaping, in the shape of our result. */
function reference(font: fontkit.Font, text: string) {
  const run = font.layout(text, undefined, undefined, undefined, 'ltr');
  return {
    ids: run.glyphs.map((g) => g.id),
    advances: run.positions.map((p) => p.xAdvance),
    xOffsets: run.positions.map((p) => p.xOffset),
    yOffsets: run.positions.map((p) => p.yOffset),
    advance: run.positions.reduce((sum, p) => sum + p.xAdvance, 0),
  };
}

const printable = fc.string({
  unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)),
  minLength: 1,
  maxLength: 40,
});
/** Digits and punctuation only: fontkit shapes these with the default script's lookups, not Latin's. */
const noLetters = fc.string({
  unit: fc.constantFrom(...'0123456789 -./#,:()+'.split('')),
  minLength: 1,
  maxLength: 30,
});
/** Words and kerning-prone pairs (AV, To, Ta, "L'", y.) that labels are made of. */
const labelLike = fc
  .array(
    fc.constantFrom(
      'AVA',
      'To',
      'Ta',
      "L'",
      'y.',
      'Ada',
      'Lovelace',
      'ORD-2026',
      '1Z999AA1',
      'Wy',
      'fi',
      'office',
      '42',
    ),
    {
      minLength: 1,
      maxLength: 6,
    },
  )
  .map((words) => words.join(' '));

describe('shapePairwiseAscii', () => {
  it.each(keys)('%s: gives exactly what fontkit gives, whenever it answers', (key) => {
    const font = fonts.get(key).font;
    fc.assert(
      fc.property(fc.oneof(printable, noLetters, labelLike), (text) => {
        const fast = shapePairwiseAscii(font, text);
        if (fast) expect(fast).toEqual(reference(font, text));
      }),
      { numRuns: 400 },
    );
  });

  it('takes ordinary label text in every bundled font, kerned pairs included', () => {
    for (const key of keys) {
      const font = fonts.get(key).font;
      for (const text of [
        'Ada Lovelace 17',
        'ORD-20261123-00017',
        '1Z999AA10000000017',
        'AVATAR Ty',
        '12.50 EUR',
      ]) {
        const fast = shapePairwiseAscii(font, text);
        expect(fast, `${key}: ${text}`).toEqual(reference(font, text));
      }
    }
    // DejaVu Sans kerns "AV": the result is not just the sum of advances.
    const sans = fonts.get('DejaVuSans').font;
    const av = shapePairwiseAscii(sans, 'AV');
    expect(av?.advance).toBeLessThan(
      sans.glyphForCodePoint(0x41).advanceWidth + sans.glyphForCodePoint(0x56).advanceWidth,
    );
  });

  it('declines ligatures, characters the font substitutes, and anything outside printable ASCII', () => {
    const sans = fonts.get('DejaVuSans').font;
    expect(reference(sans, 'office').ids.length).toBeLessThan(6); // DejaVu Sans has the "ffi" ligature
    expect(shapePairwiseAscii(sans, 'office')).toBeUndefined();
    expect(shapePairwiseAscii(sans, 'Fig')).toBeDefined();
    expect(shapePairwiseAscii(sans, 'caf\u00e9')).toBeUndefined();
    expect(shapePairwiseAscii(sans, 'tab\there')).toBeUndefined();
    expect(shapePairwiseAscii(sans, '')).toBeUndefined();
  });
});

describe('unsafeAsciiGlyphs (which fonts shape ASCII pairwise)', () => {
  const ascii = new Set([10, 11, 12]);
  const coverage = (...glyphs: number[]) => ({ version: 1, glyphs });
  const table = (tag: string, lookupType: number, sub: object) => ({
    featureList: [{ tag, feature: { lookupListIndexes: [0] } }],
    lookupList: [{ lookupType, subTables: [sub] }],
  });

  it('marks glyphs that a default feature substitutes, and ignores features that are off by default', () => {
    expect(
      unsafeAsciiGlyphs({ GSUB: table('locl', 1, { version: 1, coverage: coverage(11, 99) }) }, ascii),
    ).toEqual(new Set([11]));
    expect(
      unsafeAsciiGlyphs({ GSUB: table('salt', 1, { version: 1, coverage: coverage(11) }) }, ascii),
    ).toEqual(new Set());
  });

  it('refuses the font when a contextual rule can match ASCII text, not when it needs a mark', () => {
    const chain = (lookahead: number) => ({
      version: 3,
      backtrackCoverage: [],
      inputCoverage: [coverage(10)],
      lookaheadCoverage: [coverage(lookahead)],
    });
    expect(unsafeAsciiGlyphs({ GSUB: table('calt', 6, chain(12)) }, ascii)).toBeNull();
    expect(unsafeAsciiGlyphs({ GSUB: table('ccmp', 6, chain(500)) }, ascii)).toEqual(new Set());
  });

  it('refuses kerning that moves the second glyph, and mark attachment of ASCII glyphs', () => {
    const pair = (second: boolean) => ({
      version: 1,
      coverage: coverage(10),
      valueFormat2: { xPlacement: second },
    });
    expect(unsafeAsciiGlyphs({ GPOS: table('kern', 2, pair(true)) }, ascii)).toBeNull();
    expect(unsafeAsciiGlyphs({ GPOS: table('kern', 2, pair(false)) }, ascii)).toEqual(new Set());
    expect(unsafeAsciiGlyphs({ GPOS: table('mark', 4, { markCoverage: coverage(12) }) }, ascii)).toBeNull();
  });

  it('refuses the font when GDEF classes an ASCII glyph as anything but a base glyph (lookups may skip it)', () => {
    const gdef = (cls: number) => ({
      glyphClassDef: { version: 2, classRangeRecord: [{ start: 10, end: 12, class: cls }] },
    });
    expect(unsafeAsciiGlyphs({ GDEF: gdef(1) }, ascii)).toEqual(new Set());
    expect(unsafeAsciiGlyphs({ GDEF: gdef(3) }, ascii)).toBeNull();
    expect(
      unsafeAsciiGlyphs({ GDEF: { glyphClassDef: { version: 2, classRangeRecord: [] } } }, ascii),
    ).toBeNull();
  });

  it('marks the first glyph of a ligature of three ASCII glyphs, not of one that needs a mark', () => {
    const liga = (components: number[]) => ({
      version: 1,
      coverage: coverage(10),
      ligatureSets: [[{ components }]],
    });
    expect(unsafeAsciiGlyphs({ GSUB: table('liga', 4, liga([10, 11])) }, ascii)).toEqual(new Set([10]));
    expect(unsafeAsciiGlyphs({ GSUB: table('liga', 4, liga([500, 11])) }, ascii)).toEqual(new Set());
  });
});
