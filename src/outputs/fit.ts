/**
 * Does this label fit this printer, and what to do when it does not (#42 item 1). The one place that decides,
 * used by the app (the printer view, the question before Print), the CLI (`labeldesk print`, `jobs add`,
 * `batch`: refused unless `--fit` or `--allow-cut`) and `labeldesk serve`'s relay (a warning header).
 *
 * A label is wider than the printer when its width in dots at the printer's dpi passes the print width (the
 * profile's `printWidthDots`: `^PW`'s cap); longer when a printer that reports its label length (fixed media)
 * has shorter labels loaded. What then:
 *   `cut`    the label as it is; the head burns the first `widthDots` columns (today's render-zpl behaviour);
 *   `fit`    the label laid out again at a lower dpi, aspect kept, so it fits: every dot is still a printer dot
 *            and barcodes snap to whole dots (a scaled bitmap would break their bars);
 *   `rotate` the bitmap turned 90° clockwise, when turned it fits.
 */
import type { Markup } from '../model/schema';
import { createMonoBitmap, cropMonoBitmap, getDot, setDot, type MonoBitmap } from '../render/bitmap';
import { dots, dotsToMm, stageToDots } from '../units/units';

/** What a printer can print: its dpi, its head's width in dots and, on fixed media it reports, the label length. */
export interface PrintArea {
  dpi: number;
  widthDots: number;
  /** The loaded labels' length in dots, when the printer reports it (fixed media); undefined: no limit known. */
  lengthDots?: number;
}

/** A label's size in dots at the area's dpi. */
export interface LabelDots {
  widthDots: number;
  heightDots: number;
}

export const OVERSIZE_CHOICES = ['cut', 'fit', 'rotate'] as const;
export type Oversize = (typeof OVERSIZE_CHOICES)[number];

export interface FitCheck {
  label: LabelDots;
  area: PrintArea;
  tooWide: boolean;
  tooLong: boolean;
  fits: boolean;
  /** Turned 90°, the label fits. */
  rotates: boolean;
  /** The dpi at which the label fits the area, aspect kept (the area's own dpi when it fits already). */
  fitDpi: number;
}

/** The label's size in whole dots at `dpi`, as layout makes it (4 in at 203 dpi: 812). */
export function labelDots(markup: Pick<Markup, 'stage'>, dpi: number): LabelDots {
  const { width, height, unit } = markup.stage;
  return { widthDots: stageToDots(width, unit, dpi), heightDots: stageToDots(height, unit, dpi) };
}

const within = (size: number, limit: number | undefined) => limit === undefined || size <= limit;

/** Whether `label` (in dots at `area.dpi`) fits `area`, and how it could. */
export function checkFit(label: LabelDots, area: PrintArea): FitCheck {
  const tooWide = label.widthDots > area.widthDots;
  const tooLong = !within(label.heightDots, area.lengthDots);
  const fits = !tooWide && !tooLong;
  const rotates = !fits && label.heightDots <= area.widthDots && within(label.widthDots, area.lengthDots);
  let fitDpi = area.dpi;
  if (!fits) {
    const scale = Math.min(
      area.widthDots / label.widthDots,
      area.lengthDots === undefined ? 1 : area.lengthDots / label.heightDots,
    );
    fitDpi = Math.max(1, Math.floor(area.dpi * scale));
    // Rounding can leave a label one dot over: step down until it is within.
    while (
      fitDpi > 1 &&
      (Math.round((label.widthDots * fitDpi) / area.dpi) > area.widthDots ||
        !within(Math.round((label.heightDots * fitDpi) / area.dpi), area.lengthDots))
    )
      fitDpi--;
  }
  return { label, area, tooWide, tooLong, fits, rotates, fitDpi };
}

/** The largest of `markups` against `area` (labels of one print are usually all one size). */
export function checkMarkupsFit(markups: readonly Pick<Markup, 'stage'>[], area: PrintArea): FitCheck {
  const label = markups.reduce<LabelDots>(
    (max, m) => {
      const size = labelDots(m, area.dpi);
      return {
        widthDots: Math.max(max.widthDots, size.widthDots),
        heightDots: Math.max(max.heightDots, size.heightDots),
      };
    },
    { widthDots: 0, heightDots: 0 },
  );
  return checkFit(label, area);
}

const mmOf = (n: number, dpi: number) => Math.round(dotsToMm(dots(n), dpi));

/**
 * The problem in words, one sentence without its full stop, naming both sizes in mm and dots:
 * "packing-slip-a4 is 210 mm (1678 dots) wide but the printer prints 104 mm (832 dots) at 203 dpi".
 * Empty when the label fits.
 */
