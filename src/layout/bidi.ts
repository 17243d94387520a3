/**
 * Bidirectional text for one laid-out line: the Unicode Bidirectional Algorithm (UAX #9, via bidi-js) splits the
 * line into directional runs and orders them visually. Each run is then shaped on its own by fontkit, which
 * returns right-to-left runs already in visual order, so only the runs themselves are reordered here (rule L2
 * applied to whole runs instead of characters gives the same result).
 *
 * Indices are UTF-16 code units, as in JavaScript strings and bidi-js.
 */
import bidiFactory, { type Bidi } from 'bidi-js';

/** A directional run of a line: `text` is what to shape, mirrored for RTL runs (`(` drawn as `)`). */
export interface BidiRun {
  text: string;
  rtl: boolean;
  /** Logical range [start, end) of the run in the line. */
  start: number;
  end: number;
}

let bidi: Bidi | undefined;
function getBidi(): Bidi {
  // The factory builds sizeable Unicode tables: do it once, and only when a line needs it.
  return (bidi ??= bidiFactory());
}

/**
 * Characters that make the UBA necessary: Hebrew, Arabic, Syriac, Thaana, NKo, Samaritan, Mandaic, their
 * presentation forms, the RTL supplementary blocks, and explicit directional formatting characters.
 */
const RTL_OR_CONTROL =
  /[\u0590-\u08FF\uFB1D-\uFDFF\uFE70-\uFEFE\u200F\u202A-\u202E\u2066-\u2069\u{10800}-\u{10FFF}\u{1E800}-\u{1EFFF}]/u;

/** True when `text` needs bidi processing under an LTR base direction. */
export function needsBidi(text: string): boolean {
  return RTL_OR_CONTROL.test(text);
}

/** Bidi classes that rule L1 resets to the paragraph level at the end of a line. */
const TRAILING_RESET = new Set([
  'WS',
  'BN',
  'S',
  'LRI',
  'RLI',
  'FSI',
  'PDI',
  'LRE',
  'RLE',
  'LRO',
  'RLO',
  'PDF',
]);

/**
 * Splits one line (no line breaks inside) into directional runs, in visual (left-to-right drawing) order.
 * `base` is the paragraph direction: the markup's `direction` (`rtl` or `ltr`), never guessed from the text,
 * as the SDK's canvas does.
 */
export function visualRuns(line: string, base: 'ltr' | 'rtl'): BidiRun[] {
  if (line === '') return [];
  if (base === 'ltr' && !needsBidi(line)) return [{ text: line, rtl: false, start: 0, end: line.length }];

  const b = getBidi();
  const resolved = b.getEmbeddingLevels(line, base);
  const levels = Uint8Array.from(resolved.levels);
  const baseLevel = base === 'rtl' ? 1 : 0;
  // L1: whitespace at the end of the line takes the paragraph level, so a trailing space never lands mid-line.
  for (let i = line.length - 1; i >= 0 && TRAILING_RESET.has(b.getBidiCharTypeName(line.charAt(i))); i--) {
    levels[i] = baseLevel;
  }
  // A surrogate pair is one character: keep both halves in one run.
  for (let i = 1; i < line.length; i++) {
    const c = line.charCodeAt(i);
    if (c >= 0xdc00 && c <= 0xdfff) levels[i] = levels[i - 1] ?? baseLevel;
  }
  const mirrored = b.getMirroredCharactersMap(line, levels);

  const runs: Array<BidiRun & { level: number }> = [];
  let start = 0;
  for (let i = 1; i <= line.length; i++) {
    if (i < line.length && levels[i] === levels[start]) continue;
    const level = levels[start] ?? baseLevel;
    const rtl = level % 2 === 1;
    let text = line.slice(start, i);
    if (rtl && mirrored.size > 0) {
      let m = '';
      for (let k = start; k < i; k++) m += mirrored.get(k) ?? line.charAt(k);
      text = m;
    }
    runs.push({ text, rtl, start, end: i, level });
    start = i;
  }
  return reorderRuns(runs).map(({ text, rtl, start: s, end }) => ({ text, rtl, start: s, end }));
}

/** Rule L2 over runs: from the highest level down to the lowest odd level, reverse every sequence at or above it. */
function reorderRuns<T extends { level: number }>(runs: T[]): T[] {
  let highest = 0;
  let lowestOdd = Number.POSITIVE_INFINITY;
  for (const r of runs) {
    highest = Math.max(highest, r.level);
    if (r.level % 2 === 1) lowestOdd = Math.min(lowestOdd, r.level);
  }
  const out = runs.slice();
  for (let level = highest; level >= lowestOdd; level--) {
    let i = 0;
    while (i < out.length) {
      if ((out[i]?.level ?? 0) < level) {
        i++;
        continue;
      }
      let j = i;
      while (j < out.length && (out[j]?.level ?? 0) >= level) j++;
      const reversed = out.slice(i, j).reverse();
      out.splice(i, j - i, ...reversed);
      i = j;
    }
  }
  return out;
}
