/**
 * The one place that decides the dpi and ZPL settings a print is rendered with, for `labeldesk print`, the job
 * service (`labeldesk jobs add`, `labeldesk batch`) and the app:
 *
 *   dpi = the dpi asked for, else the profile's when a person set it, else what the printer reports (~HI, when it
 *   can report and is reachable) — asked when no one has said it yet (no profile, or a profile whose dpi is only
 *   assumed) or the caller wants it refreshed —, else the profile's detected dpi, else 203 with a warning;
 *   settings = the profile's print width, offsets and darkness when the profile is for that dpi, else the
 *   default print width for the dpi.
 *
 * A dpi the printer reported is returned as a profile to save (a new one, or the old one with its detected dpi
 * and default print width updated): the caller owns the profile store and says so to the user.
 *
 * `labeldesk serve`'s relay (src/node/serve/file-printer-gateway.ts) decides on its own: the API contract
 * wants the printer's answer there, and a 503 rather than a guess.
 */
import { basename } from 'node:path';
import type { ZplSettings } from '../../jobs/model';
import {
  defaultPrintWidthDots,
  defaultProfile,
  knownDpi,
  labelLengthFor,
  withDetectedDpi,
  zplJobSettings,
  type PrinterProfile,
} from '../../printers/profiles';
import { queryDpi, type DpiResult } from '../../printers/query';
import { PrinterError, type PrinterTransport } from '../../printers/transport';

export const FALLBACK_DPI = 203;

export interface PrinterSetup {
  dpi: number;
  /** The dpi came from the printer just now. */
  detected: boolean;
  zpl: ZplSettings;
  /** The loaded labels' length in dots, when the printer measured it (profile's labelLengthFor). */
  lengthDots?: number;
  /** The printer's profile, new or updated with the detected dpi, when it should be saved. */
  save?: PrinterProfile;
  /** For people: the printer could not be reached, or the dpi is a guess. */
  warnings: string[];
}

export interface PrinterSetupDeps {
  profile: PrinterProfile | undefined;
  /**
   * The printer's own dpi: a number, or undefined when the link cannot report (a CUPS queue, a file).
   * Rejects with PrinterError when the printer cannot be reached.
   */
  askDpi: () => Promise<number | DpiResult | undefined>;
  /** Ask the printer even when its profile has a detected dpi (the caller holds an open connection anyway). */
  refresh?: boolean;
  /** The name of a new profile; the last part of the URI by default. */
  name?: string;
  /** What happens to the print when the printer cannot be reached, added to that warning. */
  whenUnreachable?: string;
  /**
   * A printer that does not answer fails the setup instead of being a warning: for a caller that holds the
   * connection and prints right away, a label scaled for a guessed dpi is worse than no label.
   */
  failIfUnanswered?: boolean;
}

/** Decides dpi and ZPL settings for `printer` (see the module comment). */
export async function decidePrinterSetup(
  printer: string,
  dpiAsked: number | undefined,
  deps: PrinterSetupDeps,
): Promise<PrinterSetup> {
  let profile = deps.profile;
  const warnings: string[] = [];
  let dpi = dpiAsked;
  let detected = false;
  let save: PrinterProfile | undefined;
  // A person's dpi always wins; a detected one stands unless the caller asks again; an assumed one is asked.
  if (dpi === undefined && profile?.dpiSource === 'set') dpi = profile.dpi;
  if (dpi === undefined && profile?.dpiSource === 'detected' && !deps.refresh) dpi = profile.dpi;
  if (dpi === undefined) {
    let widthDots: number | undefined;
    try {
      const answer = await deps.askDpi();
      dpi = typeof answer === 'number' ? answer : answer?.dpi;
      widthDots = typeof answer === 'object' ? answer.printWidthDots : undefined;
      detected = dpi !== undefined;
    } catch (e) {
      if (!(e instanceof PrinterError) || deps.failIfUnanswered) throw e;
      warnings.push(deps.whenUnreachable ? `${e.message}; ${deps.whenUnreachable}` : e.message);
    }
    if (dpi !== undefined) {
      const next = withDetectedDpi(
        profile ?? defaultProfile(printer, deps.name ?? basename(printer), dpi, 'detected'),
        dpi,
        widthDots,
      );
      if (next !== profile) save = profile = next;
    }
    dpi ??= knownDpi(profile);
  }
  if (dpi === undefined) {
    dpi = FALLBACK_DPI;
    warnings.push(`${printer} did not report its resolution; rendering at ${FALLBACK_DPI} dpi (use --dpi)`);
  }
  const zpl: ZplSettings =
    profile && profile.dpi === dpi ? zplJobSettings(profile) : { maxWidthDots: defaultPrintWidthDots(dpi) };
  const lengthDots = labelLengthFor(profile, dpi);
  return {
    dpi,
    detected,
    zpl,
    warnings,
    ...(lengthDots !== undefined ? { lengthDots } : {}),
    ...(save ? { save } : {}),
  };
}

/** The dpi (and print width) an open printer reports, or undefined when its link cannot answer. */
export async function dpiReportedBy(transport: PrinterTransport): Promise<DpiResult | undefined> {
  return transport.capabilities.status ? await queryDpi(transport) : undefined;
}

/** `askDpi` over a connection of its own, closed again: for callers that do not hold one. */
export function askOverNewConnection(
  printer: string,
  connect: (printer: string) => Promise<PrinterTransport>,
): () => Promise<DpiResult | undefined> {
  return async () => {
    const transport = await connect(printer);
    try {
      return await dpiReportedBy(transport);
    } finally {
      await transport.close();
    }
  };
}
