/**
 * Element schemas with the hosted service's Konva attribute names (reference/markup.md). Positions and sizes
 * are px at 96 dpi whatever the stage unit. The same shapes serve twice:
 *  - in our Template files, strict (a misspelt attribute is an error with its path);
 *  - in Markup from the hosted API, loose (spec §2.3: "objects may carry additional properties").
 */
import { z } from 'zod';
import { isColor } from './color';
import { BARCODE_FORMATS, ITF_BEARERS, type BarcodeFormat } from './barcode/formats';

/** Generous bounds that keep a typo (or a hostile payload) from asking for a kilometre-wide label. */
const MAX_COORD = 100_000;

const coord = z.number().finite().min(-MAX_COORD).max(MAX_COORD);
const length = z.number().finite().min(0).max(MAX_COORD);
const color = z.string().max(32).refine(isColor, { message: 'expected a colour like "#000000" or "black"' });

export { BARCODE_FORMATS, type BarcodeFormat };

export const ELEMENT_TYPES = [
  'text',
  'image',
  'barcode',
  'line',
  'rect',
  'circle',
  'ellipse',
  'wedge',
  'ring',
  'arc',
  'rfid',
] as const;
export type ElementType = (typeof ELEMENT_TYPES)[number];

/** Attributes every element may carry. */
const common = {
  /** Optional stable id (the preview maps clicks to fields through it). */
  id: z.string().max(200).optional(),
  name: z.string().max(200).optional(),
  x: coord.default(0),
  y: coord.default(0),
  width: length.optional(),
  height: length.optional(),
  /** Degrees, clockwise, about (x, y). */
  rotation: z.number().finite().default(0),
  scaleX: z.number().finite().min(-1000).max(1000).default(1),
  scaleY: z.number().finite().min(-1000).max(1000).default(1),
  opacity: z.number().min(0).max(1).default(1),
  fill: color.optional(),
  stroke: color.optional(),
  strokeWidth: length.optional(),
  visible: z.boolean().default(true),
  /**
   * Not drawn when every field it refers to resolves to an empty value (BarTender's "print only if the data
   * source is not empty"): `WEIGHT: {weight} kg` disappears instead of printing `WEIGHT:  kg`.
   */
  hideIfEmpty: z.boolean().optional(),
};

const fontShape = {
  /** px at 96 dpi. */
  size: z.number().finite().min(1).max(2000).default(14),
  family: z.string().max(200).default('Arial'),
  style: z.enum(['normal', 'bold', 'italic', 'bold italic']).default('normal'),
  color: color.optional(),
};

/** The longest value an element attribute may hold (a text, a barcode value, an image's data: URL). */
export const MAX_VALUE_LENGTH = 100_000;

/** A string that may contain field references in a template. Values are capped so markup stays sane. */
const value = z.string().max(MAX_VALUE_LENGTH);

