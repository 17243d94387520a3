/**
 * The print relay as the engine sees it (routes 03 and 04): a port, so the operations stay pure and testable.
 * The Node implementation (src/node/serve/file-printer-gateway.ts) reads the workstation's printers file and
 * talks to printers through the transports of src/printers.
 */

import { KindedError } from '../base/error-kind';
import type { Darkness } from '../zpl/job';

/** One printer of the relay, as registered in the printers file. */
export interface RelayPrinter {
  /** `printer_id` of the API (spec §2.2). */
  id: number;
  /** Display name, for messages. */
  name: string;
  /** Printer URI (ARCHITECTURE.md "Printer addressing"): tcp://, usb://, serial://, cups://, file://. */
  uri: string;
}

/** What a printer said about itself before a ZPL job (spec §4.3 rule 2). */
export interface PrinterResolution {
  /** Dots per inch (SGD `head.resolution.in_dpi`). */
  dpi: number;
  /** Printhead width in dots, when the printer (or its profile) says; otherwise 4.1 in at `dpi`. */
  maxWidthDots?: number;
  /** The printer profile's label offsets in dots (`^LH`). */
  labelHome?: { x: number; y: number };
  /** The printer profile's darkness. */
  darkness?: Darkness;
}

export type JobFormat = 'zpl' | 'pdf';

/** One print-relay job as the operations hand it to the gateway. */
export interface RelayJob {
  format: JobFormat;
  /** One ZPL format per copy, or the one PDF document. */
  labels: readonly (string | Uint8Array)[];
  /** Who asked: the request's API key id (never the secret), for a queue that records it. */
  apiKey?: string;
  /**
   * The request's `Idempotency-Key`: a gateway that keeps jobs (a site server's print queue) delivers one job per
   * key and API key, however often the request is sent; others ignore it.
   */
  idempotencyKey?: string;
  /** The resolution the job was rendered at (route 03), so a repeated request can be answered the same. */
  printerDpi?: number;
}

export interface PrinterGateway {
  /** The printer registered under `id`, or undefined. */
  find(id: number): Promise<RelayPrinter | undefined>;
  /** Asks the printer its resolution. Throws PrinterUnavailable. */
  resolution(printer: RelayPrinter): Promise<PrinterResolution>;
  /** Whether the printer's target can take a job of this format (a ZPL thermal printer cannot print a PDF). */
  accepts(printer: RelayPrinter, format: JobFormat): boolean;
  /**
   * Delivers one job: `labels` holds one ZPL format per copy, or the one PDF document. Resolves once the printer
   * confirmed every label (or the OS queue accepted the document). Throws PrinterUnavailable otherwise.
   */
  send(printer: RelayPrinter, job: RelayJob): Promise<void>;
}

/**
 * A printer that cannot be reached, did not answer, or refused the job. The message names the printer by id and
 * name, not by its address: it is answered to API clients, and a site's printer addresses are not theirs to
 * know (`printer.uri` is here for the server's log).
 */
export class PrinterUnavailable extends KindedError {
  get kind() {
    return 'printer-unavailable' as const;
  }

  constructor(
    readonly printer: RelayPrinter,
    problem: string,
    override readonly cause?: unknown,
  ) {
    super(`printer ${printer.id} ("${printer.name}"): ${problem}`);
    this.name = 'PrinterUnavailable';
  }
}

/** A `printer_id` that names no printer of the gateway (or there is no gateway). */
export class UnknownPrinter extends KindedError {
  get kind() {
    return 'unknown-printer' as const;
  }

  constructor(readonly id: number) {
    super(`no printer ${id}`);
    this.name = 'UnknownPrinter';
  }
}

/** A printer whose target cannot take a job of this format (a ZPL printer and a PDF, say). */
export class PrinterRefusesFormat extends KindedError {
  get kind() {
    return 'printer-refuses-format' as const;
  }

  constructor(
    readonly printer: RelayPrinter,
    readonly format: JobFormat,
  ) {
    super(`printer ${printer.id} ("${printer.name}") cannot print ${format === 'pdf' ? 'a PDF' : 'ZPL'}`);
    this.name = 'PrinterRefusesFormat';
  }
}
