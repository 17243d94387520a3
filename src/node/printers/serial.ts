/**
 * Serial (RS-232, USB-serial adapters): the URI's baud, parity, data bits, stop bits and flow control must match
 * the printer's port settings (Zebra's factory default is 9600 8N1, which is the URI default).
 */
import type { Duplex } from 'node:stream';
import type { SerialPort as SerialPortClass } from 'serialport';
import {
  DEFAULT_TIMEOUTS,
  PrinterDisconnected,
  PrinterIoError,
  PrinterNotFound,
  PrinterRefused,
  PrinterTimeout,
  type OpenOptions,
  type PrinterError,
} from '../../printers/transport';
import { formatPrinterUri, type SerialUri } from '../../printers/uri';
import { StreamTransport } from './stream-transport';

/** Longest wait for queued bytes to leave the port when closing, in ms. */
const DRAIN_TIMEOUT_MS = 10_000;

/** serialport's SerialPort, loaded on first use: it is a native module the rest of the app never needs. */
async function loadSerialPort(): Promise<typeof SerialPortClass> {
  const { SerialPort } = await import('serialport');
  return SerialPort;
}

export class SerialTransport extends StreamTransport {
  constructor(private readonly target: SerialUri) {
    super(formatPrinterUri(target));
  }

  protected async connect(options: OpenOptions): Promise<Duplex> {
    const SerialPort = await loadSerialPort();
    const t = this.target;
    const port = new SerialPort({
      path: t.path,
      baudRate: t.baudRate,
      dataBits: t.dataBits,
      stopBits: t.stopBits,
      parity: t.parity,
      rtscts: t.flow === 'rtscts',
      xon: t.flow === 'xonxoff',
      xoff: t.flow === 'xonxoff',
      autoOpen: false,
    });
    const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUTS.openMs;
    await new Promise<void>((resolve, reject) => {
      let timedOut = false;
      const timer = setTimeout(() => {
        timedOut = true;
        reject(new PrinterTimeout(`${this.uri}: port did not open within ${timeoutMs} ms`, this.uri, 'open'));
      }, timeoutMs);
      port.open((error) => {
        clearTimeout(timer);
        if (timedOut) {
          if (!error) port.close();
        } else if (error) reject(this.mapError(error, 0, 0));
        else resolve();
      });
    });
    return port;
  }

  protected mapError(error: Error, bytesWritten: number, totalBytes: number): PrinterError {
    // serialport reports errno text in the message ("Error: No such file or directory, cannot open /dev/ttyX").
    const message = error.message;
    if (/No such file|ENOENT|cannot find|File not found/i.test(message)) {
      return new PrinterNotFound(`${this.uri}: no serial port ${this.target.path}`, this.uri, {
        cause: error,
      });
    }
    if (/Permission denied|EACCES|Access denied/i.test(message)) {
      return new PrinterRefused(
        `${this.uri}: permission denied on ${this.target.path} (on Linux, join the dialout group)`,
        this.uri,
        { cause: error },
      );
    }
    if (/busy|EBUSY|locked/i.test(message)) {
      return new PrinterRefused(`${this.uri}: ${this.target.path} is in use by another program`, this.uri, {
        cause: error,
      });
    }
    if (
      /closed|disconnected|EIO|ENXIO|ENODEV|destroyed/i.test(message) ||
      (error as NodeJS.ErrnoException).code === 'ERR_STREAM_DESTROYED'
    ) {
      return new PrinterDisconnected(
        `${this.uri}: port closed after ${bytesWritten} of ${totalBytes} bytes (${message})`,
        this.uri,
        bytesWritten,
        totalBytes,
        { cause: error },
      );
    }
    return new PrinterIoError(`${this.uri}: ${message}`, this.uri, { cause: error });
  }

  protected override discard(stream: Duplex): Promise<void> {
    const port = stream as SerialPortClass;
    // tcflush: bytes still queued in the OS for the UART are dropped rather than sent after we gave up. Then
    // close (serialport's destroy() leaves the port open and locked: the next open would fail "Cannot lock").
    return new Promise((resolve) => {
      if (!port.isOpen) {
        port.destroy();
        resolve();
        return;
      }
      const timer = setTimeout(() => {
        port.destroy();
        resolve();
      }, DRAIN_TIMEOUT_MS);
      const done = (): void => {
        clearTimeout(timer);
        resolve();
      };
      port.flush(() => {
        if (port.isOpen) port.close(() => done());
        else done();
      });
    });
  }

  protected shutdown(stream: Duplex): Promise<void> {
    const port = stream as SerialPortClass;
    return new Promise((resolve) => {
      // Drain (tcdrain) so the job's last bytes leave the UART before the port is closed.
      const timer = setTimeout(() => port.close(() => resolve()), DRAIN_TIMEOUT_MS);
      port.drain(() => {
        clearTimeout(timer);
        if (port.isOpen) port.close(() => resolve());
        else resolve();
      });
    });
  }
}

/** A serial transport for `serial://...` (not yet open). */
export function createSerialTransport(uri: SerialUri): SerialTransport {
  return new SerialTransport(uri);
}
