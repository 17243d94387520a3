/**
 * One Scene → one page content stream, drawn as src/render/pdf draws it with pdfkit: the page is flipped to
 * y-down and scaled to scene units once, groups are `q cm … Q`, every painted shape sits in its own graphics
 * state, alpha goes through ExtGState (/ca fill, /CA stroke) with group opacity multiplied in.
 *
 * Text is shown with the Scene's own glyphs and positions (no shaping here): each line is a text object in the
 * font's cached subset, glyphs as 2-byte CIDs in a TJ array whose adjustments put every glyph exactly where
 * layout placed it. ToUnicode maps each glyph to its characters; a line whose glyphs do not hold the line's
 * characters (ligatures, contextual forms) is wrapped in /ActualText with its logical text.
 */
import { assertNever } from '../../../base/assert-never';
import type {
  BarcodeNode,
  Color,
  ImageNode,
  Scene,
  SceneNode,
  Stroke,
  TextNode,
} from '../../../layout/scene';
import { parseColor } from '../../color';
import type { ImageXObject } from './images';
import type { FontSubset } from './font-subset';
import { num, textString } from './pdf-file';
import { ellipseOps, PathSyntaxError, rectOps, roundedRectOps, svgPathOps } from './path-ops';
import { DirectPdfUnsupported } from './unsupported';
import { ptPerSceneUnit } from '../../../units/units';

/** What a page's content refers to by name; the document collects them into one resource dictionary. */
export interface PageResources {
  /** `/F1` for a font key, with its subset. */
  font(key: string): { name: string; subset: FontSubset };
  /** `/Gs1` for an alpha pair (fill, stroke), each 0..1. */
  alpha(fill: number, stroke: number): string;
  /** `/Im1` for an image node of a scene at `sceneDpi` (SVG images are rasterised behind this). */
  image(node: ImageNode, sceneDpi: number): { name: string; image: ImageXObject };
}

/** Page size in points: `px` scenes × 0.75, `dots` scenes × 72 / dpi. */
export function pageSize(scene: Scene): { width: number; height: number; k: number } {
  const k = ptPerSceneUnit(scene.dpi);
  return { width: scene.width * k, height: scene.height * k, k };
}

/** The page's content stream (uncompressed operators). */
export function pageContent(scene: Scene, res: PageResources): string {
  const { height, k } = pageSize(scene);
  const out: string[] = [`1 0 0 -1 0 ${num(height)} cm\n${num(k)} 0 0 ${num(k)} 0 0 cm\n`];
  const w = new ContentWriter(out, res, scene.dpi);
  w.paint(scene.background, undefined, 1, 'nonzero', rectOps(0, 0, scene.width, scene.height));
  for (const node of scene.nodes) w.node(node, 1);
  return out.join('');
}

class ContentWriter {
  constructor(
    private readonly out: string[],
    private readonly res: PageResources,
    private readonly dpi: number,
  ) {}

  node(node: SceneNode, opacity: number): void {
    switch (node.kind) {
      case 'group': {
        const [a, b, c, d, e, f] = node.transform;
        this.out.push(`q\n${num(a)} ${num(b)} ${num(c)} ${num(d)} ${num(e)} ${num(f)} cm\n`);
        const o = opacity * Math.max(0, Math.min(1, node.opacity));
        for (const child of node.children) this.node(child, o);
        this.out.push('Q\n');
        return;
      }
      case 'rect':
        this.paint(
          node.fill,
          node.stroke,
          opacity,
          'nonzero',
          node.cornerRadius && node.cornerRadius > 0
            ? roundedRectOps(node.x, node.y, node.width, node.height, node.cornerRadius)
            : rectOps(node.x, node.y, node.width, node.height),
        );
        return;
      case 'ellipse':
        this.paint(
          node.fill,
          node.stroke,
          opacity,
          'nonzero',
          ellipseOps(node.cx, node.cy, node.rx, node.ry),
        );
        return;
      case 'path':
        this.paint(node.fill, node.stroke, opacity, node.fillRule ?? 'nonzero', pathOps(node.d));
        return;
      case 'text':
        this.text(node, opacity);
        return;
      case 'image':
        this.image(node, opacity);
        return;
      case 'barcode':
        this.barcode(node, opacity);
        return;
      default:
        assertNever(node, 'scene node');
    }
  }

