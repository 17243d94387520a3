/**
 * Windows print queues through the spooler in RAW mode: `cups://Name` on Windows is the spooler queue `Name`
 * (a USB Zebra's driver queue, a network printer's queue). The bytes go through winspool.drv
 * (src/node/printers/windows-spooler.ts, koffi) with datatype RAW, which hands them to the port monitor unchanged —
 * the counterpart of `lp -o raw`, and how QZ Tray, BarTender and ZebraDesigner print:
 *
 *   OpenPrinterW → StartDocPrinterW(level 1, RAW) → StartPagePrinter → WritePrinter(chunk)… →
 *   EndPagePrinter → EndDocPrinter → ClosePrinter (always, in a finally).
 *
 * Like the CUPS transport, one session is one spooled job: `open()` opens the queue (a wrong name fails
 * there), the first `write()` starts the document, and `close()` ends it — the spooler has then accepted the
 * whole job, which is what "confirmed" means for a queue. `abort()` deletes the unfinished job (AbortPrinter),
 * so bytes of a job that was not confirmed never print. The spooler passes no answers back, so
 * `capabilities.status` is false (a queue on a Standard TCP/IP port can be asked directly: windows-queues.ts).
 *
 * Win32 errors become typed errors: 1801 ERROR_INVALID_PRINTER_NAME → PrinterNotFound, 5 ERROR_ACCESS_DENIED →
 * PrinterRefused, 1722 (the Print Spooler service is not running) → PrinterRefused, a job cancelled or a queue
 * deleted while writing → PrinterDisconnected, any other → PrinterIoError with the code.
 */
import {
  DEFAULT_TIMEOUTS,
  PrinterDisconnected,
  PrinterIoError,
  PrinterNotFound,
  PrinterRefused,
  PrinterTimeout,
  PrinterUnsupported,
  toBytes,
  type PrinterError,
  type PrinterTransport,
  type TransportCapabilities,
  type WriteOptions,
} from '../../printers/transport';
import { formatPrinterUri, type CupsUri } from '../../printers/uri';
import { loadSpooler, Win32Error, WIN32, type PrinterHandle, type SpoolerApi } from './windows-spooler';

export interface WinspoolTransportOptions {
  /** `raw` (ZPL, default). `pdf` is refused: see the README's Windows section. */
  contentType?: 'raw' | 'pdf';
  /** Job title shown in the queue. Default "LabelDesk". */
  title?: string;
  /** The spooler API (default: winspool.drv through koffi, loaded on first use). */
  spooler?: () => Promise<SpoolerApi>;
}

/** Bytes per WritePrinter call: large enough to be quick, small enough to yield to the event loop between. */
const CHUNK_BYTES = 64 * 1024;
/** Pause, in ms, after a WritePrinter call that took no bytes. */
const NO_PROGRESS_PAUSE_MS = 50;

export class WinspoolTransport implements PrinterTransport {
  readonly uri: string;
  readonly capabilities: TransportCapabilities = { status: false };
  /** The spooler's job id of the last job started on this session. */
  jobId: number | undefined;
  private api: SpoolerApi | undefined;
  private handle: PrinterHandle | undefined;
  private docStarted = false;

  constructor(
    private readonly target: CupsUri,
    private readonly options: WinspoolTransportOptions = {},
  ) {
    this.uri = formatPrinterUri(target);
  }

  /** Opens the queue, so a wrong name fails before anything is rendered. */
  async open(): Promise<void> {
    if ((this.options.contentType ?? 'raw') === 'pdf') {
      throw new PrinterUnsupported(
        `${this.uri}: printing PDF to the Windows queue "${this.target.queue}" is not supported in this version; ` +
          'export the labels as PDF and print them from a PDF viewer, or pick a label printer queue',
        this.uri,
      );
    }
    if (this.handle !== undefined) return;
    const api = await this.spooler();
    this.handle = this.call(() => api.openPrinter(this.target.queue));
  }

  async write(data: Uint8Array | string, options: WriteOptions = {}): Promise<void> {
    const bytes = toBytes(data);
    if (this.handle === undefined) await this.open();
    const api = await this.spooler();
    const handle = this.handle as PrinterHandle;
    if (!this.docStarted) {
      this.jobId = this.call(() => api.startDoc(handle, this.options.title ?? 'LabelDesk', 'RAW'));
      this.docStarted = true;
      this.call(() => api.startPage(handle));
    }
    const stallMs = options.timeoutMs ?? DEFAULT_TIMEOUTS.writeStallMs;
    let written = 0;
    let progressAt = Date.now();
    while (written < bytes.length) {
      const chunk = bytes.subarray(written, Math.min(written + CHUNK_BYTES, bytes.length));
      let taken: number;
      try {
        taken = api.write(handle, chunk);
      } catch (e) {
        throw this.writeError(e, written, bytes.length);
      }
      if (taken > 0) {
        written += taken;
        progressAt = Date.now();
      } else if (Date.now() - progressAt >= stallMs) {
        throw new PrinterTimeout(
          `${this.uri}: the print spooler stopped taking the job`,
          this.uri,
          'write',
          written,
        );
      }
      // A short write is retried with the rest; between calls the event loop runs, and a spooler that took
      // nothing is given a moment before the next try.
      await new Promise<void>((resolve) =>
        taken > 0 ? setImmediate(resolve) : setTimeout(resolve, NO_PROGRESS_PAUSE_MS),
      );
    }
  }

