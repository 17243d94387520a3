import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_LINE_HEIGHT, layoutText, type TextLayoutInput } from '../../src/layout/text';
import { loadBundledFonts } from '../../src/node/fonts';

const fonts = loadBundledFonts();
const sans = fonts.get('DejaVuSans');
const bold = fonts.get('DejaVuSans-Bold');
const EPS = 1e-6;

function lay(text: string, opts: Partial<TextLayoutInput> = {}) {
  return layoutText({
    text,
    box: { x: 10, y: 20, width: 100, height: 0 },
    font: sans,
    size: 14,
    color: '#000000',
    ...opts,
  });
}
const texts = (r: ReturnType<typeof lay>) => r.node.lines.map((l) => l.text);
/** Glyph id of one character, unshaped (cmap). */
const gid = (ch: string) => sans.font.glyphForCodePoint(ch.codePointAt(0) ?? 0).id;

describe('layoutText: wrapping', () => {
  const pangram = 'The quick brown fox jumps over the lazy dog';

  it('wraps at word boundaries, every line within the box width', () => {
    const r = lay(pangram);
    expect(r.node.lines.length).toBeGreaterThan(1);
    for (const l of r.node.lines) expect(l.width).toBeLessThanOrEqual(100 + EPS);
    // Nothing lost, no word split, no spaces left at line ends.
    expect(texts(r).join(' ')).toBe(pangram);
    for (const t of texts(r)) expect(t).toBe(t.trim());
    // Greedy: the next line's first word would not have fit.
    r.node.lines.slice(0, -1).forEach((l, i) => {
      const next = r.node.lines[i + 1]?.text.split(' ')[0] ?? '';
      const wider = lay(`${l.text} ${next}`, { wrap: 'none', box: { x: 0, y: 0 } }).node.lines[0];
      expect(wider?.width).toBeGreaterThan(100);
    });
    expect(r.warnings).toEqual([]);
  });

  it('breaks a word longer than the box between characters', () => {
    const word = 'Supercalifragilisticexpialidocious';
    const r = lay(word, { box: { x: 0, y: 0, width: 60 } });
    expect(r.node.lines.length).toBeGreaterThan(2);
    expect(texts(r).join('')).toBe(word);
    for (const l of r.node.lines) expect(l.width).toBeLessThanOrEqual(60 + EPS);
  });

  it('never splits a combining mark from its letter or a surrogate pair', () => {
    const word = 'e\u0301'.repeat(12) + '\u{1D400}'.repeat(6) + 'n\u0303'.repeat(12);
    const r = lay(word, { box: { x: 0, y: 0, width: 30 } });
    expect(texts(r).join('')).toBe(word);
    for (const t of texts(r)) {
      expect(t).not.toMatch(/^\p{M}/u);
      expect(t).not.toMatch(/^[\uDC00-\uDFFF]|[\uD800-\uDBFF]$/);
    }
  });

  it('breaks after a hyphen between letters, like the SDK', () => {
    const r = lay('well-known', { box: { x: 0, y: 0, width: 50 } });
    expect(texts(r)).toEqual(['well-', 'known']);
  });

  it("wrap 'char' fills lines between any characters", () => {
    const r = lay('aaaa bbbb cccc dddd', { wrap: 'char', box: { x: 0, y: 0, width: 52 } });
    expect(r.node.lines[0]?.text).toMatch(/^aaaa b/);
    for (const l of r.node.lines) expect(l.width).toBeLessThanOrEqual(52 + EPS);
    expect(texts(r).join('').replace(/ /g, '')).toBe('aaaabbbbccccdddd');
  });

  it('starts a new line at each newline (\\n, \\r\\n, \\r), keeping empty lines', () => {
    const r = lay('one\ntwo\r\nthree\rfour\n\nsix', { box: { x: 0, y: 0, width: 300 } });
    expect(texts(r)).toEqual(['one', 'two', 'three', 'four', '', 'six']);
    const [a, b] = r.node.lines;
    expect((b?.baseline ?? 0) - (a?.baseline ?? 0)).toBeCloseTo(DEFAULT_LINE_HEIGHT * 14, 9);
  });

  it('a box without width or height lays out unlimited', () => {
    const r = lay('a long line that would wrap\nsecond', { box: { x: 5, y: 5 } });
    expect(texts(r)).toEqual(['a long line that would wrap', 'second']);
    expect(r.node.box.width).toBeCloseTo(r.node.lines[0]?.width ?? 0, 9);
    expect(r.node.box.height).toBeCloseTo(2 * 1.2 * 14, 9);
  });

  it('empty text gives no lines; tabs draw as one space (as canvas fillText does)', () => {
    expect(lay('').node.lines).toEqual([]);
    expect(texts(lay('a\tb'))).toEqual(['a b']);
  });
});

