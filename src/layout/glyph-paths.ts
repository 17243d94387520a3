/**
 * Glyph outlines as SVG path data, so the preview (Konva Path) and the vector backends draw text as the
 * same shapes layout measured, with no font lookup or text rendering of their own.
 */
import type * as fontkit from 'fontkit';
import type { FontSet, LoadedFont } from './fonts';
import type { TextLine, TextNode } from './scene';

/** A glyph outline in font units, y up: path commands flattened to [op, ...coordinates] for fast transforms. */
interface Outline {
  d: string;
  ops: ReadonlyArray<{ op: string; args: readonly number[] }>;
}

const OPS: Record<fontkit.PathCommand['command'], string> = {
  moveTo: 'M',
  lineTo: 'L',
  quadraticCurveTo: 'Q',
  bezierCurveTo: 'C',
  closePath: 'Z',
};

// Bounded by the fonts' glyph counts (DejaVu Sans: ~6000), and usually a few hundred glyphs.
const outlines = new WeakMap<fontkit.Font, Map<number, Outline>>();

function outlineOf(font: fontkit.Font, glyphId: number): Outline {
  let perFont = outlines.get(font);
  if (!perFont) outlines.set(font, (perFont = new Map()));
  let o = perFont.get(glyphId);
  if (!o) {
    const ops = font
      .getGlyph(glyphId)
      .path.commands.map((c) => ({ op: OPS[c.command], args: c.args.slice() }));
    const d: string[] = [];
    appendPath(
      d,
      ops,
      (x) => x,
      (y) => y,
    );
    o = { d: d.join(''), ops };
    perFont.set(glyphId, o);
  }
  return o;
}

/** A number with at most 2 decimals and no "-0". */
function num(n: number): string {
  const r = Math.round(n * 100) / 100;
  return Object.is(r, -0) ? '0' : String(r);
}

/** Appends path data; a separator only where the next number does not start with "-" (SVG grammar allows it). */
function appendPath(
  out: string[],
  ops: Outline['ops'],
  tx: (x: number) => number,
  ty: (y: number) => number,
): void {
  for (const { op, args } of ops) {
    out.push(op);
    for (let i = 0; i + 1 < args.length; i += 2) {
      const x = num(tx(args[i] ?? 0));
      const y = num(ty(args[i + 1] ?? 0));
      out.push(i === 0 || x.startsWith('-') ? x : ' ' + x, y.startsWith('-') ? y : ' ' + y);
    }
  }
}

/**
 * SVG path data of one glyph in FONT units, y up (as fontkit gives it): draw it under
 * `scale(size / unitsPerEm, -size / unitsPerEm)`. Empty for glyphs without an outline (spaces).
 * Cached per font and glyph.
 */
export function glyphPath(font: LoadedFont, glyphId: number): string {
  return outlineOf(font.font, glyphId).d;
}

/**
 * SVG path data of a whole laid-out line in SCENE units, y down: every glyph outline scaled by
 * size / unitsPerEm and moved to its position, numbers rounded to 0.01 scene unit. Fill it with the node's
 * colour (nonzero rule). `fonts` must hold the node's font and its glyphs' fallback fonts.
 */
export function linePathData(node: TextNode, line: TextLine, fonts: FontSet): string {
  const nodeFont = fonts.get(node.font).font;
  const out: string[] = [];
  for (const g of line.glyphs) {
    // A fallback font's glyph (issue #23) is scaled by its own units per em.
    const font = g.font === undefined ? nodeFont : fonts.get(g.font).font;
    const scale = node.size / font.unitsPerEm;
    const ox = line.x + g.x;
    const oy = line.baseline + g.y;
    appendPath(
      out,
      outlineOf(font, g.id).ops,
      (x) => ox + x * scale,
      (y) => oy - y * scale,
    );
  }
  return out.join('');
}
