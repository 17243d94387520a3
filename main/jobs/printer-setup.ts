/**
 * The one place that decides the dpi and ZPL settings a job is rendered with, for the job service (and so for
 * `labeldesk jobs add`, `labeldesk batch` and the app):
 *
 *   dpi = the dpi asked for, else the printer profile's, else what the printer reports (~HI, when it can
 *   report and is reachable), else 203 with a warning;
 *   settings = the profile's print width, offsets and darkness when the profile is for that dpi, else the
 *   default print width for the dpi.
 *
 * `labeldesk print` (src/cli/print-command.ts) still has its own copy, which also saves a detected dpi in the
 * profile; it should call this when `print` goes through the job queue.
 */
import { queryDpi } from '../../src/printers/query';
import type { PrinterProfile } from '../../src/printers/profiles';
import { defaultPrintWidthDots, zplJobSettings } from '../../src/printers/profiles';
import { PrinterError, type PrinterTransport } from '../../src/printers/transport';
import type { ZplSettings } from '../../src/jobs/model';

export const FALLBACK_DPI = 203;

export interface PrinterSetup {
  dpi: number;
  /** The dpi was asked from the printer (worth saving in its profile). */
  detected: boolean;
  zpl: ZplSettings;
  /** For people: why the dpi is a guess, or that the printer could not be reached. */
  warnings: string[];
}

export interface PrinterSetupDeps {
  profile: PrinterProfile | undefined;
  /** An open transport for the printer; rejects with PrinterError when it cannot connect. */
  connect: (printer: string) => Promise<PrinterTransport>;
}

/** Decides dpi and ZPL settings for `printer` (see the module comment). */
export async function decidePrinterSetup(
  printer: string,
  dpiAsked: number | undefined,
  deps: PrinterSetupDeps,
): Promise<PrinterSetup> {
  const { profile } = deps;
  const warnings: string[] = [];
  let dpi = dpiAsked ?? profile?.dpi;
  let detected = false;
  if (dpi === undefined) {
    try {
      const transport = await deps.connect(printer);
      try {
        if (transport.capabilities.status) {
          dpi = (await queryDpi(transport)).dpi;
          detected = true;
        }
      } finally {
        await transport.close();
      }
    } catch (e) {
      if (!(e instanceof PrinterError)) throw e;
      warnings.push(`${printer}: ${e.message}; the job is stored and waits for the printer`);
    }
  }
  if (dpi === undefined) {
    dpi = FALLBACK_DPI;
    warnings.push(`${printer} did not report its resolution; rendering at ${FALLBACK_DPI} dpi (use --dpi)`);
  }
  const zpl: ZplSettings =
    profile && profile.dpi === dpi ? zplJobSettings(profile) : { maxWidthDots: defaultPrintWidthDots(dpi) };
  return { dpi, detected, zpl, warnings };
}
