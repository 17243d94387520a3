/**
 * The one port every printer connection implements (TCP 9100, USB, serial, OS queues, files), and the typed
 * errors it fails with. Concrete transports live in `src/node/printers/`; everything in `src/` (status queries,
 * jobs) sees only this interface.
 *
 * Lifecycle: `open()` once, any number of `write()`/`request()` calls (one at a time: callers await each), then
 * `close()`. Every operation has a timeout, so a dead printer never hangs a print.
 */
import { KindedError } from '../base/error-kind';

/** What a transport can do beyond writing bytes. */
export interface TransportCapabilities {
  /**
   * Whether `request()` can read the printer's answers (~HS, ~HI, SGD). True for TCP, USB (bulk IN) and serial;
   * false for OS queues and files, which only accept jobs.
   */
  readonly status: boolean;
}

export interface OpenOptions {
  /** Longest wait for the connection (TCP connect, device open), in ms. */
  timeoutMs?: number;
}

export interface WriteOptions {
  /**
   * Longest wait, in ms, for the OS to accept the next chunk. A stall timeout rather than a total one: a 4 MB
   * job over 9600 baud serial legitimately takes minutes, but a printer that stops reading for this long has
   * hung (or is paused with a full buffer).
   */
  timeoutMs?: number;
}

export interface RequestOptions {
  /** Longest wait for a complete answer, in ms, from the moment the request was written. */
  timeoutMs?: number;
  /**
   * Whether the bytes received so far are a complete answer (e.g. three `<ETX>` for `~HS`). The transport keeps
   * reading until this returns true or the timeout passes.
   */
  isComplete: (received: Uint8Array) => boolean;
}

/** A connection to one printer. */
export interface PrinterTransport {
  /** The canonical URI it was opened for (see uri.ts). */
  readonly uri: string;
  readonly capabilities: TransportCapabilities;
  /** Connects / opens the device. Rejects with PrinterRefused, PrinterNotFound or PrinterTimeout. */
  open(options?: OpenOptions): Promise<void>;
  /**
   * Writes `data` (strings as UTF-8) with backpressure: resolves once the OS has accepted every byte (socket,
   * tty or USB transfer completed), not when the printer has printed. Rejects with PrinterDisconnected (with
   * `bytesWritten`) when the link drops mid-job, PrinterTimeout when the printer stops reading.
   */
  write(data: Uint8Array | string, options?: WriteOptions): Promise<void>;
  /**
   * Writes a query and collects the answer. Bytes that arrived before the request (a late answer to an earlier
   * query that timed out) are discarded first. Rejects with PrinterTimeout (carrying whatever partial answer
   * came) or PrinterUnsupported when `capabilities.status` is false.
   */
  request(data: Uint8Array | string, options: RequestOptions): Promise<Uint8Array>;
  /** Flushes and releases the connection. Safe to call twice and after a failure. */
  close(): Promise<void>;
  /**
   * Drops the connection at once, discarding bytes the printer has not read yet where the link allows it (a TCP
   * reset; a serial port's output buffer flushed), so a job that was not confirmed cannot print later. Safe to
   * call twice and after a failure. Transports without it are closed instead.
   */
  abort?(): Promise<void>;
}

/** Default timeouts in ms, shared by every transport so they behave alike. */
export const DEFAULT_TIMEOUTS = {
  /** TCP connect / device open. */
  openMs: 5_000,
  /** No progress on a write for this long. */
  writeStallMs: 30_000,
  /** A status answer (~HS answers within a few ms on a healthy printer). */
  requestMs: 2_000,
} as const;

/** Strings go to printers as UTF-8 (ZPL with `^CI28`); plain ASCII ZPL is unchanged by it. */
/** Opens `transport` and resolves with it; one that fails to open is closed (never left half-open) and rethrown. */
export async function openedTransport(
  transport: PrinterTransport,
  options?: OpenOptions,
): Promise<PrinterTransport> {
  try {
    await transport.open(options);
  } catch (e) {
    await transport.close().catch(() => undefined);
    throw e;
  }
  return transport;
}

export function toBytes(data: Uint8Array | string): Uint8Array {
  return typeof data === 'string' ? new TextEncoder().encode(data) : data;
}

/** Discriminant of every printer error, stable for JSON and IPC. */
export type PrinterErrorCode = 'refused' | 'timeout' | 'disconnected' | 'not-found' | 'unsupported' | 'io';

/** Base of the transport errors. Messages are one line, for the user, and name the printer. */
export abstract class PrinterError extends KindedError {
  get kind() {
    return 'printer-transport' as const;
  }

  abstract readonly code: PrinterErrorCode;
  constructor(
    message: string,
    /** The printer URI the error is about. */
    readonly uri: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/**
 * The printer or its OS service said no: connection refused, permission denied, queue not accepting jobs,
 * USB endpoint stalled.
 */
export class PrinterRefused extends PrinterError {
  override name = 'PrinterRefused';
  readonly code = 'refused';
}

/** An operation did not finish in time. */
export class PrinterTimeout extends PrinterError {
  override name = 'PrinterTimeout';
  readonly code = 'timeout';
  constructor(
    message: string,
    uri: string,
    /** Which step timed out. */
    readonly phase: 'open' | 'write' | 'request' | 'close',
    /** For writes: bytes the OS accepted before the stall. */
    readonly bytesWritten = 0,
    /** For requests: the partial answer received before the deadline (empty when the printer was silent). */
    readonly received: Uint8Array = new Uint8Array(0),
    options?: { cause?: unknown },
  ) {
    super(message, uri, options);
  }
}

/**
 * The link dropped after it was open (peer reset, cable pulled, device unplugged). `bytesWritten` is how much
 * of the current write the OS had confirmed as accepted. It is neither bound on what reached the printer: the
 * chunk in flight when the link dropped counts as 0 even if it arrived, and accepted bytes may still have been
 * lost in the OS buffers. Only the printer can say what it received (the job worker asks with `~HS`).
 */
export class PrinterDisconnected extends PrinterError {
  override name = 'PrinterDisconnected';
  readonly code = 'disconnected';
  constructor(
    message: string,
    uri: string,
    readonly bytesWritten: number,
    /** Size of the write that was interrupted (0 when not writing). */
    readonly totalBytes: number,
    options?: { cause?: unknown },
  ) {
    super(message, uri, options);
  }
}

/** No such printer: unknown host, no USB device with that id, no such serial port or queue. */
export class PrinterNotFound extends PrinterError {
  override name = 'PrinterNotFound';
  readonly code = 'not-found';
}

/** The transport cannot do this (reading status from an OS queue or a file). */
export class PrinterUnsupported extends PrinterError {
  override name = 'PrinterUnsupported';
  readonly code = 'unsupported';
}

/** Any other failure of the OS or of a helper program (disk full, `lp` exiting with an unknown error). */
export class PrinterIoError extends PrinterError {
  override name = 'PrinterIoError';
  readonly code = 'io';
}
