/**
 * Line breaking and cutting for text layout, independent of fonts: every width comes from a `measure`
 * callback (the shaped advance width of a string, in scene units). Breaks fall between grapheme clusters
 * only, so surrogate pairs, combining marks and emoji sequences are never split.
 */

/** Shaped advance width of a string, in scene units. */
export type Measure = (text: string) => number;

/** A line produced by breaking, before any ellipsis. */
export interface BrokenLine {
  text: string;
  /** Not even one character fits the width: the caller cuts this line (it is the rest of its paragraph). */
  overflow: boolean;
}

/** Floating-point slack for width comparisons, in scene units (far below a printer dot). */
export const EPSILON = 1e-6;

let segmenter: Intl.Segmenter | undefined;

// Printable ASCII, tab and LF: every character is a grapheme cluster of its own (only CR LF joins two).
const SIMPLE_ASCII = /^[\x20-\x7e\t\n]*$/;

/** Splits text into grapheme clusters (user-perceived characters). */
export function graphemes(text: string): string[] {
  // Most label text; Intl.Segmenter costs ~10x more and was the largest item of a batch's layout profile.
  if (SIMPLE_ASCII.test(text)) return text.split('');
  if (typeof Intl !== 'undefined' && typeof Intl.Segmenter === 'function') {
    segmenter ??= new Intl.Segmenter(undefined, { granularity: 'grapheme' });
    return Array.from(segmenter.segment(text), (s) => s.segment);
  }
  // Older engines: a code point plus its combining marks is close enough.
  return text.match(/\P{M}\p{M}*|\p{M}+/gsu) ?? [];
}

/**
 * Spaces a line may break at (and that hang at the end of a wrapped line). No-break spaces (U+00A0, U+2007,
 * U+202F) are left out on purpose; U+200B (zero-width space) is a break opportunity that draws nothing.
 */
const BREAKING_SPACE = /^[\u0020\u1680\u2000-\u2006\u2008-\u200B\u205F\u3000]+$/;
const LETTER = /^\p{L}/u;

/** Removes breaking spaces at the end of `text`. */
export function trimEndSpaces(text: string): string {
  let end = text.length;
  while (end > 0 && BREAKING_SPACE.test(text.charAt(end - 1))) end--;
  return text.slice(0, end);
}

/** A word (break opportunity after it) and the breaking spaces that follow it. */
interface Segment {
  word: string;
  space: string;
}

/**
 * Scripts written without spaces between words (issue #23): Thai, Lao, Khmer, Myanmar, Han, kana. Text in
 * them breaks between the words Intl.Segmenter finds (ICU's dictionaries for Thai and the others; for
 * Chinese and Japanese, words or single ideographs).
 */
const NO_SPACE_SCRIPT =
  /[\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u;
/** Characters no line may start with (closing punctuation, CJK small kana and marks: kinsoku) or end with. */
const NO_BREAK_BEFORE =
  /^[\p{Pe}\p{Pf}!%),.:;?\]}、。，．：；！？ー々〻ぁぃぅぇぉっゃゅょゎァィゥェォッャュョヮヵヶ゛゜]/u;
