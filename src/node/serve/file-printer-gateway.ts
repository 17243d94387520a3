/**
 * Node-only: the print relay of `labeldesk serve` (routes 03, 04): one gateway over a lookup port that says
 * which printer a `printer_id` is and which profile it prints with —
 *  - the printers file (`--printers FILE`, src/printers/printers-file.ts: `printer_id` → printer URI, re-read
 *    when it changes, like templates and keys), profiles from the instance's profile store: `filePrinterLookup`;
 *  - on a site server, the site database's printers and their profiles (src/node/site/site-printers.ts).
 * Connections go through the transports of the printers module (injected as `openTransport`), never through a
 * socket of our own.
 *
 * Which target takes which job:
 *  - ZPL (03): tcp://, usb://, serial:// — links that can also answer the resolution query (spec §4.3 rule 2);
 *  - PDF (04): cups:// (the OS queue renders it) and file://. A ZPL printer cannot print a PDF: 422.
 */
import { readFile } from 'node:fs/promises';
import { withDetectedDpi, zplJobSettings, type PrinterProfile } from '../../printers/profiles';
import { fileVersion } from '../files/atomic-file';
import { parsePrintersFile, type ConfiguredPrinter } from '../../printers/printers-file';
import { queryDpi } from '../../printers/query';
import { setTimeout as sleep } from 'node:timers/promises';
import { DeliveryFailed, deliverLabels } from '../../printers/deliver';
import { openedTransport, type PrinterTransport } from '../../printers/transport';
import {
  PrinterUnavailable,
  type JobFormat,
  type PrinterGateway,
  type RelayPrinter,
} from '../../engine/printer-gateway';

/** A printer as a lookup found it, with the profile it prints with. */
export interface LookedUpPrinter {
  printer: RelayPrinter;
  /** Its printer profile (a dpi a person set, darkness, offsets, width), read when a job needs it. */
  profile(): Promise<PrinterProfile | undefined>;
}

/** Where the relay's printers come from: the port `relayPrinterGateway` looks printers up through. */
export interface PrinterLookup {
  /** The printer registered under `id`, or undefined. May throw a kinded error (the site database unavailable). */
  find(id: number): Promise<LookedUpPrinter | undefined>;
}

export interface RelayPrinterGatewayOptions {
  lookup: PrinterLookup;
  /**
   * Creates a (not yet opened) transport for a printer URI. `format` is the job it will carry (a CUPS queue
   * sends ZPL raw and lets its driver render a PDF); absent for the resolution query.
   */
  openTransport: (uri: string, job: { format?: JobFormat }) => PrinterTransport;
  /**
   * Heard when a job was delivered with labels sent again after a fault (they may print twice), for the log.
   */
  onPossibleDuplicates?: (printer: RelayPrinter, labelNumbers: readonly number[]) => void;
  /** Reconnects after a dropped connection or an unconfirmed label (default 2). */
  retries?: number;
}

export interface FilePrinterLookupOptions {
  /** The printers file: `[{"id":7,"uri":"tcp://10.0.0.5:9100","name":"Dock 7"}]`. */
  file: string;
  /** Heard when the file becomes unreadable or invalid; the last good version stays in use. */
  onError?: (e: unknown) => void;
  /**
   * The workstation's printer profiles (the composition root passes the profile store). A dpi a person set
   * wins over the printer's answer; width, offsets and darkness apply to every label for that printer.
   */
  profiles?: { get(uri: string): Promise<PrinterProfile | undefined> };
}

export type FilePrinterGatewayOptions = FilePrinterLookupOptions & Omit<RelayPrinterGatewayOptions, 'lookup'>;

const FORMATS_BY_SCHEME: Record<string, readonly JobFormat[]> = {
  tcp: ['zpl'],
  usb: ['zpl'],
  serial: ['zpl'],
  cups: ['pdf'],
  file: ['pdf'],
};

/** The job formats a printer URI's target takes (the gateway's `accepts`): ZPL for raw links, PDF for queues. */
export const formatsOf = (uri: string): readonly JobFormat[] =>
  FORMATS_BY_SCHEME[uri.split(':')[0] ?? ''] ?? [];

/** Reads and validates a printers file. Throws PrintersFileError (or a JSON/IO error). */
export async function readPrintersFile(file: string): Promise<ConfiguredPrinter[]> {
  return parsePrintersFile(JSON.parse(await readFile(file, 'utf8')) as unknown, file);
}

