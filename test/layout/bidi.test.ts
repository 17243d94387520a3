import { describe, expect, it } from 'vitest';
import { needsBidi, visualRuns } from '../../src/layout/bidi';

const visual = (line: string, base: 'ltr' | 'rtl') =>
  visualRuns(line, base)
    .map((r) => (r.rtl ? [...r.text].reverse().join('') : r.text))
    .join('');

describe('visualRuns', () => {
  it('leaves plain LTR text as one run', () => {
    expect(visualRuns('Hello, world', 'ltr')).toEqual([
      { text: 'Hello, world', rtl: false, start: 0, end: 12 },
    ]);
    expect(needsBidi('Hello')).toBe(false);
    expect(needsBidi('שלום')).toBe(true);
  });

  it('orders an RTL paragraph right to left, keeping LTR words and numbers left to right', () => {
    expect(visual('שלום abc', 'rtl')).toBe('abc םולש');
    expect(visual('abc שלום', 'rtl')).toBe('םולש abc');
    expect(visual('מחיר 120 ש"ח', 'rtl')).toBe('ח"ש 120 ריחמ');
  });

  it('orders RTL words inside an LTR paragraph', () => {
    expect(visual('Hi שלום עולם!', 'ltr')).toBe('Hi םלוע םולש!');
  });

  it('mirrors brackets in RTL runs', () => {
    expect(visual('(שלום)', 'rtl')).toBe('(םולש)');
  });

  it('keeps trailing spaces at the end of the line (rule L1)', () => {
    const runs = visualRuns('שלום  ', 'ltr');
    expect(runs.at(-1)).toMatchObject({ text: '  ', rtl: false });
  });

  it('never splits a surrogate pair', () => {
    for (const r of visualRuns('a\u{1D400}ש\u{1D400}b', 'rtl'))
      expect(r.text).not.toMatch(/^[\uDC00-\uDFFF]|[\uD800-\uDBFF]$/);
  });
});
