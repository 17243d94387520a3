/**
 * The template designer's document (issue #22): a Template as it will be saved, plus what the designer needs
 * around it — the dpi of the printer whose dot grid it snaps to, and the unit sizes are shown and typed in.
 * Pure data: every edit is a function from one document to the next (operations.ts, fields.ts), so the
 * store's history is a list of documents and Konva stays a view.
 */
import { SCHEMA_VERSION, type Template } from '../../../src/model/schema';
import { inch, inchesToStage, stageToInches, type StageUnit } from '../../../src/units/units';

/** The dot grids a designer can target (the printers LabelDesk drives: 8, 12 and 24 dots/mm). */
export const DESIGN_DPIS = [203, 300, 600] as const;
export type DesignDpi = (typeof DESIGN_DPIS)[number];

/** The units sizes are typed in. */
export const DESIGN_UNITS = ['in', 'mm'] as const;
export type DesignUnit = (typeof DESIGN_UNITS)[number];

export interface DesignDocument {
  template: Template;
  /** The target printer's dpi: positions and sizes snap to its dots. */
  dpi: DesignDpi;
  /** The unit the stage size is shown and typed in (element positions stay px at 96 dpi, as in every template). */
  unit: DesignUnit;
}

/** A label size offered by "New template"; `custom` takes the size typed. */
export interface LabelPreset {
  id: string;
  title: string;
  width: number;
  height: number;
  unit: DesignUnit;
}

export const LABEL_PRESETS: readonly LabelPreset[] = [
  { id: '4x6', title: '4 × 6 in (shipping)', width: 4, height: 6, unit: 'in' },
  { id: '4x3', title: '4 × 3 in', width: 4, height: 3, unit: 'in' },
  { id: '4x2', title: '4 × 2 in', width: 4, height: 2, unit: 'in' },
  { id: '3x2', title: '3 × 2 in', width: 3, height: 2, unit: 'in' },
  { id: '2x1', title: '2 × 1 in (product)', width: 2, height: 1, unit: 'in' },
  { id: '2.25x1.25', title: '2.25 × 1.25 in', width: 2.25, height: 1.25, unit: 'in' },
  { id: 'a4', title: 'A4 (210 × 297 mm)', width: 210, height: 297, unit: 'mm' },
];

/**
 * A size in `from` units as `to` units, as a person would type it: to the µm in mm (4 in → 101.6 mm, not
 * 152.39999999999998 for 6 in), to 0.0001 in in inches (A4's 210 mm → 8.2677 in).
 */
export function convertSize(value: number, from: DesignUnit, to: DesignUnit): number {
  if (from === to) return value;
  const exact = from === 'in' ? inchesToStage(inch(value), 'mm') : stageToInches(value, 'mm');
  const step = to === 'mm' ? 1000 : 10_000;
  return Math.round(exact * step) / step;
}

export interface NewDesign {
  name: string;
  /** A preset's id, or a size of its own. */
  size: string | { width: number; height: number };
  unit: DesignUnit;
  dpi: DesignDpi;
}

/** A blank template of the size asked, in the unit asked (an inch preset in mm: 101.6 × 152.4 mm). */
export function newDesign({ name, size, unit, dpi }: NewDesign): DesignDocument {
  let width: number;
  let height: number;
  if (typeof size === 'string') {
    const preset = LABEL_PRESETS.find((p) => p.id === size);
    if (!preset) throw new Error(`no label preset "${size}"`);
    width = convertSize(preset.width, preset.unit, unit);
    height = convertSize(preset.height, preset.unit, unit);
  } else {
    ({ width, height } = size);
  }
  return {
    template: {
      schemaVersion: SCHEMA_VERSION,
      name,
      stage: { width, height, unit, background: '#ffffff' },
      fields: [],
      elements: [],
    },
    dpi,
    unit,
  };
}

/** The unit a template opened in the designer is shown in: its own when in or mm (cm → mm, px → in). */
export function designUnitOf(unit: StageUnit): DesignUnit {
  return unit === 'mm' || unit === 'cm' ? 'mm' : 'in';
}

/** A template opened for editing (a user template, or a copy of a bundled or captured one). */
export function openDesign(template: Template, dpi: DesignDpi): DesignDocument {
  return { template, dpi, unit: designUnitOf(template.stage.unit) };
}
