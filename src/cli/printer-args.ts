/** Command-line options shared by the commands that print (`print`, `jobs add`). */
import { parsePrinterUri, PrinterUriError, type PrinterUri } from '../printers/uri';
import { CliError, UsageError } from './io';

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