const NO_BREAK_AFTER = /[\p{Ps}\p{Pi}([{]$/u;
let wordSegmenter: Intl.Segmenter | undefined;
const NO_BREAKS: ReadonlySet<number> = new Set();

/**
 * Positions (UTF-16 offsets) inside `paragraph` where a line may break between two words of a script without
 * spaces; empty for text without such scripts (all of Latin, Greek, Cyrillic, Arabic, Hebrew, Indic, Hangul).
 */
function wordBreaks(paragraph: string): ReadonlySet<number> {
  if (SIMPLE_ASCII.test(paragraph) || !NO_SPACE_SCRIPT.test(paragraph)) return NO_BREAKS;
  if (typeof Intl === 'undefined' || typeof Intl.Segmenter !== 'function') return NO_BREAKS;
  const breaks = new Set<number>();
  wordSegmenter ??= new Intl.Segmenter(undefined, { granularity: 'word' });
  let before = '';
  for (const { segment, index } of wordSegmenter.segment(paragraph)) {
    if (
      index > 0 &&
      (NO_SPACE_SCRIPT.test(before) || NO_SPACE_SCRIPT.test(segment)) &&
      !NO_BREAK_BEFORE.test(segment) &&
      !NO_BREAK_AFTER.test(before)
    ) {
      breaks.add(index);
    }
    before = segment;
  }
  return breaks;
}

/**
 * Break opportunities: after spaces, and (wrap 'word') after a hyphen between letters, like the Konva text the
 * hosted SDK draws with, and between words of scripts written without spaces; (wrap 'char') between any two
 * graphemes.
 */
function segmentsOf(paragraph: string, wrap: 'word' | 'char'): Segment[] {
  const out: Segment[] = [];
  const gs = graphemes(paragraph);
  const breaks = wrap === 'word' ? wordBreaks(paragraph) : undefined;
  let at = 0;
  let word = '';
  let space = '';
  gs.forEach((g, i) => {
    const start = at;
    at += g.length;
    if (BREAKING_SPACE.test(g)) {
      space += g;
      return;
    }
    if (space !== '' || (word !== '' && (wrap === 'char' || breaks?.has(start)))) {
      out.push({ word, space });
      word = '';
      space = '';
    }
    word += g;
    const next = gs[i + 1];
    if (
      wrap === 'word' &&
      g === '-' &&
      next !== undefined &&
      LETTER.test(next) &&
      LETTER.test(gs[i - 1] ?? '')
    ) {
      out.push({ word, space: '' });
      word = '';
    }
  });
  if (word !== '' || space !== '') out.push({ word, space });
  return out;
}

function join(segments: readonly Segment[], from: number, to: number): string {
  let s = '';
  for (let i = from; i < to; i++) {
    const seg = segments[i];
    if (seg) s += seg.word + seg.space;
  }
  return s;
}

/**
 * Largest n in [0, limit] with `fits(n)`, by bisection; fits(0) is assumed. Widths grow with n almost always
 * (kerning and Arabic joining can wobble by a fraction of a glyph), and the returned n was actually measured.
 */
function largestFitting(limit: number, fits: (n: number) => boolean): number {
  let lo = 0;
  let hi = limit;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (fits(mid)) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/**
 * An upper bound for how many of `gs` (from `from`) can fit in `width`: summing single-grapheme widths is
 * cheap (each is cached) and close to the shaped width, and bounding the bisection keeps it from shaping
 * thousands of characters for a short line.
 */
function fitBound(gs: readonly string[], from: number, width: number, measure: Measure): number {
  let sum = 0;
  let n = 0;
  while (from + n < gs.length && sum <= width) {
    sum += measure(gs[from + n] ?? '');
    n++;
  }
  // Kerning and ligatures can make the shaped run narrower than the sum: allow a few more.
  return Math.min(gs.length - from, n + 2 + Math.ceil(n / 4));
}

/**
 * Breaks one paragraph (no newlines) into lines no wider than `maxWidth`: greedily at break opportunities,
 * and a word wider than the box between graphemes. Spaces at a break hang: they end no line and start none.
 */
export function breakParagraph(
  paragraph: string,
  maxWidth: number,
  wrap: 'word' | 'char',
  measure: Measure,
  /** Stop once more lines than this are made (the rest would be dropped anyway). */
  maxLines = Number.POSITIVE_INFINITY,
): BrokenLine[] {
  const segs = segmentsOf(paragraph, wrap);
  if (segs.length === 0) return [{ text: '', overflow: false }];
  const lines: BrokenLine[] = [];
  const limit = maxWidth + EPSILON;
  let i = 0;
  while (i < segs.length && lines.length <= maxLines) {
    // Estimate from cached word widths (the spaces after the last word do not count: they hang).
    let width = 0;
    let j = i;
    for (; j < segs.length; j++) {
      const seg = segs[j] as Segment;
      const w = measure(seg.word);
      if (width + w > limit) break;
      width += w + measure(seg.space);
    }

    if (j === i) {
      // The first word alone is wider than the box: break it between graphemes.
      const seg = segs[i] as Segment;
      const gs = graphemes(seg.word);
      let from = 0;
      while (lines.length <= maxLines) {
        const bound = fitBound(gs, from, maxWidth, measure);
        const n = largestFitting(bound, (k) => measure(gs.slice(from, from + k).join('')) <= limit);
        if (n === 0) {
          // Not one grapheme fits: give up wrapping this paragraph; the caller cuts the line.
          lines.push({
            text: gs.slice(from).join('') + seg.space + join(segs, i + 1, segs.length),
            overflow: true,
          });
          return lines;
        }
        if (from + n === gs.length) {
          // The tail fits: it starts the next line, which may take more words.
          segs[i] = { word: gs.slice(from).join(''), space: seg.space };
          break;
        }
        lines.push({ text: gs.slice(from, from + n).join(''), overflow: false });
        from += n;
      }
      continue;
    }

    // Check the estimate with the shaped line: kerning between words can differ from the sum of the parts.
    let text = join(segs, i, j);
    while (measure(trimEndSpaces(text)) > limit && j - i > 1) text = join(segs, i, --j);
    // Spaces at a break hang (dropped); a paragraph's own trailing spaces stay while they fit.
    if (j < segs.length || measure(text) > limit) text = trimEndSpaces(text);
    lines.push({ text, overflow: false });
    i = j;
  }
  return lines;
}

/**
 * Cuts `text` to fit `maxWidth`, between graphemes, and appends `marker` ("..." or nothing). Returns the
 * marker alone, wider than the box, when even the marker does not fit (`overflow` true).
 */
export function cutToWidth(
  text: string,
  maxWidth: number,
  marker: string,
  measure: Measure,
): { text: string; overflow: boolean } {
  const limit = maxWidth + EPSILON;
  const markerWidth = measure(marker);
  if (markerWidth > limit) return { text: marker, overflow: true };
  const gs = graphemes(text);
  const bound = fitBound(gs, 0, maxWidth - markerWidth, measure);
  const prefix = (k: number): string => trimEndSpaces(gs.slice(0, k).join('')) + marker;
  const n = largestFitting(bound, (k) => measure(prefix(k)) <= limit);
  return { text: prefix(n), overflow: false };
}
