/**
 * The app's printers: a list in `<data dir>/printers.json`, in the same format as `labeldesk serve --printers`
 * (`[{ "id", "uri", "name" }]`, so `npm run web -- --printers FILE` preconfigures it), with each printer's
 * profile (dpi, darkness, width, offsets) in the shared printer-profiles.json. Status is asked with `~HS` over
 * a short-lived connection, except while a job holds the printer: then the job's own view is reported, so a
 * status poll never competes with a print for the printer's one data channel.
 */
import { dots, dotsToMm } from '../../src/units/units';
import { zplPrintOptionsFor, type ZplFileOptions } from '../../src/printers/zpl-file-options';
import { join } from 'node:path';
import { PrintersFileSchema, type ConfiguredPrinter } from '../../src/printers/printers-file';
import { formatPrinterUri, parsePrinterUri, PrinterUriError, type PrinterUri } from '../../src/printers/uri';
import {
  defaultProfile,
  knownDpi,
  printWidthFor,
  labelLengthFor,
  withDetectedDpi,
  type PrinterProfile,
} from '../../src/printers/profiles';
import { queryDpi, queryStatus } from '../../src/printers/query';
import type { PrinterStatus } from '../../src/printers/status';
import { PrinterError, type PrinterTransport } from '../../src/printers/transport';
import { assertNever } from '../../src/base/assert-never';
import type {
  CalibrationView,
  DiscoveredPrinterView,
  NetworkScanProgress,
  NetworkScanView,
  PrinterInput,
  PrinterStatusView,
  PrinterView,
} from '../../src/ipc/contract';
import { IpcError } from '../../src/ipc/errors';
import { createStatusTransport } from '../../src/node/printers/open-transport';
import {
  askOverNewConnection,
  decidePrinterSetup,
  FALLBACK_DPI,
  type PrinterSetup,
} from '../../src/node/printers/setup';
import { createProfileStore } from '../../src/node/printers/profile-store';
import { discoverPrinters, type DiscoveryOptions } from '../../src/node/printers/discovery';
import { printLanguage } from '../../src/node/printers/language';
import {
  localScanRanges,
  MAX_SCAN_HOSTS,
  parseScanRange,
  scanNetwork,
  ScanRangeError,
} from '../../src/node/printers/discovery-network';
import { jsonFile } from '../../src/node/files/json-file';
import { checkFilePrinterPath } from './file-printer-folder';

export interface AppPrinters {
  list(): Promise<PrinterView[]>;
  get(id: string): Promise<PrinterView>;
  save(input: PrinterInput): Promise<PrinterView>;
  remove(id: string): Promise<boolean>;
  /** Adds the printers of a `--printers` file that are not configured yet (matched by URI). */
  preconfigure(printers: readonly ConfiguredPrinter[]): Promise<void>;
  status(id: string, busy?: PrinterStatusView): Promise<PrinterStatusView>;
  /**
   * Dpi and ZPL settings to render for this printer, decided where the job service decides them
   * (src/node/printers/setup.ts); a dpi asked from the printer is saved in its profile.
   */
  setup(printer: PrinterView): Promise<PrinterSetup>;
  /** The dpi its profile holds (never asks the printer). */
  profileDpi(printer: PrinterView): Promise<number | undefined>;
  /** The print width in dots a label for it is rendered with at `dpi` (its profile's; never asks the printer). */
  printWidth(printer: PrinterView, dpi: number): Promise<number>;
  /** How a ZPL file prints on it: the print's choice of settings, else its profile's, else strip (and commands). */
  zplFileOptions(printer: PrinterView, keepSettings?: boolean): Promise<ZplFileOptions>;
  /** Saves whether a ZPL file's printer settings are kept on it (its profile; made at an assumed dpi if none). */
  rememberZplSettings(printer: PrinterView, keep: boolean): Promise<void>;
  /** The loaded labels' length in dots at `dpi` when a calibration measured it (its profile's), else undefined. */
  labelLength(printer: PrinterView, dpi: number): Promise<number | undefined>;
  discover(): Promise<{ found: DiscoveredPrinterView[]; problems: string[] }>;
  /** See the `printers.scanNetwork` channel. */
  scanNetwork(
    request: { range?: string; port?: number },
    onProgress: (progress: NetworkScanProgress) => void,
  ): Promise<NetworkScanView>;
  cancelScan(): boolean;
  /** Sends `~JC` (the printer measures its labels and sets its sensors), then asks its status. */
  calibrate(id: string): Promise<CalibrationView>;
}

