import { describe, expect, it } from 'vitest';
import { missingCharacters, shapeLine, shapeRun } from '../../src/layout/text-shape';
import { loadBundledFonts } from '../../src/node/fonts';

const fonts = loadBundledFonts();
const sans = fonts.get('DejaVuSans').font;

describe('shaping cache', () => {
  it('returns the cached result for the same font and string, in font units (any size)', () => {
    const a = shapeLine(sans, 'Cached words', 'ltr');
    expect(shapeLine(sans, 'Cached words', 'ltr')).toBe(a);
    expect(a.advance).toBe(sans.layout('Cached words').advanceWidth);
  });

  it('keeps fonts apart', () => {
    const bold = fonts.get('DejaVuSans-Bold').font;
    expect(shapeLine(bold, 'Cached words', 'ltr').advance).toBeGreaterThan(
      shapeLine(sans, 'Cached words', 'ltr').advance,
    );
  });

  it('gives RTL runs in visual order', () => {
    const run = shapeRun(sans, 'אב', true);
    expect(run.ids).toEqual([sans.glyphForCodePoint(0x5d1).id, sans.glyphForCodePoint(0x5d0).id]);
  });
});

describe('missingCharacters', () => {
  it('lists characters without a glyph once, ignoring controls and invisible formatting', () => {
    expect(missingCharacters(sans, '漢a漢\u200d\n字')).toEqual(['漢', '字']);
  });
});
