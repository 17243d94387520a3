/** The cache key of a text node's dots (patch-cache.ts): the painter draws a text it has drawn before in one blit. */
import type { Matrix, TextNode } from '../../layout/scene';
import type { MonoBitmap } from '../bitmap';
import type { Ink } from './spans';

/**
 * Everything a text node's dots depend on: font, size, ink, transform, label size, and each line's text,
 * position and glyphs (ids and offsets, folded into two 32-bit hashes).
 */
export function textKey(node: TextNode, m: Matrix, ink: Ink, label: MonoBitmap): string {
  let h1 = 0x811c9dc5;
  let h2 = 0x1b873593;
  const mix = (v: number): void => {
    const q = Math.round(v * 4096) | 0;
    h1 = Math.imul(h1 ^ q, 0x01000193);
    h2 = Math.imul(h2 ^ q, 0x5bd1e995) ^ (h2 >>> 15);
  };
  let text = '';
  for (const line of node.lines) {
    text += `${line.x},${line.baseline},${line.text}\u0000`;
    for (const g of line.glyphs) {
      // A glyph of a fallback font: its id means another outline.
      if (g.font !== undefined) text += `${g.font}\u0001`;
      mix(g.id);
      mix(g.x);
      mix(g.y);
    }
  }
  return `t|${node.font}|${node.size}|${ink.op}${ink.need}|${m.join(',')}|${label.width}x${label.height}|${h1 >>> 0}|${h2 >>> 0}|${text}`;
}
