/**
 * The resolution a ZPL file made elsewhere was written for (issue #33 item 4), so a file made for 203 dpi sent to
 * a 300-dpi printer can be re-rasterised at 300 and keep its size. Conservative: a dpi is claimed only when the
 * file says it or one reading of it is unambiguous, and the answer says how it was known. Pure (no `node:*`).
 *
 * - `^MUa,b,c` (ZPL II guide, "Set Units of Measurement"): `a` units D (dots, default), I (inches), M (mm);
 *   `b` the format base in dpi (150, 200, 300), `c` the dpi to convert to (300, 600) — both must be given or the
 *   command is ignored; `^MUd,200,200` and the like cancel a conversion. The base is the file's dpi. When the
 *   printer is of `c` dpi and `c` is a whole multiple of `b`, the printer converts the file itself. Sizes in
 *   inches or millimetres are the printer's to convert: no dpi to claim.
 * - Else `^PW` (and `^LL` when the printer's label length is known) against the printer's labels: the file's
 *   width read at each standard resolution (152, 203, 300, 600 dpi); when exactly one of them is within 5 % of
 *   the printer's print width (its labels' width), that is the file's dpi. The standard resolutions are at least
 *   a third apart, so two can never both match.
 */
import { DEFAULT_ZPL_BUDGETS } from './read/budgets';
import type { ZplWarning } from './read/errors';
import { parseZpl, toByteString, type ZplCommand } from './read/parse';

/** What the file's dpi is, as far as it can be known. */
export type ZplFileDpi =
  /** The file's sizes are dots at `dpi`; `how` says what showed it, for one sentence. */
  | { kind: 'known'; dpi: number; how: string }
  /** The printer converts the file's sizes itself (^MU): send it as it is. */
  | { kind: 'printer-converts'; how: string }
  /** Nothing tells: send it as it is, and claim nothing. */
  | { kind: 'unknown' };

export interface ZplPrinterGeometry {
  /** The printer's resolution. */
  dpi: number;
  /** Its print width in dots (the profile's): the width of the labels it prints. */
  printWidthDots: number;
  /** The loaded labels' length in dots, when known. */
  labelLengthDots?: number | undefined;
}

export interface ZplFileDpiResult {
  dpi: ZplFileDpi;
  /** ^MU commands a printer ignores (garbage or values the guide does not accept), named. */
  warnings: ZplWarning[];
}

/** The resolutions Zebra printers come in, as the nominal dpi of 6, 8, 12 and 24 dots per mm. */
const STANDARD_DPIS = [152, 203, 300, 600] as const;
/** How far a file's width (or length) may be from the printer's labels' and still be read as made for them. */
const MATCH_TOLERANCE = 0.05;

/** `^MU`'s `b` and `c` values (nominal dpi) → dpi: 200 is 8 dots/mm, 203 dpi. */
const MU_DPI: Record<string, number> = { '150': 152, '200': 203, '300': 300, '600': 600 };

/** Two resolutions of the same dots per mm (203 and 200 are both 8 dots/mm). */
export function sameDpi(a: number, b: number): boolean {
  return Math.round(a / 25.4) === Math.round(b / 25.4);
}

const inches = (dots: number, dpi: number): string => `${(dots / dpi).toFixed(2).replace(/\.?0+$/, '')} in`;

interface MuReading {
  cmd: ZplCommand;
  units: 'D' | 'I' | 'M';
  base?: number;
  to?: number;
}

/** One ^MU as the guide reads it, or a warning when a printer would ignore it. */
function readMu(cmd: ZplCommand): MuReading | ZplWarning {
  const [a = '', b, c] = cmd.params.split(',').map((p) => p.trim());
  const ignored = (why: string): ZplWarning => ({
    command: '^MU',
    offset: cmd.offset,
    message: `^MU${cmd.params.slice(0, 20)}: ${why}: ignored, as a printer does, when telling the file's dpi.`,
  });
  const units = (a || 'D').toUpperCase();
  if (units !== 'D' && units !== 'I' && units !== 'M')
    return ignored(`units "${a.slice(0, 10)}" are not D, I or M`);
  if (b === undefined && c === undefined) return { cmd, units };
  const base = b === undefined ? undefined : MU_DPI[b];
  const to = c === undefined ? undefined : MU_DPI[c];
  if (base === undefined || to === undefined)
    return ignored('the format base and the conversion must each be 150, 200, 300 or 600 dpi');
  // The guide's nominal values: 200 → 600 is three times, 200 → 300 no whole multiple.
  if (Number(c) < Number(b) || Number(c) % Number(b) !== 0)
    return ignored(`a ${b}-dpi format cannot be converted to ${c} dpi (a whole multiple is needed)`);
  return { cmd, units, base, to };
}