/** Longest wait for the status after `~JC`: the printer feeds a few labels while it measures. */
const CALIBRATION_STATUS_TIMEOUT_MS = 15_000;

export function describeUri(uri: PrinterUri): string {
  switch (uri.scheme) {
    case 'tcp':
      return `Network ${uri.host}:${uri.port}`;
    case 'usb':
      return `USB ${uri.vendorId.toString(16).padStart(4, '0')}:${uri.productId.toString(16).padStart(4, '0')}`;
    case 'serial':
      return `Serial ${uri.path} at ${uri.baudRate} baud`;
    case 'cups':
      return `OS queue ${uri.queue}`;
    case 'file':
      return `File ${uri.path}`;
    default:
      return assertNever(uri, 'printer URI');
  }
}

/** A sentence for the status pill's tooltip and the banner. */
export function statusMessage(status: PrinterStatus): string {
  switch (status.state) {
    case 'ready':
      return 'Ready';
    case 'paper-out':
      return 'Paper out: load labels, then close the head';
    case 'head-open':
      return 'Print head open: close it to print';
    case 'paused':
      return 'Paused: press the pause button on the printer';
    case 'ribbon-out':
      return 'Ribbon out: load a ribbon';
    case 'buffer-full':
      return 'Busy: the printer’s buffer is full';
    case 'offline':
      return `Offline: ${status.reasons[0] ?? 'no answer'}`;
    case 'unknown':
      return `Needs attention: ${status.reasons.join(', ') || 'unknown state'}`;
    default:
      return assertNever(status.state, 'printer state');
  }
}

/**
 * A new printer's id: never one a removed printer had, so a selection or default that still names the old id
 * cannot silently print on the new printer. Ids grow: above every id in the list, above every id this process
 * gave out, and at least the seconds since 1970 (so a later run starts above an earlier one's).
 */
let lastIssued = 0;
function newId(list: readonly ConfiguredPrinter[]): number {
  lastIssued = Math.max(Math.floor(Date.now() / 1000), lastIssued + 1, ...list.map((p) => p.id + 1));
  return lastIssued;
}

export interface AppPrintersOptions {
  /** The folder the user chose for file printers (Settings), or null: then none can be saved. */
  filePrinterFolder?: () => Promise<string | null>;
  /** Where Discover looks (default: this computer's USB, serial ports and CUPS). */
  discovery?: Omit<DiscoveryOptions, 'sources' | 'printersFile'>;
}