  request(): Promise<Uint8Array> {
    return Promise.reject(
      new PrinterUnsupported(`${this.uri}: Windows print queues do not report printer status`, this.uri),
    );
  }

  /** Submits the job (EndDocPrinter: the spooler has accepted all of it) and closes the queue. */
  async close(): Promise<void> {
    const handle = this.handle;
    if (handle === undefined) return;
    const api = await this.spooler();
    this.handle = undefined;
    const started = this.docStarted;
    this.docStarted = false;
    try {
      if (started) {
        this.call(() => api.endPage(handle));
        this.call(() => api.endDoc(handle));
      }
    } catch (e) {
      // A job that could not be ended is deleted, not left half-spooled to print later.
      try {
        api.abort(handle);
      } catch {
        // Already gone.
      }
      throw e;
    } finally {
      // A failure to release the handle is not the job's: the job was accepted or its error is thrown.
      try {
        api.close(handle);
      } catch {
        // Nothing else to do with a handle that cannot be closed.
      }
    }
  }

  /** Deletes the unfinished job (nothing of it prints) and closes the queue. */
  async abort(): Promise<void> {
    const handle = this.handle;
    if (handle === undefined) return;
    const api = await this.spooler();
    this.handle = undefined;
    const started = this.docStarted;
    this.docStarted = false;
    try {
      if (started) this.call(() => api.abort(handle));
    } finally {
      try {
        api.close(handle);
      } catch {
        // As in close().
      }
    }
  }

  private async spooler(): Promise<SpoolerApi> {
    if (this.api) return this.api;
    try {
      this.api = await (this.options.spooler ?? loadSpooler)();
    } catch (e) {
      throw new PrinterIoError(
        `${this.uri}: the Windows print spooler could not be loaded (${(e as Error).message})`,
        this.uri,
        { cause: e },
      );
    }
    return this.api;
  }

  /** Runs one spooler call, its Win32Error as a typed printer error. */
  private call<T>(run: () => T): T {
    try {
      return run();
    } catch (e) {
      throw this.win32Error(e);
    }
  }

  private writeError(e: unknown, written: number, total: number): PrinterError {
    if (
      e instanceof Win32Error &&
      (e.code === WIN32.ERROR_PRINT_CANCELLED ||
        e.code === WIN32.ERROR_PRINTER_DELETED ||
        e.code === WIN32.ERROR_INVALID_HANDLE)
    ) {
      return new PrinterDisconnected(
        `${this.uri}: the job was cancelled or the queue removed after ${written} of ${total} bytes`,
        this.uri,
        written,
        total,
        { cause: e },
      );
    }
    return this.win32Error(e);
  }

  private win32Error(e: unknown): PrinterError {
    const queue = this.target.queue;
    if (!(e instanceof Win32Error)) {
      return new PrinterIoError(`${this.uri}: ${(e as Error).message}`, this.uri, { cause: e });
    }
    switch (e.code) {
      case WIN32.ERROR_INVALID_PRINTER_NAME:
      case WIN32.ERROR_PRINTER_DELETED:
        return new PrinterNotFound(`${this.uri}: no print queue named "${queue}"`, this.uri, { cause: e });
      case WIN32.ERROR_ACCESS_DENIED:
        return new PrinterRefused(
          `${this.uri}: not allowed to print to "${queue}" (access denied)`,
          this.uri,
          {
            cause: e,
          },
        );
      case WIN32.RPC_S_SERVER_UNAVAILABLE:
        return new PrinterRefused(
          `${this.uri}: the Windows Print Spooler service is not running; start it in Services`,
          this.uri,
          { cause: e },
        );
      case WIN32.ERROR_INVALID_DATATYPE:
        return new PrinterRefused(
          `${this.uri}: queue "${queue}" does not take RAW jobs (its print processor refuses them)`,
          this.uri,
          { cause: e },
        );
      default:
        return new PrinterIoError(
          `${this.uri}: ${e.call} failed for queue "${queue}" (Windows error ${e.code})`,
          this.uri,
          { cause: e },
        );
    }
  }
}

/** A transport for the Windows queue of `cups://Name` (not yet open). */
export function createWinspoolTransport(
  uri: CupsUri,
  options: WinspoolTransportOptions = {},
): WinspoolTransport {
  return new WinspoolTransport(uri, options);
}
