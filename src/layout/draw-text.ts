/** A text element → its TextNode (layout/text.ts breaks and shapes the lines); cut text is recorded. */
import type { MarkupElementOf } from '../model/elements';
import { normaliseStyle } from './fonts';
import type { TextNode } from './scene';
import { layoutText } from './text';
import { BLACK, color, type Ctx } from './element-context';

export function drawText(
  el: MarkupElementOf<'text'>,
  index: number,
  at: { x: number; y: number },
  ctx: Ctx,
): TextNode | undefined {
  if (!el.text) return undefined;
  const font = ctx.opts.fonts.resolve(el.font.family, normaliseStyle(el.font.style));
  // The hosted SDK's default width is the rest of the stage.
  const widthPx = el.width ?? Math.max(0, ctx.stageWidthPx - el.x);
  const { node, warnings, lost } = layoutText({
    text: el.text,
    box: {
      x: at.x,
      y: at.y,
      width: widthPx * ctx.k,
      ...(el.height !== undefined ? { height: el.height * ctx.k } : {}),
    },
    font,
    fallbacks: ctx.opts.fonts.fallbacks(font),
    lastResort: (g) => ctx.opts.fonts.lastResort(g),
    size: el.font.size * ctx.k,
    color: color(el.font.color) ?? color(el.fill) ?? BLACK,
    lineHeight: el.lineHeight,
    align: el.align,
    verticalAlign: el.verticalAlign,
    direction: el.direction,
    wrap: el.wrap,
    element: index,
  });
  ctx.warnings.push(...warnings);
  if (lost) ctx.cuts.push({ element: index, lost });
  return node.lines.length ? node : undefined;
}
