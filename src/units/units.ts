/**
 * Branded length units. Markup positions are px at 96 dpi (the hosted service's Konva convention),
 * PDF works in points (1/72 in), printers in dots at their own dpi. Every conversion lives here:
 * most label bugs in this field are unit bugs.
 */
declare const brand: unique symbol;
type Brand<T, B extends string> = T & { readonly [brand]: B };

/** CSS/Konva pixels: 1/96 inch. */
export type Px96 = Brand<number, 'Px96'>;
/** PDF points: 1/72 inch. */
export type Pt = Brand<number, 'Pt'>;
/** Printer dots at some dpi. */
export type Dots = Brand<number, 'Dots'>;
export type Inch = Brand<number, 'Inch'>;
export type Mm = Brand<number, 'Mm'>;

export type StageUnit = 'in' | 'cm' | 'mm' | 'px';

export const PX_PER_INCH = 96;
export const PT_PER_INCH = 72;
export const MM_PER_INCH = 25.4;

export const px = (n: number): Px96 => n as Px96;
export const pt = (n: number): Pt => n as Pt;
export const dots = (n: number): Dots => n as Dots;
export const inch = (n: number): Inch => n as Inch;
export const mm = (n: number): Mm => n as Mm;

/** A stage length in its own unit, to inches (reference/markup.md: in = 1, cm = /2.54, mm = /25.4, px = /96). */
export function stageToInches(value: number, unit: StageUnit): Inch {
  switch (unit) {
    case 'in':
      return inch(value);
    case 'cm':
      return inch(value / 2.54);
    case 'mm':
      return inch(value / MM_PER_INCH);
    case 'px':
      return inch(value / PX_PER_INCH);
  }
}

export const inchesToPx = (v: Inch): Px96 => px(v * PX_PER_INCH);
export const pxToInches = (v: Px96): Inch => inch(v / PX_PER_INCH);
export const pxToPt = (v: Px96): Pt => pt((v * PT_PER_INCH) / PX_PER_INCH);
export const inchesToPt = (v: Inch): Pt => pt(v * PT_PER_INCH);
export const mmToInches = (v: Mm): Inch => inch(v / MM_PER_INCH);

/** px (1/96 in) to dots at `dpi`, unrounded. */
export const pxToDots = (v: Px96, dpi: number): Dots => dots((v * dpi) / PX_PER_INCH);
/** Dots at `dpi` to px (1/96 in), unrounded. */
export const dotsToPx = (v: Dots, dpi: number): Px96 => px((v * PX_PER_INCH) / dpi);
/**
 * A px (1/96 in) length or position on the dot grid of a `dpi` printer: the nearest whole number of dots, back
 * in px (the template designer's snapping: 1 px at 203 dpi is 2.11 dots, so 1 px becomes 2 dots = 0.946 px).
 */
export const snapPxToDots = (v: Px96, dpi: number): Px96 => dotsToPx(dots(Math.round(pxToDots(v, dpi))), dpi);
/** A stage length in its own unit, in px (1/96 in): 4 in is 384 px, 210 mm 793.7 px. */
export const stageToPx = (value: number, unit: StageUnit): Px96 => inchesToPx(stageToInches(value, unit));
/** Inches as a stage length in `unit` (the inverse of stageToInches): 4 in is 101.6 mm. */
export function inchesToStage(value: Inch, unit: StageUnit): number {
  switch (unit) {
    case 'in':
      return value;
    case 'cm':
      return value * 2.54;
    case 'mm':
      return value * MM_PER_INCH;
    case 'px':
      return value * PX_PER_INCH;
  }
}

/**
 * A Scene's lengths are in its own unit: px (1/96 in: SVG, the preview) or dots at the target's dpi, and the
 * Scene records the dpi its unit counts (96 for px). These factors are the one way into and out of it.
 */
/** Scene units per markup px (1/96 in): 1 for a px scene, 203/96 for a 203-dpi one. */
export const sceneUnitsPerPx = (sceneDpi: number): number => sceneDpi / PX_PER_INCH;
/** Markup px (1/96 in) per scene unit: how the preview draws a dots scene at its true size. */
export const pxPerSceneUnit = (sceneDpi: number): number => PX_PER_INCH / sceneDpi;
/** PDF points per scene unit: 0.75 for a px scene, 72/dpi for dots. */
export const ptPerSceneUnit = (sceneDpi: number): number => PT_PER_INCH / sceneDpi;
/** A length in points, in scene units (6 pt at 203 dpi ≈ 16.9 dots). */
export const ptToSceneUnits = (points: number, sceneDpi: number): number => (points / PT_PER_INCH) * sceneDpi;
/** A length in inches, in scene units, unrounded. */
export const inchesToSceneUnits = (v: Inch, sceneDpi: number): number => v * sceneDpi;
/** A printer's dots per mm (~HI), in dots per inch, unrounded: 8 → 203.2. */
export const dotsPerMmToDpi = (dotsPerMm: number): number => dotsPerMm * MM_PER_INCH;

/**
 * A stage length to whole printer dots. Rounded to the nearest dot: 4 in at 203 dpi is 812 dots, 6 in 1218.
 */
export function stageToDots(value: number, unit: StageUnit, dpi: number): Dots {
  return dots(Math.round(stageToInches(value, unit) * dpi));
}

/** Printer dots at `dpi` in millimetres, unrounded: 832 dots at 203 dpi → 104.1 mm. */
export const dotsToMm = (v: Dots, dpi: number): Mm => mm((v / dpi) * MM_PER_INCH);
