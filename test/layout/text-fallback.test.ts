import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BUNDLED_FONT_FILES, createFontSet, FALLBACK_FONT_FILES } from '../../src/layout/fonts';
import { drawsNotdef } from '../../src/layout/notdef';
import { layoutText, type TextLayoutInput } from '../../src/layout/text';
import { graphemes } from '../../src/layout/text-break';
import { fontRuns, shapeLineWithFallback } from '../../src/layout/text-fallback';
import { shapeLine } from '../../src/layout/text-shape';
import { loadBundledFonts } from '../../src/node/fonts';

const fonts = loadBundledFonts();
const sans = fonts.get('DejaVuSans');
const chain = fonts.fallbacks(sans);

function lay(text: string, extra: Partial<TextLayoutInput> = {}) {
  return layoutText({
    text,
    box: { x: 0, y: 0 },
    font: sans,
    fallbacks: chain,
    size: 20,
    color: '#000000',
    ...extra,
  });
}

const runs = (text: string, primary = sans) =>
  fontRuns(text, primary, fonts.fallbacks(primary)).map((r) => [r.text, r.font.key]);

describe('FontSet.fallbacks', () => {
  it('is DejaVu Sans, then the bundled chain in its order, never the primary itself', () => {
    const keys = Object.keys(FALLBACK_FONT_FILES);
    expect(chain.map((f) => f.key)).toEqual(keys);
    expect(fonts.fallbacks(fonts.get('DejaVuSerif-Bold')).map((f) => f.key)).toEqual(['DejaVuSans', ...keys]);
  });

  it('is DejaVu Sans alone for a set without the chain (the page preview’s)', () => {
    const dejavuOnly = createFontSet(
      Object.fromEntries(Object.keys(BUNDLED_FONT_FILES).map((k) => [k, fonts.get(k).data])),
    );
    expect(dejavuOnly.fallbacks(dejavuOnly.get('DejaVuSans'))).toEqual([]);
    expect(dejavuOnly.fallbacks(dejavuOnly.get('DejaVuSansMono')).map((f) => f.key)).toEqual(['DejaVuSans']);
  });
});

describe('fontRuns', () => {
  it('keeps text the element’s font covers in one run of it', () => {
    expect(runs('Zoë, Ωμέγα Привет שלום سلام')).toEqual([['Zoë, Ωμέγα Привет שלום سلام', 'DejaVuSans']]);
  });

  it('gives each script run the first font covering it, spaces joining the run before them', () => {
    expect(runs('Tokyo 東京 서울')).toEqual([
      ['Tokyo ', 'DejaVuSans'],
      ['東京 ', 'DroidSansFallback'],
      ['서울', 'NanumSquare'],
    ]);
    expect(runs('กรุงเทพ')).toEqual([['กรุงเทพ', 'NotoSansThai']]);
  });

  it('moves a whole Arabic run to the font that covers all of it, so letters still join', () => {
    // ہ (U+06C1, Urdu) is not in DejaVu Sans, the other letters are: one font for the word, not two.
    expect(runs('لاہور')).toEqual([['لاہور', 'NotoSansArabic']]);
  });

  it('splits a run no font covers whole by grapheme, digits in the element’s font', () => {
    // Droid Sans Fallback has no Latin digits.
    expect(runs('梅田3丁目')).toEqual([
      ['梅田', 'DroidSansFallback'],
      ['3', 'DejaVuSans'],
      ['丁目', 'DroidSansFallback'],
    ]);
  });

  it('leaves what nothing covers in the element’s font', () => {
    expect(runs('\u{13000}')).toEqual([['\u{13000}', 'DejaVuSans']]);
  });

  it('never splits a grapheme cluster, and loses or reorders nothing', () => {
    const pieces = fc.constantFrom(
      'a',
      ' ',
      '1',
      ',',
      'é',
      'e\u0301',
      '東',
      'か\u3099',
      '서',
      'ก',
      'กิ',
      'क्ष',
      'नि',
      'ש',
      'سلام',
      'ہ',
      '\u{13000}',
      '👍🏽',
    );
    fc.assert(
      fc.property(fc.array(pieces, { maxLength: 12 }), (parts) => {
        const text = parts.join('');
        const out = fontRuns(text, sans, chain);
        expect(out.map((r) => r.text).join('')).toBe(text);
        const clusters = graphemes(text);
        const boundaries = new Set<number>([0]);
        let at = 0;
        for (const g of clusters) boundaries.add((at += g.length));
        let pos = 0;
        for (const r of out) {
          expect(boundaries.has(pos)).toBe(true);
          pos += r.text.length;
        }
      }),
    );
  });
});

