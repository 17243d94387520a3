/**
 * Text layout: one markup text element to a TextNode whose lines are final (wrapped, cut, aligned, shaped).
 *
 * The visible rules follow the hosted SDK's Konva text (reference/markup.md): line height 1.2 × size, lines
 * that do not fit the box height dropped, a line too wide for the box ending in "...", `rtl` aligned right by
 * default, `ttb` one character per line. Where the SDK only splits on newlines we also wrap words, as the spec
 * promises. All lengths are scene units (px at 96 dpi or printer dots), the unit of `box` and `size`.
 */
import type { LoadedFont } from './fonts';
import type { Color, PositionedGlyph, TextLine, TextNode } from './scene';
import { breakParagraph, cutToWidth, EPSILON, graphemes, type BrokenLine, type Measure } from './text-break';
import { shapeLineWithFallback, uncoveredCharacters, type LastResort } from './text-fallback';

export interface TextLayoutInput {
  text: string;
  /**
   * The element's box in scene units. `width` 0 or undefined: no wrapping and no cutting, lines as wide as
   * they are. The hosted SDK's default width is "the rest of the stage", so the markup layout passes
   * `stage width - x` for a missing width rather than leaving it undefined. `height` 0 or undefined: unlimited.
   */
  box: { x: number; y: number; width?: number; height?: number };
  font: LoadedFont;
  /**
   * Fonts for what `font` lacks, tried in order per script run (`FontSet.fallbacks(font)`); none: characters
   * `font` lacks draw its .notdef.
   */
  fallbacks?: readonly LoadedFont[];
  /** After `fallbacks`, for a grapheme none covers: fonts installed on the machine (`FontSet.lastResort`). */
  lastResort?: LastResort;
  /** Em size in scene units. */
  size: number;
  color: Color;
  /** Distance between baselines as a multiple of `size`; default 1.2, the hosted SDK's. */
  lineHeight?: number;
  /** Default 'left', or 'right' for direction 'rtl'. */
  align?: 'left' | 'center' | 'right';
  /** Default 'top'. */
  verticalAlign?: 'top' | 'middle' | 'bottom';
  /** Default 'ltr'. */
  direction?: 'ltr' | 'rtl' | 'ttb';
  /** Default 'word'. */
  wrap?: 'word' | 'char' | 'none';
  /** End cut lines with "..." (default true); false cuts them silently. */
  ellipsis?: boolean;
  /** Index of the markup element, for the node and for warnings. */
  element?: number;
}

export interface TextLayout {
  node: TextNode;
  /** For the user: text cut or dropped, characters the font cannot draw. */
  warnings: string[];
  /**
   * The text that did not fit the box (lines dropped at the bottom, ends of lines cut at the side), as it was
   * given, pieces joined by " … "; absent when everything fits. For telling a person what a label loses.
   */
  lost?: string;
}

/** The hosted SDK's line height, as a multiple of the font size. */
export const DEFAULT_LINE_HEIGHT = 1.2;
/** What the hosted service appends to a cut line: three full stops, not U+2026. */
export const ELLIPSIS = '...';

/**
 * Lays out one text element. Pure and synchronous; shaping is cached, so calling it on every keystroke of
 * the preview re-shapes only the lines that changed.
 */