const shapes = {
  text: {
    ...common,
    type: z.literal('text'),
    text: value.default(''),
    font: fontShape,
    align: z.enum(['left', 'center', 'right']).default('left'),
    verticalAlign: z.enum(['top', 'middle', 'bottom']).default('top'),
    direction: z.enum(['ltr', 'rtl', 'ttb']).default('ltr'),
    /** Line height as a multiple of the font size (the hosted SDK uses 1.2). */
    lineHeight: z.number().min(0.5).max(5).default(1.2),
    wrap: z.enum(['word', 'char', 'none']).default('word'),
  },
  image: {
    ...common,
    type: z.literal('image'),
    /** http(s) URL, data: URL, or a file path (relative paths resolve against the template's folder). */
    url: value,
    fit: z.enum(['fill', 'contain']).default('fill'),
    /** How 1-bit printers get the image: dithered (photos, logos) or thresholded (line art). */
    monochrome: z.enum(['dither', 'threshold']).default('dither'),
  },
  barcode: {
    ...common,
    type: z.literal('barcode'),
    format: z.enum(BARCODE_FORMATS, {
      error: (issue) =>
        `unknown barcode format ${JSON.stringify(issue.input)} (expected one of ${BARCODE_FORMATS.join(', ')})`,
    }),
    text: value,
    color: color.optional(),
    /** A pre-rendered image the hosted service may send; we always encode from `text` instead. */
    url: value.optional(),
    /** Human-readable text under linear symbols; default depends on the symbology (on for EAN/UPC). */
    humanReadable: z.boolean().optional(),
    /** Error correction: QR L|M|Q|H, PDF417 0..8 as a string. */
    eclevel: z.string().max(2).optional(),
    /** ITF-14 bearer bars: frame (default; GS1 asks for it on corrugated), top-bottom (enough on labels), none. */
    bearer: z.enum(ITF_BEARERS).optional(),
    /**
     * The X-dimension (narrowest bar, or a 2D symbol's module) in px at 96 dpi, as x and width are; on a printer
     * rounded to whole dots (at least 1). Absent: the largest module the box holds. A fixed X keeps a symbol's
     * size — and, for GS1 logistic labels, its X and bar height in the spec's range — whatever the value's length.
     */
    moduleWidth: z.number().finite().positive().max(100).optional(),
  },
  line: {
    ...common,
    type: z.literal('line'),
    /** [x1, y1, x2, y2, ...] relative to (x, y). */
    points: z
      .array(coord)
      .min(4)
      .max(10_000)
      .refine((p) => p.length % 2 === 0, { message: 'expected pairs of numbers [x1, y1, x2, y2, ...]' }),
    closed: z.boolean().default(false),
    lineCap: z.enum(['butt', 'round', 'square']).default('butt'),
    dash: z.array(length).max(16).optional(),
  },
  rect: {
    ...common,
    type: z.literal('rect'),
    cornerRadius: length.default(0),
  },
  circle: { ...common, type: z.literal('circle'), radius: length },
  ellipse: { ...common, type: z.literal('ellipse'), radiusX: length, radiusY: length },
  wedge: {
    ...common,
    type: z.literal('wedge'),
    radius: length,
    /** Degrees, clockwise from 0. */
    angle: z.number().finite().min(0).max(360),
  },
  ring: { ...common, type: z.literal('ring'), innerRadius: length, outerRadius: length },
  arc: {
    ...common,
    type: z.literal('arc'),
    innerRadius: length,
    outerRadius: length,
    angle: z.number().finite().min(0).max(360),
  },
  rfid: {
    ...common,
    type: z.literal('rfid'),
    /** Hex value to write (96-bit EPC: 24 hex digits), or a field reference in a template. */
    epc: value,
    bank: z.enum(['epc', 'user']).default('epc'),
    /** Size of the EPC in bits; the hex must have exactly bits/4 digits. */
    bits: z.union([z.literal(96), z.literal(128), z.literal(256)]).default(96),
    lock: z.enum(['none', 'lock', 'permalock']).default('none'),
  },
} as const;

function elementUnion<M extends 'strict' | 'loose'>(mode: M) {
  const obj = mode === 'strict' ? z.strictObject : z.looseObject;
  const fontObj = mode === 'strict' ? z.strictObject(fontShape) : z.looseObject(fontShape);
  return z.discriminatedUnion(
    'type',
    [
      obj({ ...shapes.text, font: fontObj.prefault({}) }),
      obj(shapes.image),
      obj(shapes.barcode),
      obj(shapes.line),
      obj(shapes.rect),
      obj(shapes.circle),
      obj(shapes.ellipse),
      obj(shapes.wedge),
      obj(shapes.ring),
      obj(shapes.arc),
      obj(shapes.rfid),
    ],
    {
      error: (issue) =>
        issue.code === 'invalid_union'
          ? `unknown element type ${JSON.stringify((issue.input as { type?: unknown } | undefined)?.type)} (expected one of ${ELEMENT_TYPES.join(', ')})`
          : undefined,
    },
  );
}

export const TemplateElementSchema = elementUnion('strict');
export const MarkupElementSchema = elementUnion('loose');

export type Element = z.infer<typeof TemplateElementSchema>;
export type ElementInput = z.input<typeof TemplateElementSchema>;
export type MarkupElement = z.infer<typeof MarkupElementSchema>;
export type ElementOf<T extends ElementType> = Extract<Element, { type: T }>;
export type MarkupElementOf<T extends ElementType> = Extract<MarkupElement, { type: T }>;

/** The attributes of an element kind whose string values may carry field references. */
export const REFERENCE_ATTRIBUTES: Partial<Record<ElementType, readonly string[]>> = {
  text: ['text'],
  barcode: ['text'],
  image: ['url'],
  rfid: ['epc'],
};

/**
 * The attributes of an element of `type` (any value: read before validation too) whose string values may carry
 * field references; none for an unknown type — "constructor" or "__proto__" included, not Object's own members.
 */
export function referenceAttributes(type: unknown): readonly string[] {
  return typeof type === 'string' && Object.hasOwn(REFERENCE_ATTRIBUTES, type)
    ? (REFERENCE_ATTRIBUTES[type as ElementType] ?? [])
    : [];
}