  /** Colours, alpha and line style, then the path, then one painting operator, in its own `q … Q`. */
  paint(
    fill: Color | undefined,
    stroke: Stroke | undefined,
    opacity: number,
    fillRule: 'nonzero' | 'evenodd',
    path: string,
  ): void {
    const hasStroke = stroke !== undefined && stroke.width > 0;
    if (fill === undefined && !hasStroke) return;
    let ops = 'q\n';
    let fillAlpha = 1;
    let strokeAlpha = 1;
    if (fill !== undefined) {
      const c = parseColor(fill);
      ops += `${rgb(c)} rg\n`;
      fillAlpha = c.alpha * opacity;
    }
    if (stroke !== undefined && hasStroke) {
      const c = parseColor(stroke.color);
      ops += `${rgb(c)} RG\n${num(stroke.width)} w\n`;
      strokeAlpha = c.alpha * opacity;
      if (stroke.lineCap) ops += `${CAPS[stroke.lineCap]} J\n`;
      if (stroke.lineJoin) ops += `${JOINS[stroke.lineJoin]} j\n`;
      const dash = stroke.dash?.filter((v) => v > 0) ?? [];
      if (dash.length > 0) ops += `[${dash.map(num).join(' ')}] 0 d\n`;
    }
    if (fillAlpha < 1 || strokeAlpha < 1) ops += `${this.res.alpha(fillAlpha, strokeAlpha)} gs\n`;
    const even = fillRule === 'evenodd' ? '*' : '';
    const op = fill !== undefined && hasStroke ? `B${even}` : fill !== undefined ? `f${even}` : 'S';
    this.out.push(ops, path, `${op}\nQ\n`);
  }

  text(node: TextNode, opacity: number): void {
    const nodeFont = this.res.font(node.font);
    const c = parseColor(node.color);
    const alpha = c.alpha * opacity;
    let ops = `q\n${rgb(c)} rg\n`;
    if (alpha < 1) ops += `${this.res.alpha(alpha, 1)} gs\n`;
    const size = num(node.size);
    const toEm = 1000 / node.size;
    for (const line of node.lines) {
      if (line.text.trim() === '' || line.glyphs.length === 0) continue;
      let spelled = '';
      let text = `BT\n${nodeFont.name} ${size} Tf\n`;
      let tj = '';
      let hex = '';
      let runY = Number.NaN;
      let nextX = 0;
      let current = nodeFont;
      for (const g of line.glyphs) {
        // A fallback font's glyph (issue #23): switch fonts, and start a new run at the glyph's position.
        const f = g.font === undefined ? nodeFont : this.res.font(g.font);
        let switched = false;
        if (f !== current) {
          if (hex) tj += `<${hex}>`;
          if (tj) text += `[${tj}] TJ\n`;
          text += `${f.name} ${size} Tf\n`;
          tj = '';
          hex = '';
          current = f;
          switched = true;
        }
        const subset = f.subset;
        const cid = subset.cidOf.get(g.id);
        if (cid === undefined)
          throw new Error(`pdf-direct: glyph ${g.id} of ${g.font ?? node.font} is not in its subset`);
        spelled += subset.unicode[cid] ?? '';
        const x = line.x + g.x;
        const y = line.baseline + g.y;
        if (y !== runY || switched) {
          // A new run (first glyph, or a glyph raised or lowered by a mark offset): absolute text matrix.
          if (hex) tj += `<${hex}>`;
          if (tj) text += `[${tj}] TJ\n`;
          text += `1 0 0 -1 ${num(x)} ${num(y)} Tm\n`;
          tj = '';
          hex = '';
          runY = y;
        } else {
          // TJ numbers are thousandths of an em, subtracted from the pen position.
          const adjust = Math.round((nextX - x) * toEm * 100) / 100;
          if (adjust !== 0) {
            tj += `<${hex}>${num(adjust)}`;
            hex = '';
          }
        }
        hex += subset.hex[cid] ?? '0000';
        nextX = x + ((subset.widths[cid] ?? 0) * node.size) / 1000;
      }
      if (hex) tj += `<${hex}>`;
      if (tj) text += `[${tj}] TJ\n`;
      text += 'ET\n';
      ops += sameCharacters(spelled, line.text)
        ? text
        : `/Span << /ActualText ${textString(line.text)} >> BDC\n${text}EMC\n`;
    }
    this.out.push(ops, 'Q\n');
  }