/** The printers file as a lookup: re-read when it changes; profiles from `profiles` by URI. */
export function filePrinterLookup(options: FilePrinterLookupOptions): PrinterLookup & {
  /** Every printer of the file as last read (read again first when it changed). */
  list(): Promise<RelayPrinter[]>;
} {
  let version = '';
  let printers = new Map<number, RelayPrinter>();

  async function refresh(): Promise<void> {
    try {
      const next = await fileVersion(options.file);
      if (next === version) return;
      const list = await readPrintersFile(options.file);
      printers = new Map(list.map((p) => [p.id, { id: p.id, name: p.name, uri: p.uri }]));
      version = next;
    } catch (e) {
      options.onError?.(e);
    }
  }

  return {
    async find(id) {
      await refresh();
      const printer = printers.get(id);
      if (!printer) return undefined;
      return { printer, profile: async () => options.profiles?.get(printer.uri) };
    },
    async list() {
      await refresh();
      return [...printers.values()];
    },
  };
}

/** The relay of `labeldesk serve --printers FILE` (and of the app's web mode): the file as the lookup. */
export function filePrinterGateway(options: FilePrinterGatewayOptions): PrinterGateway {
  return relayPrinterGateway({ ...options, lookup: filePrinterLookup(options) });
}

/** The print relay over any lookup: resolution (with the printer's profile), formats, confirmed delivery. */
export function relayPrinterGateway(options: RelayPrinterGatewayOptions): PrinterGateway {
  /** The profile of each printer `find` answered (the request's own lookup, not a second one). */
  const profiles = new WeakMap<RelayPrinter, LookedUpPrinter['profile']>();

  /** Runs `use` on an open transport to the printer; every failure becomes PrinterUnavailable. */
  async function withTransport<T>(
    printer: RelayPrinter,
    job: { format?: JobFormat },
    what: string,
    use: (t: PrinterTransport) => Promise<T>,
  ): Promise<T> {
    let transport: PrinterTransport | undefined;
    try {
      transport = options.openTransport(printer.uri, job);
      await transport.open();
      return await use(transport);
    } catch (e) {
      throw new PrinterUnavailable(printer, `${what}: ${(e as Error).message}`, e);
    } finally {
      await transport?.close().catch(() => undefined);
    }
  }

  async function profileOf(printer: RelayPrinter): Promise<PrinterProfile | undefined> {
    const known = profiles.get(printer);
    if (known) return known();
    const found = await options.lookup.find(printer.id);
    return found && found.printer.uri === printer.uri ? found.profile() : undefined;
  }

  return {
    async find(id) {
      const found = await options.lookup.find(id);
      if (!found) return undefined;
      profiles.set(found.printer, found.profile);
      return found.printer;
    },
    accepts: (printer, format) => formatsOf(printer.uri).includes(format),
    resolution: async (printer) => {
      const profile = await profileOf(printer);
      const dpi =
        profile?.dpiSource === 'set'
          ? profile.dpi
          : await withTransport(
              printer,
              {},
              'no answer to the resolution query',
              async (t) => (await queryDpi(t)).dpi,
            );
      if (!profile) return { dpi };
      const settings = zplJobSettings(profile.dpi === dpi ? profile : withDetectedDpi(profile, dpi));
      return { dpi, ...settings };
    },
    // A raw link says nothing when a job arrives: the OS accepting the bytes is not the printer reading them.
    // deliverLabels counts a label only once the printer answered ~HS after it (or the OS queue took the job),
    // resends from the first unconfirmed label after a fault, and aborts a connection it gives up on, so what
    // it did not confirm cannot print later. So 2xx means delivered in full, and the 500 that a client retries
    // once means "not delivered" (src/printers/deliver.ts says what is left in doubt).
    async send(printer, job) {
      try {
        const report = await deliverLabels(
          () => openedTransport(options.openTransport(printer.uri, { format: job.format })),
          job.labels,
          { retries: options.retries ?? 2, sleep },
        );
        if (report.possibleDuplicates.length)
          options.onPossibleDuplicates?.(printer, report.possibleDuplicates);
      } catch (e) {
        if (e instanceof DeliveryFailed) throw new PrinterUnavailable(printer, e.message, e);
        throw e;
      }
    },
  };
}