export function layoutText(input: TextLayoutInput): TextLayout {
  const where = input.element === undefined ? 'text' : `elements[${input.element}].text`;
  const warnings: string[] = [];
  const direction = input.direction ?? 'ltr';
  const align = input.align ?? (direction === 'rtl' ? 'right' : 'left');
  const ellipsis = input.ellipsis ?? true;
  const lineHeight = positiveOr(input.lineHeight, DEFAULT_LINE_HEIGHT);
  const maxWidth = positiveOr(input.box.width, Number.POSITIVE_INFINITY);
  const maxHeight = positiveOr(input.box.height, Number.POSITIVE_INFINITY);
  const size = Number.isFinite(input.size) && input.size > 0 ? input.size : 0;
  const fk = input.font.font;
  const chain = input.fallbacks ?? [];
  const lastResort = input.lastResort;
  const text = normaliseText(input.text);

  const node: TextNode = {
    kind: 'text',
    font: input.font.key,
    size,
    color: input.color,
    box: { x: input.box.x, y: input.box.y, width: 0, height: 0 },
    direction,
    lines: [],
  };
  if (input.element !== undefined) node.element = input.element;

  const missing = uncoveredCharacters([input.font, ...chain], text, lastResort);
  const withFallbacks = chain.length > 0 || lastResort !== undefined;
  if (missing.length > 0) warnings.push(missingWarning(where, input.font.key, withFallbacks, missing));
  if (size === 0 && text !== '') warnings.push(`${where}: font size must be positive; nothing drawn`);
  if (text === '' || size === 0) {
    node.box.width = finiteOr(maxWidth, 0);
    node.box.height = finiteOr(maxHeight, 0);
    return { node, warnings };
  }

  // Font units (y up) to scene units.
  const scale = size / fk.unitsPerEm;
  const base = direction === 'rtl' ? 'rtl' : 'ltr';
  const measure: Measure = (s) =>
    shapeLineWithFallback(input.font, chain, s, base, lastResort).advance * scale;

  // 1. Vertical metrics: line boxes are lineHeight × size tall; the glyphs' ascent + descent sit centred in
  // each (half-leading above and below), so the first baseline is y + half-leading + ascent.
  const lineAdvance = lineHeight * size;
  const ascent = fk.ascent * scale;
  const descent = -fk.descent * scale; // fontkit's descent is negative (below the baseline)
  const firstBaseline = (lineAdvance - ascent - descent) / 2 + ascent;
  let maxLines = Number.POSITIVE_INFINITY;
  if (maxHeight !== Number.POSITIVE_INFINITY) {
    maxLines = Math.floor((maxHeight + EPSILON) / lineAdvance);
    // Tiny line heights put the baseline below the line box: a baseline must stay inside the box too.
    while (maxLines > 0 && firstBaseline + (maxLines - 1) * lineAdvance > maxHeight + EPSILON) maxLines--;
  }

  // 2. Logical lines, one more than fit at most (a long text in a small box costs no more than a short one).
  let lines: BrokenLine[] = [];
  if (direction === 'ttb') {
    // The SDK's ttb: every character on its own line; a newline is an empty line between words.
    lines = graphemes(text).map((g) => ({ text: g === '\n' ? '' : g, overflow: false }));
  } else {
    const wrap = input.wrap ?? 'word';
    for (const paragraph of text.split('\n')) {
      if (lines.length > maxLines) break;
      if (wrap === 'none' || maxWidth === Number.POSITIVE_INFINITY) {
        lines.push({ text: paragraph, overflow: false });
      } else {
        lines.push(...breakParagraph(paragraph, maxWidth, wrap, measure, maxLines - lines.length));
      }
    }
  }
  const dropped = lines.length > maxLines;
  const kept = Math.min(lines.length, maxLines);
  const lostPieces: string[] = [];
  if (dropped) {
    // Lines are broken from the start of the text: what follows the last kept line's text is what is lost.
    let at = 0;
    for (const line of lines.slice(0, kept)) {
      const found = text.indexOf(line.text, at);
      if (found >= 0) at = found + line.text.length;
    }
    const rest = text.slice(at).trim();
    if (rest) lostPieces.push(rest.replace(/\s*\n\s*/g, ' / '));
  }
  lines = lines.slice(0, kept);

  // 3. Horizontal fit: cut lines still too wide; after dropped lines, the last kept line ends in "...".
  const marker = ellipsis ? ELLIPSIS : '';
  let cut = 0;
  let narrowerThanMarker = false;
  const final = lines.map((line, i) => {
    const markDrop = dropped && i === kept - 1 && ellipsis;
    if (maxWidth === Number.POSITIVE_INFINITY) return markDrop ? line.text + ELLIPSIS : line.text;
    if (!markDrop && !line.overflow && measure(line.text) <= maxWidth + EPSILON) return line.text;
    if (!markDrop) cut++;
    const r = cutToWidth(line.text, maxWidth, markDrop ? ELLIPSIS : marker, measure);
    narrowerThanMarker ||= r.overflow;
    const shownPart = r.text.endsWith(ELLIPSIS) ? r.text.slice(0, -ELLIPSIS.length) : r.text;
    const tail = line.text.startsWith(shownPart) ? line.text.slice(shownPart.length).trim() : '';
    if (tail)
      lostPieces.splice(markDrop ? lostPieces.length : lostPieces.length - (dropped ? 1 : 0), 0, tail);
    return r.text;
  });
  if (cut > 0) {
    const n = cut === 1 ? 'a line is' : `${cut} lines are`;
    warnings.push(`${where}: ${n} too wide for the box and cut${ellipsis ? ' with "..."' : ''}`);
  }
  if (narrowerThanMarker) warnings.push(`${where}: the box is narrower than "..."; the "..." overflows it`);
  if (dropped) {
    const shown =
      kept === 0 ? 'not even one line fits' : `only ${kept === 1 ? '1 line fits' : `${kept} lines fit`}`;
    const tail = kept > 0 && ellipsis ? '; the last line shown ends in "..."' : '';
    warnings.push(`${where}: text cut: ${shown} the box height${tail}`);
  }

  // 4. Shape, align, place.
  const placed = final.map((t) => shapeToLine(t, input.font, chain, lastResort, base, scale));
  const boxWidth = finiteOr(
    maxWidth,
    placed.reduce((w, l) => Math.max(w, l.width), 0),
  );
  const contentHeight = placed.length * lineAdvance;
  const boxHeight = finiteOr(maxHeight, contentHeight);
  let dy = 0;
  if (input.verticalAlign === 'middle') dy = (boxHeight - contentHeight) / 2;
  else if (input.verticalAlign === 'bottom') dy = boxHeight - contentHeight;
  // Keep the last baseline inside the box even when a tiny line height puts it below its line box.
  if (placed.length > 0) dy = Math.min(dy, boxHeight - firstBaseline - (placed.length - 1) * lineAdvance);
  placed.forEach((line, i) => {
    const free = boxWidth - line.width;
    line.x = input.box.x + (align === 'right' ? free : align === 'center' ? free / 2 : 0);
    line.baseline = input.box.y + dy + firstBaseline + i * lineAdvance;
  });
  node.lines = placed;
  node.box.width = boxWidth;
  node.box.height = boxHeight;
  return lostPieces.length ? { node, warnings, lost: lostPieces.join(' … ') } : { node, warnings };
}