export function appPrinters(dataDir: string, options: AppPrintersOptions = {}): AppPrinters {
  const file = jsonFile(join(dataDir, 'printers.json'), PrintersFileSchema, []);
  const profiles = createProfileStore(dataDir);

  const learnDpi = async (transport: PrinterTransport, printer: ConfiguredPrinter) => {
    const { dpi, printWidthDots } = await queryDpi(transport, { timeoutMs: 2000 });
    const current = await profiles.get(printer.uri);
    // Keeps what a person set on the profile (darkness, offsets); the dpi (and the width nobody changed) become
    // the printer's answer.
    await profiles.put(
      withDetectedDpi(
        current ?? defaultProfile(printer.uri, printer.name, dpi, 'detected'),
        dpi,
        printWidthDots,
      ),
    );
  };

  let scanning: AbortController | undefined;

  const scanHosts = (range: string | undefined): string[] => {
    const ranges = range
      ? range
          .split(',')
          .map((r) => r.trim())
          .filter(Boolean)
      : localScanRanges();
    if (ranges.length === 0) {
      throw new IpcError(
        'invalid',
        'Addresses: this computer has no private network address to scan around; type a range such as 192.168.1.0/24.',
        'range',
      );
    }
    try {
      const hosts = [...new Set(ranges.flatMap(parseScanRange))];
      if (hosts.length > MAX_SCAN_HOSTS)
        throw new ScanRangeError(`${hosts.length} addresses: scan at most ${MAX_SCAN_HOSTS} at once`);
      return hosts;
    } catch (e) {
      if (e instanceof ScanRangeError) throw new IpcError('invalid', `Addresses: ${e.message}`, 'range');
      throw e;
    }
  };

  const view = async (p: ConfiguredPrinter): Promise<PrinterView> => {
    const uri = parsePrinterUri(p.uri);
    const profile = await profiles.get(p.uri);
    return {
      id: String(p.id),
      name: p.name,
      uri: p.uri,
      kind: describeUri(uri),
      dpi: knownDpi(profile) ?? null,
      dpiSource: profile && profile.dpiSource !== 'assumed' ? profile.dpiSource : null,
      darkness: profile?.darkness ?? null,
      ...(profile?.zplFiles?.settings ? { zplKeepSettings: profile.zplFiles.settings === 'keep' } : {}),
      mediaType: profile?.mediaType ?? null,
      printSpeed: profile?.printSpeed ?? null,
      printMode: profile?.printMode ?? null,
      language: await printLanguage(uri),
    };
  };

  const find = async (id: string): Promise<ConfiguredPrinter> => {
    const p = (await file.read()).find((x) => String(x.id) === id);
    if (!p)
      throw new IpcError(
        'not-found',
        `No printer ${id} is configured: pick one in Printers.`,
        null,
        'printers',
      );
    return p;
  };

  /**
   * After a calibration the printer's `~HS` label length is the length of the labels it measured: kept in its
   * profile (at the dpi the profile knows) so a longer label is asked about before it runs across two. Says it
   * in words for the calibration's message; nothing when the length or the dpi is unknown or the media is
   * continuous (where the printer measures nothing).
   */
  const rememberLabelLength = async (
    printer: ConfiguredPrinter,
    lengthDots: number | undefined,
  ): Promise<string | undefined> => {
    const profile = await profiles.get(printer.uri);
    const dpi = knownDpi(profile);
    if (!profile || dpi === undefined || !lengthDots || lengthDots <= 0) return undefined;
    if (profile.mediaType === 'continuous') return undefined;
    await profiles.put({ ...profile, labelLengthDots: lengthDots });
    return ` Its labels are ${Math.round(dotsToMm(dots(lengthDots), dpi))} mm (${lengthDots} dots) long.`;
  };

  const saveProfile = async (uri: string, name: string, input: PrinterInput) => {
    const current = await profiles.get(uri);
    const said = (['dpi', 'darkness', 'mediaType', 'printSpeed', 'printMode'] as const).some(
      (k) => input[k] !== undefined && input[k] !== null,
    );
    if (!said && !current) return;
    // Without a dpi from the person, nobody has said it yet: `assumed` until the printer answers.
    const base =
      current ?? defaultProfile(uri, name, input.dpi ?? FALLBACK_DPI, input.dpi ? 'set' : 'assumed');
    const dpi = input.dpi ?? base.dpi;
    const resized = dpi === base.dpi ? base : defaultProfile(uri, name, dpi, 'set');
    const next: PrinterProfile = {
      ...resized,
      name,
      dpiSource: input.dpi !== undefined ? 'set' : base.dpiSource,
    };
    // Each printer setting: a value sets it, null gives it back to the printer, omitted keeps it.
    const settle = <K extends 'darkness' | 'mediaType' | 'printSpeed' | 'printMode'>(key: K) => {
      const value = input[key];
      if (value === null) delete next[key];
      else if (value !== undefined) next[key] = value as PrinterProfile[K];
      else if (resized !== current && current?.[key] !== undefined) next[key] = current[key];
    };
    settle('darkness');
    settle('mediaType');
    // Other labels loaded: the measured length is of the old ones until the printer is calibrated again.
    if (input.mediaType !== undefined && input.mediaType !== current?.mediaType) delete next.labelLengthDots;
    settle('printSpeed');
    settle('printMode');
    await profiles.put(next);
  };

  return {
    list: async () => Promise.all((await file.read()).map(view)),
    get: async (id) => view(await find(id)),
    async save(input) {
      let uri: string;
      let parsed: PrinterUri;
      try {
        parsed = parsePrinterUri(input.uri);
        uri = formatPrinterUri(parsed);
      } catch (e) {
        const problem = e instanceof PrinterUriError ? e.problem : (e as Error).message;
        throw new IpcError('invalid', `Printer address: ${problem}`, 'uri');
      }
      // Through the contract a file printer could overwrite any file: only inside the folder the user chose.
      if (parsed.scheme === 'file') {
        await checkFilePrinterPath(parsed.path, (await options.filePrinterFolder?.()) ?? null);
      }
      let saved: ConfiguredPrinter | undefined;
      await file.update((list) => {
        const existing = input.id === undefined ? undefined : list.find((p) => String(p.id) === input.id);
        if (input.id !== undefined && !existing)
          throw new IpcError('not-found', `No printer ${input.id} is configured.`);
        const clash = list.find((p) => p.uri === uri && p !== existing);
        if (clash) throw new IpcError('conflict', `${clash.name} already uses ${uri}.`, 'uri');
        saved = { id: existing?.id ?? newId(list), uri, name: input.name };
        return existing ? list.map((p) => (p === existing ? saved! : p)) : [...list, saved];
      });
      await saveProfile(uri, input.name, input);
      return view(saved!);
    },
    async remove(id) {
      let removed = false;
      await file.update((list) => {
        const next = list.filter((p) => String(p.id) !== id);
        removed = next.length !== list.length;
        return next;
      });
      return removed;
    },
    async preconfigure(printers) {
      await file.update((list) => {
        const next = [...list];
        for (const p of printers) {
          if (next.some((q) => q.uri === p.uri)) continue;
          const id = next.some((q) => q.id === p.id) ? newId(next) : p.id;
          next.push({ ...p, id });
        }
        return next;
      });
    },
    async status(id, busy) {
      const printer = await find(id);
      const checkedAt = new Date().toISOString();
      if (busy) return busy;
      // A Windows queue on a TCP port is asked at its printer; other OS queues have no status.
      const transport = await createStatusTransport(printer.uri);
      if (!transport.capabilities.status) {
        return {
          printer: id,
          state: 'no-status',
          message: 'This printer cannot report its status',
          checkedAt,
        };
      }
      try {
        await transport.open({ timeoutMs: 3000 });
        const status = await queryStatus(transport, { timeoutMs: 2000 });
        if (status.state === 'ready' && knownDpi(await profiles.get(printer.uri)) === undefined) {
          // Learn its resolution once, on this connection, so previews and prints use it from now on.
          await learnDpi(transport, printer).catch(() => undefined);
        }
        return { printer: id, state: status.state, message: statusMessage(status), checkedAt };
      } catch (e) {
        if (!(e instanceof PrinterError)) throw e;
        return { printer: id, state: 'offline', message: `Offline: ${e.message}`, checkedAt };
      } finally {
        await transport.close().catch(() => undefined);
      }
    },
    profileDpi: async (printer) => knownDpi(await profiles.get(printer.uri)),
    printWidth: async (printer, dpi) => printWidthFor(await profiles.get(printer.uri), dpi),
    labelLength: async (printer, dpi) => labelLengthFor(await profiles.get(printer.uri), dpi),
    zplFileOptions: async (printer, keepSettings) =>
      zplPrintOptionsFor(await profiles.get(printer.uri), { keepSettings }),
    async rememberZplSettings(printer, keep) {
      const current =
        (await profiles.get(printer.uri)) ??
        defaultProfile(printer.uri, printer.name, FALLBACK_DPI, 'assumed');
      await profiles.put({
        ...current,
        zplFiles: { ...current.zplFiles, settings: keep ? 'keep' : 'strip' },
      });
    },
    async setup(printer) {
      const profile = await profiles.get(printer.uri);
      const setup = await decidePrinterSetup(printer.uri, undefined, {
        profile,
        askDpi: askOverNewConnection(printer.uri, async (uri) => {
          const transport = await createStatusTransport(uri);
          await transport.open({ timeoutMs: 3000 });
          return transport;
        }),
        name: printer.name,
      });
      if (setup.save) await profiles.put(setup.save);
      return setup;
    },
    async scanNetwork(request, onProgress) {
      if (scanning) throw new IpcError('conflict', 'A network scan is already under way: stop it first.');
      const hosts = scanHosts(request.range);
      const controller = (scanning = new AbortController());
      try {
        const result = await scanNetwork({
          hosts,
          ...(request.port ? { port: request.port } : {}),
          signal: controller.signal,
          onProgress,
        });
        return {
          printers: result.printers.map((p) => ({
            uri: p.uri,
            name: `${p.model} (${p.dpi} dpi) at ${p.host}`,
            source: 'network',
          })),
          probed: result.probed,
          total: result.total,
          found: result.printers.length,
          stopped: result.stopped,
        };
      } finally {
        scanning = undefined;
      }
    },
    cancelScan() {
      if (!scanning) return false;
      scanning.abort();
      return true;
    },
    async calibrate(id) {
      const printer = await find(id);
      const language = await printLanguage(parsePrinterUri(printer.uri));
      const transport = await createStatusTransport(printer.uri);
      if (language !== 'zpl' || !transport.capabilities.status) {
        throw new IpcError(
          'invalid',
          `${printer.name} cannot be calibrated from LabelDesk (${describeUri(parsePrinterUri(printer.uri))} does not answer): use the calibrate button or menu on the printer.`,
        );
      }
      const checkedAt = () => new Date().toISOString();
      try {
        await transport.open({ timeoutMs: 3000 });
        await transport.write('~JC', { timeoutMs: 5000 });
        // The printer feeds labels while it measures them; its status then says whether it found them.
        const status = await queryStatus(transport, { timeoutMs: CALIBRATION_STATUS_TIMEOUT_MS });
        const ok = status.state === 'ready';
        const said = statusMessage(status);
        const measured = ok ? await rememberLabelLength(printer, status.labelLengthDots) : undefined;
        return {
          printer: id,
          ok,
          message: ok
            ? `${printer.name} measured its labels and is ready.${measured ?? ''}`
            : `${printer.name} was asked to calibrate, but it says: ${said}.`,
          status: { printer: id, state: status.state, message: said, checkedAt: checkedAt() },
        };
      } catch (e) {
        if (!(e instanceof PrinterError)) throw e;
        const message = `Offline: ${e.message}`;
        return {
          printer: id,
          ok: false,
          message: `${printer.name} could not be calibrated: ${e.message}`,
          status: { printer: id, state: 'offline', message, checkedAt: checkedAt() },
        };
      } finally {
        await transport.close().catch(() => undefined);
      }
    },
    async discover() {
      // The configured network printers are already in the list: Discover looks at this computer.
      const result = await discoverPrinters({ ...options.discovery, sources: ['usb', 'serial', 'cups'] });
      return {
        found: result.printers.map((p) => ({ uri: p.uri, name: p.name, source: p.kind })),
        // One sentence per source that could not be listed; each names its source.
        problems: result.problems.map((p) => p.message),
      };
    },
  };
}