describe('layoutText: cutting', () => {
  it('ends a too-long line in "..." with wrap none, trimmed to fit', () => {
    const r = lay('This line is far too long for the box', { wrap: 'none', box: { x: 0, y: 0, width: 80 } });
    expect(r.node.lines).toHaveLength(1);
    const line = r.node.lines[0];
    expect(line?.text).toMatch(/^This line.*\.\.\.$/);
    expect(line?.text.endsWith('\u2026')).toBe(false); // three full stops, as the hosted service
    expect(line?.width).toBeLessThanOrEqual(80 + EPS);
    // As much text as fits: one more character would not.
    const original = 'This line is far too long for the box';
    const kept = line?.text.slice(0, -3) ?? '';
    let n = kept.length + 1;
    while (original[n - 1] === ' ') n++; // spaces before "..." are trimmed: one more visible character
    const oneMore = original.slice(0, n) + '...';
    expect(lay(oneMore, { wrap: 'none', box: { x: 0, y: 0 } }).node.lines[0]?.width).toBeGreaterThan(80);
    expect(r.warnings.join()).toMatch(/too wide for the box/);
  });

  it('with ellipsis false, cuts silently to the width', () => {
    const r = lay('This line is far too long', {
      wrap: 'none',
      ellipsis: false,
      box: { x: 0, y: 0, width: 80 },
    });
    expect(r.node.lines[0]?.text).not.toMatch(/\.\.\.$/);
    expect(r.node.lines[0]?.width).toBeLessThanOrEqual(80);
  });

  it('drops lines past the box height; the last kept line ends in "..." and a warning says so', () => {
    const r = lay('one two three four five six seven eight nine ten eleven twelve', {
      box: { x: 0, y: 0, width: 60, height: 40 }, // 40 / 16.8 → 2 lines
    });
    expect(r.node.lines).toHaveLength(2);
    expect(r.node.lines[1]?.text).toMatch(/\.\.\.$/);
    for (const l of r.node.lines) {
      expect(l.width).toBeLessThanOrEqual(60 + EPS);
      expect(l.baseline).toBeLessThanOrEqual(40);
    }
    expect(r.warnings).toEqual([expect.stringMatching(/text cut: only 2 lines fit the box height/)]);
  });

  it('says what did not fit: the lines dropped at the bottom, the ends of lines cut at the side', () => {
    const address = lay('12 Analytical Row\nLondon\nUnited Kingdom', {
      box: { x: 0, y: 0, width: 200, height: 40 }, // 2 lines fit
    });
    expect(address.lost).toBe('United Kingdom');
    const name = lay('Ada Augusta King, Countess of Lovelace', {
      box: { x: 0, y: 0, width: 120, height: 20 },
      wrap: 'none',
    });
    expect(name.node.lines[0]?.text).toMatch(/\.\.\.$/);
    expect(name.lost).toMatch(/Lovelace$/);
    expect('Ada Augusta King, Countess of Lovelace').toContain(name.lost);
    expect(lay('fits', { box: { x: 0, y: 0, width: 200, height: 40 } }).lost).toBeUndefined();
  });

  it('names the element in warnings', () => {
    const r = lay('a\nb\nc', { element: 3, box: { x: 0, y: 0, width: 50, height: 20 } });
    expect(r.warnings[0]).toMatch(/^elements\[3\]\.text: text cut/);
    expect(texts(r)).toEqual(['a...']);
  });

  it('a box too short for one line shows nothing and says so', () => {
    const r = lay('hello', { box: { x: 0, y: 0, width: 100, height: 5 } });
    expect(r.node.lines).toEqual([]);
    expect(r.warnings.join()).toMatch(/not even one line fits/);
  });
});