/**
 * Shapes a final line and positions its glyphs, in scene units relative to (line.x, baseline), y down. A glyph
 * from a fallback font names it (`font`); the others are the node's font.
 */
function shapeToLine(
  text: string,
  font: LoadedFont,
  chain: readonly LoadedFont[],
  lastResort: LastResort | undefined,
  base: 'ltr' | 'rtl',
  scale: number,
): TextLine {
  const s = shapeLineWithFallback(font, chain, text, base, lastResort);
  const glyphs: PositionedGlyph[] = [];
  let pen = 0;
  s.ids.forEach((id, k) => {
    const g: PositionedGlyph = {
      id,
      x: pen + (s.xOffsets[k] ?? 0) * scale,
      y: -(s.yOffsets[k] ?? 0) * scale,
    };
    const from = s.fonts?.[k];
    if (from && from !== font) g.font = from.key;
    glyphs.push(g);
    pen += (s.advances[k] ?? 0) * scale;
  });
  return { text, x: 0, baseline: 0, width: s.advance * scale, glyphs };
}

function finiteOr(v: number, fallback: number): number {
  return Number.isFinite(v) ? v : fallback;
}

function positiveOr(v: number | undefined, fallback: number): number {
  return v !== undefined && Number.isFinite(v) && v > 0 ? v : fallback;
}

// Unicode's mandatory breaks: CR LF, CR, LF, VT, FF, NEL, LINE SEPARATOR, PARAGRAPH SEPARATOR.
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const LINE_BREAKS = /\r\n?|[\u000B\u000C\u0085\u2028\u2029]/g;

// Controls other than newline and tab draw nothing in the SDK's canvas and have no glyph.
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROLS = /[\u0000-\u0008\u000E-\u001F\u007F-\u0084\u0086-\u009F]/g;

/** Newlines to \n, tabs to one space (what canvas fillText draws for a tab), other controls removed. */
function normaliseText(text: string): string {
  return text.replace(LINE_BREAKS, '\n').replace(/\t/g, ' ').replace(CONTROLS, '');
}

const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\p{Script=Bopomofo}]/u;

function missingWarning(
  where: string,
  fontKey: string,
  withFallbacks: boolean,
  missing: readonly string[],
): string {
  const shown = missing.slice(0, 8);
  const codes = shown.map((c) => 'U+' + (c.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0'));
  const more = missing.length > shown.length ? ` and ${missing.length - shown.length} more` : '';
  const who = withFallbacks ? `font ${fontKey} and the fallback fonts have` : `font ${fontKey} has`;
  let msg =
    `${where}: ${who} no glyph for ${shown.map((c) => `"${c}"`).join(', ')} ` +
    `(${codes.join(' ')})${more}; drawn as empty boxes`;
  if (!withFallbacks && missing.some((c) => CJK.test(c))) {
    msg +=
      '. The bundled DejaVu fonts cover Latin, Greek, Cyrillic, Arabic and Hebrew, not Chinese, Japanese or Korean';
  }
  return msg;
}