describe('shapeLineWithFallback', () => {
  it('is shapeLine itself for text the primary font covers (the ASCII path)', () => {
    expect(shapeLineWithFallback(sans, chain, 'Hello, World', 'ltr')).toBe(
      shapeLine(sans.font, 'Hello, World', 'ltr'),
    );
  });

  it('measures fallback glyphs in the primary font’s units (Droid has 256 per em, DejaVu 2048)', () => {
    const droid = fonts.get('DroidSansFallback').font;
    const perEm = (ch: string) => droid.glyphForCodePoint(ch.codePointAt(0)!).advanceWidth / droid.unitsPerEm;
    const line = lay('東京').node.lines[0]!;
    expect(line.width).toBeCloseTo(20 * (perEm('東') + perEm('京')), 9);
    expect(line.glyphs.map((g) => g.font)).toEqual(['DroidSansFallback', 'DroidSansFallback']);
  });

  it('orders fallback runs inside a right-to-left line right to left', () => {
    // Hebrew (DejaVu Sans) then Urdu (NotoSansArabic): drawn from the right, the Hebrew word rightmost.
    const line = lay('שלום لاہور', { direction: 'rtl' }).node.lines[0]!;
    const fontsLeftToRight = line.glyphs.map((g) => g.font ?? 'DejaVuSans');
    expect(fontsLeftToRight[0]).toBe('NotoSansArabic');
    expect(fontsLeftToRight[fontsLeftToRight.length - 1]).toBe('DejaVuSans');
    const xs = line.glyphs.map((g) => g.x);
    expect(xs).toEqual([...xs].sort((a, b) => a - b));
  });
});

describe('layoutText with fallbacks', () => {
  it('draws CJK without .notdef and without a warning', () => {
    const r = lay('漢字 OK', { element: 2 });
    expect(r.warnings).toEqual([]);
    expect(drawsNotdef([r.node])).toBe(false);
  });

  it('warns "empty boxes" only for what no font covers, naming it', () => {
    const r = lay('東京 \u{13000}', { element: 1 });
    expect(r.warnings).toHaveLength(1);
    expect(r.warnings[0]).toMatch(
      /^elements\[1\]\.text: font DejaVuSans and the fallback fonts have no glyph for "\u{13000}" \(U\+13000\); drawn as empty boxes$/u,
    );
    expect(drawsNotdef([r.node])).toBe(true);
  });
});

describe('layoutText: lines without spaces, measured in their fallback fonts', () => {
  it.each([
    ['Thai', 'ถนนสุขุมวิทแขวงคลองเตยเหนือเขตวัฒนากรุงเทพมหานคร'],
    ['Japanese', '大阪府大阪市北区梅田三丁目一番一号グランフロント大阪'],
  ])('wraps a %s address between words, every line inside the box', (_script, text) => {
    // Wider than its longest word (กรุงเทพมหานคร, グランフロント): a word wider than the box is cut anywhere.
    const width = 160;
    const r = lay(text, { box: { x: 0, y: 0, width } });
    const lines = r.node.lines;
    expect(lines.length).toBeGreaterThan(1);
    expect(r.warnings).toEqual([]);
    expect(lines.map((l) => l.text).join('')).toBe(text);
    for (const l of lines) expect(l.width).toBeLessThanOrEqual(width + 1e-6);
    const words = new Set(
      Array.from(new Intl.Segmenter(undefined, { granularity: 'word' }).segment(text), (s) => s.index),
    );
    let at = 0;
    for (const l of lines.slice(0, -1)) expect(words.has((at += l.text.length))).toBe(true);
    expect(drawsNotdef([r.node])).toBe(false);
  });
});
