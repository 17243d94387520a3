/** Command-line options shared by the commands that print (`print`, `jobs add`). */
import { parsePrinterUri, PrinterUriError, type PrinterUri } from '../printers/uri';
import { CliError, UsageError } from './io';
import type { Oversize } from '../outputs/fit';
import { LabelDoesNotFit } from '../node/jobs/job-service-types';

/** `--printer URI`, required and parsed (with the text as typed, for messages); a bad URI is one line. */
export function printerOption(raw: string | undefined): { uri: PrinterUri; text: string } {
  if (!raw) throw new UsageError('--printer URI is required');
  try {
    return { uri: parsePrinterUri(raw), text: raw };
  } catch (e) {
    if (e instanceof PrinterUriError) throw new CliError(`--printer: ${e.message}`);
    throw e;
  }
}

/** `--dpi N`: absent, or a whole number from 100 to 1200 (spec §8). */
export function dpiOption(raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  const dpi = Number(raw);
  if (!Number.isInteger(dpi) || dpi < 100 || dpi > 1200) {
    throw new CliError(`--dpi: expected a whole number from 100 to 1200, got "${raw}"`);
  }
  return dpi;
}

/** `labeldesk print`'s reconnects after a fault, when `--retries` is not given. */
export const DEFAULT_PRINT_RETRIES = 3;

/** `--retries N`: absent (the command's default), or a whole number of reconnects. */
export function retriesOption(raw: string | undefined, fallback: number): number {
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (raw.trim() === '' || !Number.isInteger(n) || n < 0) {
    throw new UsageError(`--retries: expected a whole number of reconnects (0 or more), got "${raw}"`);
  }
  return n;
}

/** The options `--fit` and `--allow-cut` as parseArgs declares them (print, jobs add, batch). */
export const oversizeOptions = {
  fit: { type: 'boolean' },
  'allow-cut': { type: 'boolean' },
} as const;

/** Their help lines. */
export const OVERSIZE_HELP = `  --fit                  a label wider than the printer's head: scale it to fit, aspect kept
                         (without --fit or --allow-cut such a label is refused, naming both widths)
  --allow-cut            a label wider than the head: print it anyway; the head prints only its width
`;

/** `--fit` / `--allow-cut`: what to do with a label the printer cannot hold (one of them at most). */
export function oversizeOption(values: { fit?: boolean; 'allow-cut'?: boolean }): Oversize | undefined {
  const fit = values.fit === true;
  const allowCut = values['allow-cut'] === true;
  if (fit && allowCut) throw new UsageError('--fit and --allow-cut: choose one');
  return fit ? 'fit' : allowCut ? 'cut' : undefined;
}

/** The refusal of a label wider than the printer, in one sentence with the options that print it. */
export function doesNotFitError(problem: string): CliError {
  return new CliError(`${problem}: add --fit to scale it, or --allow-cut to print it cut.`);
}

/** A job refused because its label does not fit becomes that sentence; anything else passes through. */
export function rethrowDoesNotFit(e: unknown): never {
  if (e instanceof LabelDoesNotFit) throw doesNotFitError(e.problem);
  throw e;
}
