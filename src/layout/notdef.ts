/** Whether a scene draws a character no loaded font has (issue #23), for callers that can do better elsewhere. */
import type { SceneNode, TextNode } from './scene';

function textDrawsNotdef(t: TextNode): boolean {
  return t.lines.some((l) => l.glyphs.some((g) => g.id === 0));
}

/**
 * Whether any text of `nodes` (groups and barcodes' human-readable text included) draws glyph 0, `.notdef`: an
 * empty box where a character should be. The page's live preview, which loads only DejaVu, hands such a label
 * to main, which has the fallback fonts.
 */
export function drawsNotdef(nodes: readonly SceneNode[]): boolean {
  return nodes.some((n) =>
    n.kind === 'group'
      ? drawsNotdef(n.children)
      : n.kind === 'text'
        ? textDrawsNotdef(n)
        : n.kind === 'barcode' && n.text !== undefined && textDrawsNotdef(n.text),
  );
}