export function fitProblem(name: string, check: FitCheck): string {
  const { label, area } = check;
  const parts: string[] = [];
  if (check.tooWide) {
    parts.push(
      `${name} is ${mmOf(label.widthDots, area.dpi)} mm (${label.widthDots} dots) wide but the printer prints ${mmOf(area.widthDots, area.dpi)} mm (${area.widthDots} dots) at ${area.dpi} dpi`,
    );
  }
  if (check.tooLong && area.lengthDots !== undefined) {
    const subject = check.tooWide ? 'it' : name;
    parts.push(
      `${subject} is ${mmOf(label.heightDots, area.dpi)} mm (${label.heightDots} dots) long but the loaded labels are ${mmOf(area.lengthDots, area.dpi)} mm (${area.lengthDots} dots)${check.tooWide ? '' : ` at ${area.dpi} dpi`}`,
    );
  }
  return parts.join(', and ');
}

/** What is lost when the label prints cut, in words: "the right 846 dots (the last 106 mm)". */
export function cutSummary(check: FitCheck): string {
  const { label, area } = check;
  const parts: string[] = [];
  if (check.tooWide) {
    const lost = label.widthDots - area.widthDots;
    parts.push(`the right ${mmOf(lost, area.dpi)} mm (${lost} dots)`);
  }
  if (check.tooLong && area.lengthDots !== undefined) {
    const lost = label.heightDots - area.lengthDots;
    parts.push(`the bottom ${mmOf(lost, area.dpi)} mm (${lost} dots)`);
  }
  return parts.join(' and ');
}

/** The dpi to lay a print out at for `choice` (the fit's lower dpi for `fit`, else the printer's own). */
export function layoutDpiFor(check: FitCheck, choice: Oversize): number {
  return choice === 'fit' && !check.fits ? check.fitDpi : check.area.dpi;
}

/** The bitmap as the printer gets it for `choice`: turned 90° clockwise for `rotate` when that fits. */
export function orientFor(bitmap: MonoBitmap, check: FitCheck, choice: Oversize): MonoBitmap {
  return choice === 'rotate' && !check.fits && check.rotates ? rotateClockwise(bitmap) : bitmap;
}

/** The bitmap turned 90° clockwise: its first row becomes its last column. */
export function rotateClockwise(bitmap: MonoBitmap): MonoBitmap {
  const out = createMonoBitmap(bitmap.height, bitmap.width);
  for (let y = 0; y < bitmap.height; y++) {
    for (let x = 0; x < bitmap.width; x++) {
      if (getDot(bitmap, x, y)) setDot(out, bitmap.height - 1 - y, x, true);
    }
  }
  return out;
}

/** What a printer burns of a label printed cut on `area`: its first `widthDots` columns (and loaded length). */
export function burnedBitmap(bitmap: MonoBitmap, area: PrintArea): MonoBitmap {
  return cropMonoBitmap(bitmap, area.widthDots, area.lengthDots ?? bitmap.height);
}

/**
 * What prints for a check and a choice: `undefined` when the label fits (nothing to choose) or when it does not
 * and nobody chose yet (the app asks, the CLI refuses); `rotate` falls back to nothing when turning does not
 * make it fit (the app offers it only then).
 */
export function oversizeFor(check: FitCheck, chosen: Oversize | undefined): Oversize | undefined {
  if (check.fits || chosen === undefined) return undefined;
  if (chosen === 'rotate' && !check.rotates) return undefined;
  return chosen;
}

/** What printing it `choice` does to a label that does not fit, as a clause: "printed cut, the right … not printed". */
export function oversizeOutcome(check: FitCheck, choice: Oversize): string {
  switch (choice) {
    case 'cut':
      return `printed cut, ${cutSummary(check)} not printed`;
    case 'fit':
      return `scaled to fit (${Math.round((check.fitDpi / check.area.dpi) * 100)} %)`;
    case 'rotate':
      return 'turned 90° to fit';
  }
}

/** One clause for people on what was done to a label that does not fit: printed cut, scaled, turned. */
export function oversizeNote(name: string, check: FitCheck, choice: Oversize): string {
  const how =
    choice === 'fit'
      ? `laid out at ${check.fitDpi} dpi on the ${check.area.dpi} dpi printer (${Math.round((check.fitDpi / check.area.dpi) * 100)} %)`
      : '';
  return `${name} ${oversizeOutcome(check, choice)}${how ? `: ${how}` : ''}`;
}
