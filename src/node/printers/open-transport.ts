/**
 * Printer URI → transport. The one place that knows which class serves which scheme.
 */
import { assertNever } from '../../base/assert-never';
import {
  PrinterError,
  PrinterIoError,
  PrinterNotFound,
  PrinterRefused,
  PrinterUnsupported,
  type OpenOptions,
  type PrinterTransport,
  type RequestOptions,
  type WriteOptions,
} from '../../printers/transport';
import { formatPrinterUri, parsePrinterUri, type PrinterUri, type UsbUri } from '../../printers/uri';
import { createCupsTransport, type CupsTransportOptions } from './cups';
import { createFileTransport, type FileTransportOptions } from './file';
import { createSerialTransport } from './serial';
import { createTcpTransport } from './tcp';
import { createUsbTransport, type UsbTransportOptions } from './usb';
import { createUsbLpTransport, findUsbLpDevice } from './usb-lp';
import { statusUriOfQueue } from './windows-queues';
import { createWinspoolTransport, type WinspoolTransportOptions } from './winspool';

export interface TransportOptions {
  usb?: UsbTransportOptions & {
    /** Linux /dev/usb/lp* fallback when libusb cannot claim the device. Default: on Linux. */
    lpFallback?: boolean;
    /** sysfs and /dev roots for the fallback's lookup (tests). */
    roots?: { sys?: string; dev?: string };
  };
  /** OS queues: CUPS's lp on Linux and macOS; on Windows the spooler (winspool.ts), which takes contentType and title. */
  cups?: CupsTransportOptions & WinspoolTransportOptions;
  /** Files: whether every open adds to the file (the job queue) or the first replaces it (default). */
  file?: FileTransportOptions;
  /** The platform to choose for (default: process.platform). */
  platform?: NodeJS.Platform;
}

/** A transport for `uri` (a URI string or parsed), not yet open. Throws PrinterUriError for a bad URI. */
export function createTransport(uri: string | PrinterUri, options: TransportOptions = {}): PrinterTransport {
  const parsed = typeof uri === 'string' ? parsePrinterUri(uri) : uri;
  switch (parsed.scheme) {
    case 'tcp':
      return createTcpTransport(parsed);
    case 'usb':
      return new UsbWithFallback(parsed, { ...options.usb, platform: options.platform ?? process.platform });
    case 'serial':
      return createSerialTransport(parsed);
    case 'cups':
      return (options.platform ?? process.platform) === 'win32'
        ? createWinspoolTransport(parsed, options.cups)
        : createCupsTransport(parsed, options.cups);
    case 'file':
      return createFileTransport(parsed, options.file);
    default:
      return assertNever(parsed, 'printer URI');
  }
}

/** createTransport, then open. */
export async function openTransport(
  uri: string | PrinterUri,
  options: TransportOptions & OpenOptions = {},
): Promise<PrinterTransport> {
  const transport = createTransport(uri, options);
  await transport.open({ timeoutMs: options.timeoutMs });
  return transport;
}

/**
 * A transport to ask the printer behind `uri` for status and dpi, not yet open: the printer's own transport,
 * except for a Windows queue on a Standard TCP/IP port, whose printer is asked directly at its host on port 9100
 * (the spooler passes no answers back). Any other OS queue gives its own transport, which says it has no status.
 */
export async function createStatusTransport(
  uri: string | PrinterUri,
  options: TransportOptions = {},
): Promise<PrinterTransport> {
  const parsed = typeof uri === 'string' ? parsePrinterUri(uri) : uri;
  if (parsed.scheme === 'cups' && (options.platform ?? process.platform) === 'win32') {
    // A queue that cannot be looked up is asked through the spooler, which then says it has no status.
    const direct = await statusUriOfQueue(parsed.queue, options.cups?.spooler).catch(() => undefined);
    if (direct) return createTransport(direct, options);
  }
  return createTransport(parsed, options);
}

/**
 * For a printer reached through an OS queue (no status), an open connection that has status to the printer
 * behind it — a Windows queue on a Standard TCP/IP port — or undefined when there is none or it does not
 * answer (the queue still prints; its guarantee is then "accepted by the spooler").
 */
export async function openStatusChannel(
  uri: string | PrinterUri,
  options: TransportOptions & OpenOptions = {},
): Promise<PrinterTransport | undefined> {
  const transport = await createStatusTransport(uri, options);
  if (!transport.capabilities.status) return undefined;
  try {
    await transport.open({ timeoutMs: options.timeoutMs ?? 3_000 });
    return transport;
  } catch (e) {
    if (e instanceof PrinterError) return undefined;
    throw e;
  }
}

/**
 * libusb first; on Linux, when that fails (usblp holds the device and may not be detached, no udev rule, or
 * node-usb cannot load), the matching /dev/usb/lpN.
 */
class UsbWithFallback implements PrinterTransport {
  readonly uri: string;
  private active: PrinterTransport;

  constructor(
    private readonly target: UsbUri,
    private readonly options: NonNullable<TransportOptions['usb']> & { platform: NodeJS.Platform },
  ) {
    this.uri = formatPrinterUri(target);
    this.active = createUsbTransport(target, options);
  }

  get capabilities(): PrinterTransport['capabilities'] {
    return this.active.capabilities;
  }

  async open(options?: OpenOptions): Promise<void> {
    try {
      await this.active.open(options);
    } catch (e) {
      if (this.options.platform === 'win32') throw withQueueHint(e);
      const fallback = this.options.lpFallback ?? this.options.platform === 'linux';
      // Any failure (permission, busy, node-usb not loadable) is worth the fallback; without a matching
      // /dev/usb/lpN the original error is the one to report.
      if (!fallback) throw e;
      const path = await findUsbLpDevice(
        this.target.vendorId,
        this.target.productId,
        this.target.serial,
        this.options.roots,
      );
      if (!path) throw e;
      const lp = createUsbLpTransport(this.uri, path);
      await lp.open();
      this.active = lp;
    }
  }

  write(data: Uint8Array | string, options?: WriteOptions): Promise<void> {
    return this.active.write(data, options);
  }

  request(data: Uint8Array | string, options: RequestOptions): Promise<Uint8Array> {
    return this.active.request(data, options);
  }

  close(): Promise<void> {
    return this.active.close();
  }
}

/**
 * On Windows a USB printer with its driver belongs to the spooler, and libusb reaches it only through WinUSB
 * (which would break every other program): the failure says to print to its queue instead.
 */
function withQueueHint(e: unknown): unknown {
  const hint =
    '; on Windows print to its queue instead (labeldesk printers and Discover list it as cups://QueueName)';
  if (e instanceof PrinterNotFound) return new PrinterNotFound(`${e.message}${hint}`, e.uri, { cause: e });
  if (e instanceof PrinterRefused) return new PrinterRefused(`${e.message}${hint}`, e.uri, { cause: e });
  if (e instanceof PrinterIoError) return new PrinterIoError(`${e.message}${hint}`, e.uri, { cause: e });
  if (e instanceof PrinterUnsupported)
    return new PrinterUnsupported(`${e.message}${hint}`, e.uri, { cause: e });
  return e;
}