/** The value of a ^PW or ^LL (its first parameter), when it is a size a printer takes. */
function dotsParam(cmd: ZplCommand): number | undefined {
  const raw = (cmd.params.split(',')[0] ?? '').trim();
  if (!/^\d{1,5}$/.test(raw)) return undefined;
  const n = Number(raw);
  return n >= 1 && n <= 32_000 ? n : undefined;
}

/** The one standard dpi at which `dots` is within the tolerance of `targetInches`, or undefined. */
function matchDpi(dots: number, targetInches: number, printerDpi: number): number | undefined {
  const candidates = STANDARD_DPIS.map((d) => (sameDpi(d, printerDpi) ? printerDpi : d));
  const hits = candidates.filter((d) => Math.abs(dots / d - targetInches) <= MATCH_TOLERANCE * targetInches);
  return hits.length === 1 ? hits[0] : undefined;
}

/** The dpi `input` was written for, read against `printer` (see the module comment). */
export function zplFileDpi(input: Uint8Array | string, printer: ZplPrinterGeometry): ZplFileDpiResult {
  const s = toByteString(input, DEFAULT_ZPL_BUDGETS.maxInputBytes);
  const commands: ZplCommand[] = [];
  parseZpl(s, { onCommand: (c) => commands.push(c) });
  const warnings: ZplWarning[] = [];
  const named = (name: string) => commands.filter((c) => c.prefix === '^' && c.name === name);

  const mus: MuReading[] = [];
  for (const cmd of named('MU')) {
    const read = readMu(cmd);
    if ('message' in read) warnings.push(read);
    else mus.push(read);
  }
  const physical = mus.find((m) => m.units !== 'D');
  if (physical) return { dpi: { kind: 'unknown' }, warnings };
  const bases = [...new Set(mus.flatMap((m) => (m.base === undefined ? [] : [m.base])))];
  if (bases.length > 1) return { dpi: { kind: 'unknown' }, warnings };
  const base = bases[0];
  if (base !== undefined) {
    const declared = mus.filter((m) => m.base !== undefined);
    const last = declared.at(-1) as MuReading;
    const written = `^MU${last.cmd.params.trim()}`;
    const converting = declared.filter((m) => m.to !== m.base);
    if (converting.length && converting.every((m) => sameDpi(m.to as number, printer.dpi))) {
      const from = converting[0] as MuReading;
      return {
        dpi: {
          kind: 'printer-converts',
          how: `its ^MU${from.cmd.params.trim()} asks the printer to convert its ${base}-dpi sizes to ${from.to} dpi, the printer's own`,
        },
        warnings,
      };
    }
    return {
      dpi: { kind: 'known', dpi: base, how: `its ${written} gives a ${base}-dpi format base` },
      warnings,
    };
  }

  // No ^MU base: the width (and length) against the printer's labels, when one reading alone fits.
  const widths = [...new Set(named('PW').map(dotsParam))];
  const lengths = [...new Set(named('LL').map(dotsParam))];
  const byWidth =
    widths.length === 1 && widths[0] !== undefined
      ? matchDpi(widths[0], printer.printWidthDots / printer.dpi, printer.dpi)
      : undefined;
  const byLength =
    printer.labelLengthDots !== undefined && lengths.length === 1 && lengths[0] !== undefined
      ? matchDpi(lengths[0], printer.labelLengthDots / printer.dpi, printer.dpi)
      : undefined;
  if (byWidth !== undefined && byLength !== undefined && byWidth !== byLength)
    return { dpi: { kind: 'unknown' }, warnings };
  const media = `${inches(printer.printWidthDots, printer.dpi)}, the printer's print width of ${printer.printWidthDots} dots at ${printer.dpi} dpi`;
  if (byWidth !== undefined) {
    const w = widths[0] as number;
    return {
      dpi: {
        kind: 'known',
        dpi: byWidth,
        how: `inferred from its ^PW${w}: ${inches(w, byWidth)} at ${byWidth} dpi, the width of the printer's labels (${media})`,
      },
      warnings,
    };
  }
  if (byLength !== undefined && printer.labelLengthDots !== undefined) {
    const l = lengths[0] as number;
    return {
      dpi: {
        kind: 'known',
        dpi: byLength,
        how: `inferred from its ^LL${l}: ${inches(l, byLength)} at ${byLength} dpi, the length of the printer's labels (${printer.labelLengthDots} dots)`,
      },
      warnings,
    };
  }
  return { dpi: { kind: 'unknown' }, warnings };
}