describe('layoutText: placement', () => {
  it('puts the first baseline at y + half-leading + ascent', () => {
    const r = lay('Hg', { size: 20, box: { x: 0, y: 7 } });
    const { ascent, descent, unitsPerEm } = sans.font;
    const s = 20 / unitsPerEm;
    const halfLeading = (1.2 * 20 - (ascent - descent) * s) / 2;
    expect(r.node.lines[0]?.baseline).toBeCloseTo(7 + halfLeading + ascent * s, 9);
  });

  it('aligns left, center and right inside the box', () => {
    const box = { x: 10, y: 0, width: 200 };
    const left = lay('Hello', { box }).node.lines[0];
    const center = lay('Hello', { box, align: 'center' }).node.lines[0];
    const right = lay('Hello', { box, align: 'right' }).node.lines[0];
    expect(left?.x).toBe(10);
    expect((center?.x ?? 0) + (center?.width ?? 0) / 2).toBeCloseTo(110, 9);
    expect((right?.x ?? 0) + (right?.width ?? 0)).toBeCloseTo(210, 9);
  });

  it('aligns vertically: middle and bottom', () => {
    const box = { x: 0, y: 0, width: 100, height: 100 };
    const top = lay('a', { box }).node.lines[0]?.baseline ?? 0;
    const mid = lay('a', { box, verticalAlign: 'middle' }).node.lines[0]?.baseline ?? 0;
    const bottom = lay('a', { box, verticalAlign: 'bottom' }).node.lines[0]?.baseline ?? 0;
    expect(mid - top).toBeCloseTo((100 - 16.8) / 2, 9);
    expect(bottom - top).toBeCloseTo(100 - 16.8, 9);
  });

  it('positions glyphs at fontkit advances: line width is the shaped advance sum (kerning, ligatures)', () => {
    for (const text of ['AV To Wa', 'office fluff', 'Ljubljana 1234']) {
      const line = lay(text, { size: 30, box: { x: 0, y: 0 } }).node.lines[0];
      const run = sans.font.layout(text);
      const scale = 30 / sans.font.unitsPerEm;
      expect(line?.width).toBeCloseTo(run.advanceWidth * scale, 9);
      expect(line?.glyphs.map((g) => g.id)).toEqual(run.glyphs.map((g) => g.id));
      let pen = 0;
      line?.glyphs.forEach((g, i) => {
        expect(g.x).toBeCloseTo(pen, 9);
        pen += (run.positions[i]?.xAdvance ?? 0) * scale;
      });
    }
    // Kerning really applies: "AV" is narrower than A + V.
    const av = lay('AV', { box: { x: 0, y: 0 } }).node.lines[0]?.width ?? 0;
    const a = lay('A', { box: { x: 0, y: 0 } }).node.lines[0]?.width ?? 0;
    const v = lay('V', { box: { x: 0, y: 0 } }).node.lines[0]?.width ?? 0;
    expect(av).toBeLessThan(a + v);
  });

  it('bold is wider than regular for the same string', () => {
    const regular = lay('Shipping label 42', { box: { x: 0, y: 0 } }).node.lines[0]?.width ?? 0;
    const heavy = lay('Shipping label 42', { font: bold, box: { x: 0, y: 0 } }).node.lines[0]?.width ?? 0;
    expect(heavy).toBeGreaterThan(regular);
  });

  it('scales with the size', () => {
    const w14 = lay('Label', { box: { x: 0, y: 0 } }).node.lines[0]?.width ?? 0;
    const w28 = lay('Label', { size: 28, box: { x: 0, y: 0 } }).node.lines[0]?.width ?? 0;
    expect(w28).toBeCloseTo(2 * w14, 9);
  });
});

describe('layoutText: directions', () => {
  it('rtl Hebrew: glyphs in reversed (visual) order, right-aligned by default', () => {
    const r = lay('שלום', { direction: 'rtl', box: { x: 0, y: 0, width: 200 } });
    const line = r.node.lines[0];
    expect(line?.text).toBe('שלום'); // logical order kept in text
    expect(line?.glyphs.map((g) => g.id)).toEqual([...'םולש'].map(gid));
    expect((line?.x ?? 0) + (line?.width ?? 0)).toBeCloseTo(200, 9);
    expect(
      lay('שלום', { direction: 'rtl', align: 'left', box: { x: 0, y: 0, width: 200 } }).node.lines[0]?.x,
    ).toBe(0);
  });

  it('rtl Arabic: joined forms, first letter drawn rightmost', () => {
    const line = lay('سلام', { direction: 'rtl', box: { x: 0, y: 0, width: 200 } }).node.lines[0];
    const letters = (line?.glyphs ?? []).map((g) =>
      sans.font.stringsForGlyph(g.id).map((s) => s.normalize('NFKC')),
    );
    expect(letters[0]).toContain('م'); // last logical letter, leftmost
    expect(letters.at(-1)).toContain('س'); // first logical letter, rightmost
    expect(line?.glyphs.map((g) => g.id)).not.toContain(gid('س')); // shaped (initial form), not isolated
  });

  it('rtl mixed with Latin: bidi keeps the Latin word left-to-right; brackets mirror', () => {
    const mixed = lay('abc שלום', { direction: 'rtl', box: { x: 0, y: 0, width: 300 } }).node.lines[0];
    expect(mixed?.glyphs.map((g) => g.id)).toEqual([...'םולש abc'].map(gid));
    const brackets = lay('(שלום)', { direction: 'rtl', box: { x: 0, y: 0, width: 300 } }).node.lines[0];
    expect(brackets?.glyphs.map((g) => g.id)).toEqual([...'(םולש)'].map(gid));
  });

  it('ltr with a Hebrew word still draws the Hebrew right-to-left', () => {
    const line = lay('Hi שלום', { box: { x: 0, y: 0, width: 300 } }).node.lines[0];
    expect(line?.glyphs.map((g) => g.id)).toEqual([...'Hi םולש'].map(gid));
    expect(line?.x).toBe(0);
  });

  it('ttb: one character per line', () => {
    const r = lay('ABC', { direction: 'ttb', box: { x: 0, y: 0, width: 20 } });
    expect(texts(r)).toEqual(['A', 'B', 'C']);
    const [a, b, c] = r.node.lines.map((l) => l.baseline);
    expect((b ?? 0) - (a ?? 0)).toBeCloseTo(16.8, 9);
    expect((c ?? 0) - (b ?? 0)).toBeCloseTo(16.8, 9);
  });
});

