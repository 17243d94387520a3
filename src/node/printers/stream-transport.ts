/**
 * What TCP and serial transports share: a Node duplex stream carrying the printer's bytes both ways. Writes go
 * out in chunks, each awaited until the OS accepted it (the write callback), so `bytesWritten` is exact and
 * backpressure is real; incoming bytes feed the request/response collector.
 */
import type { Duplex } from 'node:stream';
import { ResponseCollector } from '../../printers/response-collector';
import {
  DEFAULT_TIMEOUTS,
  PrinterDisconnected,
  PrinterError,
  PrinterTimeout,
  toBytes,
  type OpenOptions,
  type PrinterTransport,
  type RequestOptions,
  type TransportCapabilities,
  type WriteOptions,
} from '../../printers/transport';
import { serialQueue } from '../../base/serial-queue';

/** 64 KiB: large enough to keep a 9100 socket busy, small enough that bytesWritten is fine-grained. */
const CHUNK_BYTES = 64 * 1024;

interface WriteInProgress {
  fail: (error: Error) => void;
}

export abstract class StreamTransport implements PrinterTransport {
  readonly capabilities: TransportCapabilities = { status: true };
  protected stream: Duplex | undefined;
  private collector: ResponseCollector;
  private writing: WriteInProgress | undefined;
  /** Why the stream ended, once it has. */
  private ended: Error | undefined;
  private readonly queue = serialQueue();

  constructor(readonly uri: string) {
    this.collector = new ResponseCollector(uri);
  }

  /** Opens the underlying stream; rejects with a PrinterError. */
  protected abstract connect(options: OpenOptions): Promise<Duplex>;
  /** Turns a stream error into the right PrinterError. */
  protected abstract mapError(error: Error, bytesWritten: number, totalBytes: number): PrinterError;
  /** Ends the stream politely, resolving once it is closed. */
  protected abstract shutdown(stream: Duplex): Promise<void>;
  /**
   * Ends the stream at once, discarding what the printer has not read where the link allows it; resolves once
   * the link is released (a serial port must be closed before it can be opened again).
   */
  protected discard(stream: Duplex): Promise<void> {
    stream.destroy();
    return Promise.resolve();
  }

  async open(options: OpenOptions = {}): Promise<void> {
    if (this.stream) return;
    const stream = await this.connect(options);
    this.stream = stream;
    this.ended = undefined;
    stream.on('data', (chunk: Buffer) => this.collector.push(chunk));
    stream.on('error', (e: Error) => this.lost(e));
    stream.on('close', () => this.lost(undefined));
  }

  write(data: Uint8Array | string, options: WriteOptions = {}): Promise<void> {
    return this.serialised(() =>
      this.writeNow(toBytes(data), options.timeoutMs ?? DEFAULT_TIMEOUTS.writeStallMs),
    );
  }

  request(data: Uint8Array | string, options: RequestOptions): Promise<Uint8Array> {
    const bytes = toBytes(data);
    return this.serialised(() =>
      this.collector.request(
        () => this.writeNow(bytes, options.timeoutMs ?? DEFAULT_TIMEOUTS.requestMs),
        options,
      ),
    );
  }

  async close(): Promise<void> {
    const stream = this.stream;
    if (!stream) return;
    await this.queue.idle();
    this.stream = undefined;
    if (!stream.destroyed) await this.shutdown(stream);
  }

  async abort(): Promise<void> {
    const stream = this.stream;
    this.stream = undefined;
    const discarded = stream && !stream.destroyed ? this.discard(stream) : Promise.resolve();
    await this.queue.idle();
    await discarded.catch(() => undefined);
  }

  /** One operation at a time: a status query never interleaves with a job's bytes. */
  private serialised<T>(operation: () => Promise<T>): Promise<T> {
    return this.queue.run(operation);
  }

  private async writeNow(bytes: Uint8Array, stallMs: number): Promise<void> {
    const stream = this.stream;
    if (!stream || this.ended || stream.destroyed) {
      throw new PrinterDisconnected(`${this.uri}: not connected`, this.uri, 0, bytes.length, {
        cause: this.ended,
      });
    }
    let written = 0;
    while (written < bytes.length) {
      const chunk = bytes.subarray(written, Math.min(bytes.length, written + CHUNK_BYTES));
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => {
          this.writing = undefined;
          // The printer stopped reading: drop the link and what is still queued for it, so the half-sent
          // job cannot print later (a printer discards a format cut short).
          void this.discard(stream).catch(() => undefined);
          reject(
            new PrinterTimeout(
              `${this.uri}: printer stopped accepting data for ${stallMs} ms after ${written} of ${bytes.length} bytes`,
              this.uri,
              'write',
              written,
            ),
          );
        }, stallMs);
        const done = (error?: Error | null): void => {
          clearTimeout(timer);
          this.writing = undefined;
          if (error)
            reject(error instanceof PrinterError ? error : this.mapError(error, written, bytes.length));
          else resolve();
        };
        this.writing = { fail: (e) => done(e) };
        stream.write(chunk, (error) => done(error));
      });
      written += chunk.length;
    }
  }

  /** The stream errored or closed: fail whatever was waiting on it. */
  private lost(error: Error | undefined): void {
    const reason = error ?? new Error('connection closed by the printer');
    this.ended ??= reason;
    const writing = this.writing;
    if (writing) writing.fail(reason);
    this.collector.fail(
      error
        ? this.mapError(error, 0, 0)
        : new PrinterDisconnected(`${this.uri}: connection closed by the printer`, this.uri, 0, 0),
    );
  }
}