  image(node: ImageNode, opacity: number): void {
    const { name } = this.res.image(node, this.dpi);
    let ops = 'q\n';
    if (opacity < 1) ops += `${this.res.alpha(opacity, opacity)} gs\n`;
    // The unit square, scaled to the box and flipped back upright (the page is y-down).
    ops += `${num(node.width)} 0 0 ${num(-node.height)} ${num(node.x)} ${num(node.y + node.height)} cm\n`;
    this.out.push(ops, `${name} Do\nQ\n`);
  }

  barcode(node: BarcodeNode, opacity: number): void {
    const r = node.rects;
    let path = '';
    for (let i = 0; i + 3 < r.length; i += 4) {
      const w = r[i + 2] ?? 0;
      const h = r[i + 3] ?? 0;
      if (w > 0 && h > 0) path += `${num(r[i] ?? 0)} ${num(r[i + 1] ?? 0)} ${num(w)} ${num(h)} re\n`;
    }
    if (path) this.paint(node.color, undefined, opacity, 'nonzero', path);
    if (node.text) this.text(node.text, opacity);
  }
}

/**
 * Whether the glyphs' ToUnicode values hold exactly the line's characters, in any order. Order is left to the
 * reader: right-to-left runs are stored in visual order, and text extractors (poppler) put those back in
 * logical order themselves; an /ActualText there would be reversed a second time. Only glyphs that stand for
 * other characters than their cmap says (ligatures, contextual forms) need /ActualText.
 */
function sameCharacters(spelled: string, text: string): boolean {
  if (spelled === text) return true;
  if (spelled.length !== text.length) return false;
  const sort = (s: string): string => [...s].sort().join('');
  return sort(spelled) === sort(text);
}

/** Path data pdfkit's lenient parser would half-draw: leave that document to pdfkit. */
function pathOps(d: string): string {
  try {
    return svgPathOps(d);
  } catch (e) {
    if (e instanceof PathSyntaxError) throw new DirectPdfUnsupported(`path data (${e.message})`);
    throw e;
  }
}

const CAPS = { butt: 0, round: 1, square: 2 } as const;
const JOINS = { miter: 0, round: 1, bevel: 2 } as const;

const rgb = (c: { r: number; g: number; b: number }): string =>
  `${num(c.r / 255)} ${num(c.g / 255)} ${num(c.b / 255)}`;

/** Every glyph id each font shows in these scenes (to pick the subsets before any content is written). */
export function glyphsByFont(scenes: readonly Scene[]): Map<string, Set<number>> {
  const used = new Map<string, Set<number>>();
  const idsOf = (key: string): Set<number> => {
    let ids = used.get(key);
    if (!ids) {
      ids = new Set();
      used.set(key, ids);
    }
    return ids;
  };
  const text = (node: TextNode): void => {
    const ids = idsOf(node.font);
    for (const line of node.lines) {
      if (line.text.trim() === '') continue;
      for (const g of line.glyphs) (g.font === undefined ? ids : idsOf(g.font)).add(g.id);
    }
  };
  const visit = (node: SceneNode): void => {
    if (node.kind === 'group') node.children.forEach(visit);
    else if (node.kind === 'text') text(node);
    else if (node.kind === 'barcode' && node.text) text(node.text);
  };
  for (const scene of scenes) scene.nodes.forEach(visit);
  return used;
}