describe('layoutText: missing glyphs', () => {
  it('keeps .notdef for CJK and warns, naming the characters and the coverage', () => {
    const r = lay('漢字 OK', { element: 2 });
    expect(r.node.lines[0]?.glyphs.slice(0, 2).map((g) => g.id)).toEqual([0, 0]);
    expect(r.warnings).toHaveLength(1);
    expect(r.warnings[0]).toMatch(/^elements\[2\]\.text: .*"漢", "字" \(U\+6F22 U\+5B57\)/);
    expect(r.warnings[0]).toMatch(/not Chinese, Japanese or Korean/);
  });

  it('does not warn for scripts DejaVu covers, nor for invisible formatting characters', () => {
    expect(lay('Ωμέγα Привет שלום سلام Zoë a\u200db\u200e').warnings).toEqual([]);
  });
});

describe('layoutText: properties', () => {
  const alphabet = fc.constantFrom(
    ...'aAbZ0 9-,.!?()'.split(''),
    ' ',
    '  ',
    '\n',
    '\t',
    'é',
    'e\u0301',
    'ש',
    'ל',
    'م',
    'ع',
    'Ж',
    '漢',
    '\u{1D400}',
    '\u200d',
    'Wwwwwwww',
    'fi',
  );
  const input = fc.record({
    text: fc.array(alphabet, { maxLength: 80 }).map((a) => a.join('')),
    x: fc.double({ min: -50, max: 50, noNaN: true }),
    y: fc.double({ min: -50, max: 50, noNaN: true }),
    width: fc.oneof(fc.constant(0), fc.double({ min: 0.5, max: 400, noNaN: true })),
    height: fc.oneof(fc.constant(0), fc.double({ min: 0.5, max: 300, noNaN: true })),
    size: fc.double({ min: 1, max: 60, noNaN: true }),
    lineHeight: fc.double({ min: 0.3, max: 3, noNaN: true }),
    align: fc.constantFrom('left', 'center', 'right') as fc.Arbitrary<'left' | 'center' | 'right'>,
    verticalAlign: fc.constantFrom('top', 'middle', 'bottom') as fc.Arbitrary<'top' | 'middle' | 'bottom'>,
    direction: fc.constantFrom('ltr', 'rtl', 'ttb') as fc.Arbitrary<'ltr' | 'rtl' | 'ttb'>,
    wrap: fc.constantFrom('word', 'char', 'none') as fc.Arbitrary<'word' | 'char' | 'none'>,
    ellipsis: fc.boolean(),
  });

  it('never throws, never draws a line wider than the box or a baseline below it', () => {
    fc.assert(
      fc.property(input, (p) => {
        const { node, warnings } = layoutText({
          ...p,
          box: { x: p.x, y: p.y, width: p.width, height: p.height },
          font: sans,
          color: '#000000',
        });
        for (const line of node.lines) {
          if (p.width > 0) {
            // The one documented overflow: a box narrower than "..." still shows "...".
            const markerOnly = line.text === '...' && warnings.some((w) => w.includes('narrower than "..."'));
            if (!markerOnly) expect(line.width).toBeLessThanOrEqual(p.width + EPS);
          }
          if (p.height > 0) expect(line.baseline).toBeLessThanOrEqual(p.y + p.height + EPS);
          expect(line.baseline).toBeGreaterThan(p.y);
          expect(Number.isFinite(line.x)).toBe(true);
        }
      }),
      { numRuns: 400 },
    );
  });

  it('loses no character unless a warning says text was cut', () => {
    fc.assert(
      fc.property(input, (p) => {
        if (p.direction === 'ttb') return;
        const { node, warnings } = layoutText({
          ...p,
          box: { x: 0, y: 0, width: p.width, height: p.height },
          font: sans,
          color: '#000000',
        });
        if (warnings.some((w) => /cut/.test(w))) return;
        const visible = (s: string) => s.replace(/\s/g, '');
        expect(visible(node.lines.map((l) => l.text).join(''))).toBe(visible(p.text));
      }),
      { numRuns: 300 },
    );
  });
});
