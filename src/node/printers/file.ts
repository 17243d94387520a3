/**
 * "Print to file": the job's bytes go to a file, for checking ZPL by eye, Labelary, or handing a job to another
 * system. By default the file is replaced when a transport first opens it and a reopen of the same transport
 * adds to it; with `append` (the job queue's choice) every open adds to it, as labels accumulate in a printer:
 * a job that resumes after a hold, a skip or a restart opens a new transport and must not erase the labels it
 * already confirmed. Files do not answer status queries.
 */
import { open, type FileHandle } from 'node:fs/promises';
import {
  PrinterDisconnected,
  PrinterIoError,
  PrinterNotFound,
  PrinterRefused,
  PrinterUnsupported,
  toBytes,
  type PrinterError,
  type PrinterTransport,
  type TransportCapabilities,
} from '../../printers/transport';
import { formatPrinterUri, type FileUri } from '../../printers/uri';

export interface FileTransportOptions {
  /** Every open adds to the file (default: the first open replaces it). */
  append?: boolean;
}

export class FileTransport implements PrinterTransport {
  readonly uri: string;
  readonly capabilities: TransportCapabilities = { status: false };
  private handle: FileHandle | undefined;
  /** Opened before: a job that reopens its file (the job queue submits in parts) adds to it. */
  private started = false;

  constructor(
    private readonly target: FileUri,
    private readonly options: FileTransportOptions = {},
  ) {
    this.uri = formatPrinterUri(target);
  }

  async open(): Promise<void> {
    if (this.handle) return;
    try {
      this.handle = await open(this.target.path, this.started || this.options.append ? 'a' : 'w');
      this.started = true;
    } catch (e) {
      throw this.mapError(e as NodeJS.ErrnoException, 0, 0);
    }
  }

  async write(data: Uint8Array | string): Promise<void> {
    const handle = this.handle;
    const bytes = toBytes(data);
    if (!handle) throw new PrinterDisconnected(`${this.uri}: not open`, this.uri, 0, bytes.length);
    let written = 0;
    try {
      // FileHandle.write may write less than asked (full disk, signals): continue with the rest.
      while (written < bytes.length)
        written += (await handle.write(bytes, written, bytes.length - written)).bytesWritten;
    } catch (e) {
      throw this.mapError(e as NodeJS.ErrnoException, written, bytes.length);
    }
  }

  request(): Promise<Uint8Array> {
    return Promise.reject(
      new PrinterUnsupported(`${this.uri}: a file does not report printer status`, this.uri),
    );
  }

  async close(): Promise<void> {
    const handle = this.handle;
    this.handle = undefined;
    if (!handle) return;
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  }

  private mapError(e: NodeJS.ErrnoException, bytesWritten: number, totalBytes: number): PrinterError {
    const path = this.target.path;
    const cause = { cause: e };
    switch (e.code) {
      case 'ENOENT':
      case 'ENOTDIR':
        return new PrinterNotFound(`${this.uri}: the folder of ${path} does not exist`, this.uri, cause);
      case 'EACCES':
      case 'EPERM':
      case 'EROFS':
      case 'EISDIR':
        return new PrinterRefused(
          `${this.uri}: cannot write ${path} (${e.code === 'EISDIR' ? 'it is a folder' : 'permission denied'})`,
          this.uri,
          cause,
        );
      default:
        return new PrinterIoError(
          `${this.uri}: writing ${path} failed after ${bytesWritten} of ${totalBytes} bytes: ${e.message}`,
          this.uri,
          cause,
        );
    }
  }
}

/** A transport for `file:///path` (not yet open). */
export function createFileTransport(uri: FileUri, options: FileTransportOptions = {}): FileTransport {
  return new FileTransport(uri, options);
}
