import { describe, expect, it } from 'vitest';
import { glyphPath, linePathData } from '../../src/layout/glyph-paths';
import { layoutText } from '../../src/layout/text';
import { loadBundledFonts } from '../../src/node/fonts';

const fonts = loadBundledFonts();
const sans = fonts.get('DejaVuSans');
const gid = (ch: string) => sans.font.glyphForCodePoint(ch.codePointAt(0) ?? 0).id;

/** All coordinates of path data, as [x, y] pairs (the paths here use only M, L, Q, C, Z). */
function points(d: string): Array<[number, number]> {
  const nums = (d.match(/-?\d*\.?\d+/g) ?? []).map(Number);
  const out: Array<[number, number]> = [];
  for (let i = 0; i + 1 < nums.length; i += 2) out.push([nums[i] ?? 0, nums[i + 1] ?? 0]);
  return out;
}

describe('glyphPath', () => {
  it('is the outline in font units, y up, as fontkit draws it', () => {
    const d = glyphPath(sans, gid('A'));
    expect(d).toBe(sans.font.getGlyph(gid('A')).path.toSVG());
    expect(d.startsWith('M')).toBe(true);
    expect(d.endsWith('Z')).toBe(true);
  });

  it('is empty for a glyph without outline (space) and stable across calls (cached)', () => {
    expect(glyphPath(sans, gid(' '))).toBe('');
    expect(glyphPath(sans, gid('g'))).toBe(glyphPath(sans, gid('g')));
  });

  it('keeps at most 2 decimals', () => {
    for (const ch of 'aegs@&8') expect(glyphPath(sans, gid(ch))).not.toMatch(/\.\d{3}/);
  });
});

describe('linePathData', () => {
  const node = layoutText({ text: 'Hg', box: { x: 10, y: 20 }, font: sans, size: 40, color: '#000000' }).node;
  const line = node.lines[0];
  if (!line) throw new Error('no line');
  const d = linePathData(node, line, fonts);
  const s = 40 / sans.font.unitsPerEm;

  it('places each glyph at its position, scaled to the size, y down', () => {
    const h = points(glyphPath(sans, gid('H')));
    const ours = points(d);
    // The first points are the H's, moved to (line.x, baseline) and flipped.
    h.slice(0, 5).forEach(([x, y], i) => {
      expect(ours[i]?.[0]).toBeCloseTo(line.x + x * s, 1);
      expect(ours[i]?.[1]).toBeCloseTo(line.baseline - y * s, 1);
    });
  });

  it('stays inside the line: between ascent and descent, across the advance width', () => {
    for (const [x, y] of points(d)) {
      expect(y).toBeGreaterThanOrEqual(line.baseline - sans.font.ascent * s - 0.01);
      expect(y).toBeLessThanOrEqual(line.baseline - sans.font.descent * s + 0.01);
      expect(x).toBeGreaterThanOrEqual(line.x - 1);
      expect(x).toBeLessThanOrEqual(line.x + line.width + 1);
    }
    // The descender of "g" goes below the baseline; "H" sits on it.
    expect(Math.max(...points(d).map(([, y]) => y))).toBeGreaterThan(line.baseline + 1);
  });

  it('is compact: 2 decimals, no separator before a minus sign', () => {
    expect(d).not.toMatch(/\.\d{3}/);
    expect(d).not.toMatch(/ -/);
    expect(d).toMatch(/^M[\d.]+ [\d.]+/);
  });

  it('draws right-to-left lines in visual order', () => {
    const rtl = layoutText({
      text: 'שלום',
      box: { x: 0, y: 0, width: 200 },
      font: sans,
      size: 20,
      color: '#000000',
      direction: 'rtl',
    }).node;
    const l = rtl.lines[0];
    if (!l) throw new Error('no line');
    const xs = points(linePathData(rtl, l, fonts)).map(([x]) => x);
    expect(Math.min(...xs)).toBeGreaterThan(l.x - 1);
    expect(Math.max(...xs)).toBeLessThanOrEqual(200 + 1);
  });
});
