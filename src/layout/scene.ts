/**
 * The Scene: absolute drawing primitives for one label copy, produced once by `layout` and drawn by every
 * backend (SVG, PDF, PNG/ZPL through the rasteriser, Konva preview). Backends never measure or wrap text
 * and never encode barcodes: they draw exactly what is here.
 *
 * Units: every length in a Scene is in `scene.unit`:
 *  - `px`   — vector targets (SVG, PDF, preview): CSS px at 96 dpi, `dpi` is 96;
 *  - `dots` — raster targets (PNG, ZPL): printer dots at `dpi`; barcode modules are whole dots there.
 */

/** 2D affine matrix [a, b, c, d, e, f] as in SVG `matrix()`: x' = a x + c y + e, y' = b x + d y + f. */
export type Matrix = readonly [number, number, number, number, number, number];

export const IDENTITY: Matrix = [1, 0, 0, 1, 0, 0];

/** A CSS colour in `#rrggbb` or `#rrggbbaa` form (layout normalises every colour to one of these). */
export type Color = string;

export interface Stroke {
  color: Color;
  width: number;
  lineCap?: 'butt' | 'round' | 'square';
  lineJoin?: 'miter' | 'round' | 'bevel';
  dash?: readonly number[];
}

interface NodeBase {
  /** Index of the markup element this node came from (for click-to-focus in the preview, warnings). */
  element?: number;
}

export interface GroupNode extends NodeBase {
  kind: 'group';
  /** Applied to children (element rotation/scale about its origin). */
  transform: Matrix;
  /** 0..1, applies to the group as a whole. */
  opacity: number;
  children: SceneNode[];
}

export interface RectNode extends NodeBase {
  kind: 'rect';
  x: number;
  y: number;
  width: number;
  height: number;
  cornerRadius?: number;
  fill?: Color;
  stroke?: Stroke;
}

export interface EllipseNode extends NodeBase {
  kind: 'ellipse';
  cx: number;
  cy: number;
  rx: number;
  ry: number;
  fill?: Color;
  stroke?: Stroke;
}

/** Any other shape (line, wedge, ring, arc) as SVG path data in scene units. */
export interface PathNode extends NodeBase {
  kind: 'path';
  d: string;
  fill?: Color;
  /** `evenodd` for rings and arcs built from two contours. */
  fillRule?: 'nonzero' | 'evenodd';
  stroke?: Stroke;
}

/** One positioned glyph of a laid-out line, relative to the line's origin (x, baseline). */
export interface PositionedGlyph {
  /** Glyph id in `font`, or else in the font named by the text node's `font`. */
  id: number;
  /** The font of this glyph when it is not the node's: a fallback font (issue #23), by its FontSet key. */
  font?: string;
  x: number;
  y: number;
}

/** One line of text as layout decided it: nothing left for a backend to wrap, align or clip. */
export interface TextLine {
  /** The characters of the line in logical order (for PDF text extraction, accessibility, tests). */
  text: string;
  /** Left edge of the line's advance box (alignment already applied), in scene units. */
  x: number;
  /** Baseline y, in scene units. */
  baseline: number;
  /** Advance width of the line, in scene units. */
  width: number;
  /** Glyphs in visual (drawing) order, positions in scene units relative to (x, baseline). */
  glyphs: PositionedGlyph[];
}

export interface TextNode extends NodeBase {
  kind: 'text';
  /** Key of a font in the FontSet given to layout and to the backends (e.g. "DejaVuSans-Bold"). */
  font: string;
  /** Font size in scene units (em size). */
  size: number;
  color: Color;
  /** The box the text was laid out in (scene units), for hit-testing and debugging. */
  box: { x: number; y: number; width: number; height: number };
  direction: 'ltr' | 'rtl' | 'ttb';
  lines: TextLine[];
}

export type ImageMime = 'image/png' | 'image/jpeg' | 'image/svg+xml';

export interface ImageNode extends NodeBase {
  kind: 'image';
  x: number;
  y: number;
  width: number;
  height: number;
  mime: ImageMime;
  data: Uint8Array;
  /** How a 1-bit target turns it to dots: photos and logos are dithered, line art may be thresholded. */
  monochrome: 'dither' | 'threshold';
}

/** A barcode: its modules as filled rectangles, already snapped for raster targets. */
export interface BarcodeNode extends NodeBase {
  kind: 'barcode';
  format: string;
  /** The encoded value (after check digit completion, e.g. a 12-digit EAN-13 gets its 13th digit). */
  value: string;
  color: Color;
  /** Dark modules as [x, y, width, height] quadruples, flat, absolute scene units. */
  rects: number[];
  /** Bounding box of the symbol including quiet zones. */
  box: { x: number; y: number; width: number; height: number };
  /** Width of one module in scene units (a whole number of dots on raster targets). */
  moduleWidth: number;
  /** Human-readable text under the symbol, if any. */
  text?: TextNode;
}

export type SceneNode = GroupNode | RectNode | EllipseNode | PathNode | TextNode | ImageNode | BarcodeNode;

export type SceneNodeKind = SceneNode['kind'];

/** RFID payload to encode in ZPL (`^RS` + `^RFW`). Never drawn. */
export interface RfidWrite {
  element: number;
  bank: 'epc' | 'user' | 'tid';
  /** Uppercase hex, validated. */
  hex: string;
  lock: 'none' | 'lock' | 'permalock';
}

export interface Scene {
  unit: 'px' | 'dots';
  /** 96 for `px`, the printer's dpi for `dots`. */
  dpi: number;
  width: number;
  height: number;
  background: Color;
  nodes: SceneNode[];
  rfid: RfidWrite[];
  /** Things the user should know but that do not stop the render (a barcode box too small, a clipped line). */
  warnings: string[];
  /**
   * Text elements whose content did not fit their box, with the text that is not on the label (layoutText's
   * `lost`): the app names the field and what is lost, and asks before printing a cut label.
   */
  cuts?: TextCut[];
}

export interface TextCut {
  /** Index of the markup element. */
  element: number;
  lost: string;
}
