/**
 * Raw TCP ("port 9100", JetDirect): the job's bytes on a socket, status answers on the same socket.
 */
import { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
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
import { formatPrinterUri, type TcpUri } from '../../printers/uri';
import { StreamTransport } from './stream-transport';

/** Longest wait for the printer to acknowledge the end of the connection, in ms. */
const CLOSE_TIMEOUT_MS = 5_000;

export class TcpTransport extends StreamTransport {
  constructor(private readonly target: TcpUri) {
    super(formatPrinterUri(target));
  }

  protected connect(options: OpenOptions): Promise<Duplex> {
    const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUTS.openMs;
    return new Promise((resolve, reject) => {
      const socket = new Socket();
      const timer = setTimeout(() => {
        socket.destroy();
        reject(new PrinterTimeout(`${this.uri}: no connection within ${timeoutMs} ms`, this.uri, 'open'));
      }, timeoutMs);
      socket.once('error', (e) => {
        clearTimeout(timer);
        socket.destroy();
        reject(this.mapError(e, 0, 0));
      });
      socket.connect({ host: this.target.host, port: this.target.port }, () => {
        clearTimeout(timer);
        socket.removeAllListeners('error');
        // Status queries are a few bytes: send them at once rather than waiting for Nagle.
        socket.setNoDelay(true);
        socket.setKeepAlive(true, 30_000);
        resolve(socket);
      });
    });
  }

  protected mapError(error: Error, bytesWritten: number, totalBytes: number): PrinterError {
    const code = (error as NodeJS.ErrnoException).code ?? '';
    const where = `${this.target.host}:${this.target.port}`;
    switch (code) {
      case 'ECONNREFUSED':
        return new PrinterRefused(
          `${this.uri}: connection refused (nothing listening on ${where}, or the printer is busy with another host)`,
          this.uri,
          { cause: error },
        );
      case 'ENOTFOUND':
      case 'EAI_AGAIN':
        return new PrinterNotFound(`${this.uri}: unknown host ${this.target.host}`, this.uri, {
          cause: error,
        });
      case 'EHOSTUNREACH':
      case 'ENETUNREACH':
        return new PrinterNotFound(`${this.uri}: ${where} is unreachable`, this.uri, { cause: error });
      case 'ETIMEDOUT':
        return new PrinterTimeout(
          `${this.uri}: connection to ${where} timed out`,
          this.uri,
          bytesWritten ? 'write' : 'open',
          bytesWritten,
          undefined,
          { cause: error },
        );
      case 'ECONNRESET':
      case 'EPIPE':
      case 'ECONNABORTED':
      case 'ERR_STREAM_DESTROYED':
      case 'ERR_STREAM_WRITE_AFTER_END':
      case '':
        return new PrinterDisconnected(
          `${this.uri}: connection lost after ${bytesWritten} of ${totalBytes} bytes (${code || error.message})`,
          this.uri,
          bytesWritten,
          totalBytes,
          { cause: error },
        );
      default:
        return new PrinterIoError(`${this.uri}: ${error.message}`, this.uri, { cause: error });
    }
  }

  protected override discard(stream: Duplex): Promise<void> {
    // A reset, not a FIN: the kernel drops unsent bytes instead of delivering them after we gave up.
    (stream as Socket).resetAndDestroy();
    return Promise.resolve();
  }

  protected shutdown(stream: Duplex): Promise<void> {
    // Half-close and wait for the printer to close its side, so every byte is flushed before we report done.
    return new Promise((resolve, reject) => {
      const socket = stream as Socket;
      const timer = setTimeout(() => {
        socket.destroy();
        resolve();
      }, CLOSE_TIMEOUT_MS);
      let failure: Error | undefined;
      socket.on('error', (e) => (failure = e));
      socket.once('close', () => {
        clearTimeout(timer);
        if (failure && (failure as NodeJS.ErrnoException).code === 'ECONNRESET') {
          reject(
            new PrinterDisconnected(
              `${this.uri}: connection reset while closing; the end of the job may not have arrived`,
              this.uri,
              0,
              0,
              { cause: failure },
            ),
          );
        } else resolve();
      });
      socket.end();
    });
  }
}

/** A raw TCP transport for `tcp://host:port` (not yet open). */
export function createTcpTransport(uri: TcpUri): TcpTransport {
  return new TcpTransport(uri);
}
