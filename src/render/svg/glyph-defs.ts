/**
 * Glyph outlines for self-contained SVG: each distinct (font, glyph id) becomes one `<path>` in `<defs>`,
 * in font units (y up), and every occurrence is a `<use>` scaled by size / unitsPerEm with y flipped. No
 * `<text>` and no font reference, so a browser and resvg without system fonts draw the same shapes.
 */
import type { FontSet } from '../../layout/fonts';
import { glyphPath } from '../../layout/glyph-paths';
import { esc } from './svg-format';

export class GlyphDefs {
  private readonly ids = new Map<string, string | null>();
  private readonly paths: string[] = [];

  constructor(
    private readonly fonts: FontSet,
    /** Prefix for element ids, so several SVGs can share one HTML document. */
    private readonly prefix: string,
  ) {}

  /** The `id` of the glyph's path in `<defs>`, or undefined for a glyph with no outline (a space). */
  ref(fontKey: string, glyphId: number): string | undefined {
    const key = `${fontKey}\u0000${glyphId}`;
    const known = this.ids.get(key);
    if (known !== undefined) return known ?? undefined;
    const d = glyphPath(this.fonts.get(fontKey), glyphId);
    if (d === '') {
      this.ids.set(key, null);
      return undefined;
    }
    const id = `${this.prefix}g${this.paths.length}`;
    this.ids.set(key, id);
    this.paths.push(`<path id="${esc(id)}" d="${d}"/>`);
    return id;
  }

  /** The fontkit font behind a scene font key (for unitsPerEm). */
  fontOf(fontKey: string): { unitsPerEm: number } {
    return this.fonts.get(fontKey).font;
  }

  /** How many distinct outlines were collected. */
  get size(): number {
    return this.paths.length;
  }

  /** The `<defs>` element, or '' when no glyph was drawn. */
  toSvg(): string {
    return this.paths.length === 0 ? '' : `<defs>${this.paths.join('')}</defs>`;
  }
}
