import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { breakParagraph, cutToWidth, graphemes, trimEndSpaces } from '../../src/layout/text-break';

/** A monospace measure: every grapheme is 1 wide. */
const mono = (s: string) => graphemes(s).length;
const lines = (p: string, w: number, wrap: 'word' | 'char' = 'word') =>
  breakParagraph(p, w, wrap, mono).map((l) => l.text);

describe('breakParagraph', () => {
  it('fills lines greedily at spaces; spaces at breaks hang', () => {
    expect(lines('aaa bbb ccc', 7)).toEqual(['aaa bbb', 'ccc']);
    expect(lines('aaa bbb ccc', 6)).toEqual(['aaa', 'bbb', 'ccc']);
    expect(lines('aaa    bbb', 5)).toEqual(['aaa', 'bbb']);
  });

  it('keeps a paragraph’s own leading spaces and, while they fit, its trailing ones', () => {
    expect(lines('  aa ', 10)).toEqual(['  aa ']);
  });

  it('breaks a long word between graphemes, then continues with words', () => {
    expect(lines('abcdefgh ij', 3)).toEqual(['abc', 'def', 'gh', 'ij']);
    expect(lines('e\u0301e\u0301e\u0301', 2)).toEqual(['e\u0301e\u0301', 'e\u0301']);
  });

  it('breaks after a hyphen between letters only', () => {
    expect(lines('well-known', 6)).toEqual(['well-', 'known']);
    expect(lines('-5 -6', 2)).toEqual(['-5', '-6']);
  });

  it("wrap 'char' breaks anywhere", () => {
    expect(lines('ab cd', 4, 'char')).toEqual(['ab c', 'd']);
  });

  it('flags a paragraph where not even one grapheme fits', () => {
    expect(breakParagraph('abc', 0.5, 'word', mono)).toEqual([{ text: 'abc', overflow: true }]);
  });

  it('stops after maxLines + 1 lines', () => {
    expect(breakParagraph('a b c d e f', 1, 'word', mono, 2)).toHaveLength(3);
  });
});

describe('cutToWidth', () => {
  it('keeps as much as fits before the marker, without spaces before it', () => {
    expect(cutToWidth('abcdef', 5, '...', mono)).toEqual({ text: 'ab...', overflow: false });
    expect(cutToWidth('ab cdef', 6, '...', mono)).toEqual({ text: 'ab...', overflow: false });
    expect(cutToWidth('abcdef', 4, '', mono)).toEqual({ text: 'abcd', overflow: false });
  });

  it('returns the marker alone, flagged, when the marker does not fit', () => {
    expect(cutToWidth('abc', 2, '...', mono)).toEqual({ text: '...', overflow: true });
  });
});

describe('helpers', () => {
  it('trims breaking spaces only, not no-break spaces', () => {
    expect(trimEndSpaces('a  ')).toBe('a');
    expect(trimEndSpaces('a\u00a0')).toBe('a\u00a0');
  });

  it('splits ASCII text exactly as Intl.Segmenter does (the fast path), CR LF included', () => {
    const segmenter = new Intl.Segmenter(undefined, { granularity: 'grapheme' });
    const reference = (t: string) => Array.from(segmenter.segment(t), (x) => x.segment);
    fc.assert(
      fc.property(
        fc.string({ unit: fc.constantFrom(...' \t\n\rab-Z09.,é\u0301'.split('')), maxLength: 40 }),
        (t) => {
          expect(graphemes(t)).toEqual(reference(t));
        },
      ),
      { numRuns: 2000 },
    );
    expect(graphemes('a\r\nb')).toEqual(['a', '\r\n', 'b']);
  });

  it('splits graphemes without breaking surrogates or combining marks', () => {
    expect(graphemes('e\u0301\u{1D400}x')).toEqual(['e\u0301', '\u{1D400}', 'x']);
  });
});

describe('breakParagraph: scripts written without spaces (#23)', () => {
  /** Where Intl.Segmenter puts word boundaries (UTF-16 offsets): the only places these lines may break. */
  const wordBoundaries = (text: string): Set<number> =>
    new Set(Array.from(new Intl.Segmenter(undefined, { granularity: 'word' }).segment(text), (s) => s.index));

  it.each([
    ['Thai', 'กรุงเทพมหานครอมรรัตนโกสินทร์มหินทรายุธยา', 12],
    ['Japanese', '大阪府大阪市北区梅田三丁目一番一号', 6],
    ['Chinese', '上海市浦东新区世纪大道一百号', 5],
  ])('breaks %s between words, not only at spaces, each line within the width', (_script, text, width) => {
    const got = lines(text, width);
    expect(got.length).toBeGreaterThan(1);
    expect(got.join('')).toBe(text);
    for (const l of got) expect(mono(l)).toBeLessThanOrEqual(width);
    const boundaries = wordBoundaries(text);
    let at = 0;
    for (const l of got.slice(0, -1)) expect(boundaries.has((at += l.length))).toBe(true);
  });

  it('starts no line with closing punctuation or a small kana (kinsoku) where words fit', () => {
    const text = '東京都、千代田区。丸の内ッ一丁目';
    // A word wider than the box is still cut between graphemes, wherever that falls.
    const longest = Math.max(
      ...Array.from(new Intl.Segmenter(undefined, { granularity: 'word' }).segment(text), (s) =>
        mono(s.segment),
      ),
    );
    for (let width = longest + 1; width <= 10; width++) {
      for (const l of lines(text, width).slice(1)) expect(l).not.toMatch(/^[、。ッ]/);
    }
  });

  it('breaks Latin and Korean only at spaces, as before', () => {
    expect(lines('서울특별시중구 세종대로', 8)).toEqual(['서울특별시중구', '세종대로']);
    expect(lines('aaaa bbbb', 6)).toEqual(['aaaa', 'bbbb']);
  });
});
