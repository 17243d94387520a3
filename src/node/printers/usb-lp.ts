/**
 * Linux fallback for USB printers: the `usblp` kernel driver's character device `/dev/usb/lpN`. Used when libusb
 * may not claim the device (no udev rule, driver detach not allowed) or node-usb is unavailable. Bidirectional
 * printers answer status queries through the same file; reads are non-blocking and polled until the deadline.
 */
import { constants } from 'node:fs';
import { open, readFile, readdir, realpath, type FileHandle } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import {
  DEFAULT_TIMEOUTS,
  PrinterDisconnected,
  PrinterIoError,
  PrinterNotFound,
  PrinterRefused,
  PrinterTimeout,
  toBytes,
  type PrinterError,
  type PrinterTransport,
  type RequestOptions,
  type TransportCapabilities,
  type WriteOptions,
} from '../../printers/transport';
import { serialQueue } from '../../base/serial-queue';

/** How often a non-blocking device is polled while waiting, in ms. */
const POLL_MS = 10;
const CHUNK_BYTES = 16 * 1024;

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * `/dev/usb/lpN` of the printer with this vendor:product (and serial), found through sysfs
 * (`/sys/class/usbmisc/lpN/device/..` is the USB device with idVendor, idProduct, serial). Undefined when none.
 */
export async function findUsbLpDevice(
  vendorId: number,
  productId: number,
  serial?: string,
  roots: { sys?: string; dev?: string } = {},
): Promise<string | undefined> {
  const sys = roots.sys ?? '/sys';
  const classDir = join(sys, 'class/usbmisc');
  let names: string[];
  try {
    names = (await readdir(classDir)).filter((n) => /^lp\d+$/.test(n)).sort();
  } catch {
    return undefined;
  }
  const read = async (path: string): Promise<string | undefined> => {
    try {
      return (await readFile(path, 'utf8')).trim();
    } catch {
      return undefined;
    }
  };
  for (const name of names) {
    // `device` links to the USB interface; its parent directory is the USB device. Resolved, not joined:
    // path.join would cancel "device/.." lexically.
    let usbDevice: string;
    try {
      usbDevice = dirname(await realpath(join(classDir, name, 'device')));
    } catch {
      continue;
    }
    const [vid, pid, sn] = await Promise.all([
      read(join(usbDevice, 'idVendor')),
      read(join(usbDevice, 'idProduct')),
      read(join(usbDevice, 'serial')),
    ]);
    if (vid === undefined || pid === undefined) continue;
    if (parseInt(vid, 16) !== vendorId || parseInt(pid, 16) !== productId) continue;
    if (serial !== undefined && sn !== serial) continue;
    return join(roots.dev ?? '/dev', 'usb', name);
  }
  return undefined;
}

export class UsbLpTransport implements PrinterTransport {
  readonly capabilities: TransportCapabilities = { status: true };
  private handle: FileHandle | undefined;
  private readonly queue = serialQueue();

  constructor(
    /** The usb:// URI this stands in for. */
    readonly uri: string,
    readonly devicePath: string,
  ) {}

  async open(): Promise<void> {
    if (this.handle) return;
    try {
      this.handle = await open(this.devicePath, constants.O_RDWR | constants.O_NONBLOCK);
    } catch (e) {
      throw this.mapError(e as NodeJS.ErrnoException, 0, 0);
    }
  }

  write(data: Uint8Array | string, options: WriteOptions = {}): Promise<void> {
    return this.serialised(() =>
      this.writeNow(toBytes(data), options.timeoutMs ?? DEFAULT_TIMEOUTS.writeStallMs),
    );
  }

  request(data: Uint8Array | string, options: RequestOptions): Promise<Uint8Array> {
    return this.serialised(async () => {
      const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUTS.requestMs;
      await this.drain();
      await this.writeNow(toBytes(data), timeoutMs);
      const deadline = Date.now() + timeoutMs;
      const chunks: Buffer[] = [];
      let received: Uint8Array = new Uint8Array(0);
      while (!options.isComplete(received)) {
        if (Date.now() >= deadline) {
          throw new PrinterTimeout(
            `${this.uri}: no complete answer within ${timeoutMs} ms`,
            this.uri,
            'request',
            0,
            received,
          );
        }
        const chunk = await this.readSome();
        if (chunk.length) {
          chunks.push(chunk);
          received = Buffer.concat(chunks);
        } else await sleep(POLL_MS);
      }
      return received;
    });
  }

  async close(): Promise<void> {
    const handle = this.handle;
    if (!handle) return;
    await this.queue.idle();
    this.handle = undefined;
    await handle.close().catch(() => undefined);
  }

  private serialised<T>(operation: () => Promise<T>): Promise<T> {
    return this.queue.run(operation);
  }

  private async writeNow(bytes: Uint8Array, stallMs: number): Promise<void> {
    const handle = this.handle;
    if (!handle) throw new PrinterDisconnected(`${this.uri}: not open`, this.uri, 0, bytes.length);
    let written = 0;
    let stalledSince = Date.now();
    while (written < bytes.length) {
      let n = 0;
      try {
        ({ bytesWritten: n } = await handle.write(
          bytes,
          written,
          Math.min(CHUNK_BYTES, bytes.length - written),
        ));
      } catch (e) {
        const code = (e as NodeJS.ErrnoException).code;
        if (code !== 'EAGAIN' && code !== 'EWOULDBLOCK')
          throw this.mapError(e as NodeJS.ErrnoException, written, bytes.length);
      }
      if (n > 0) {
        written += n;
        stalledSince = Date.now();
      } else if (Date.now() - stalledSince > stallMs) {
        throw new PrinterTimeout(
          `${this.uri}: printer stopped accepting data after ${written} of ${bytes.length} bytes`,
          this.uri,
          'write',
          written,
        );
      } else await sleep(POLL_MS);
    }
  }

  /** Whatever is readable now (empty when nothing is). */
  private async readSome(): Promise<Buffer> {
    const handle = this.handle;
    if (!handle) throw new PrinterDisconnected(`${this.uri}: not open`, this.uri, 0, 0);
    const buffer = Buffer.alloc(4096);
    try {
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, null);
      return buffer.subarray(0, bytesRead);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'EAGAIN' || code === 'EWOULDBLOCK') return Buffer.alloc(0);
      throw this.mapError(e as NodeJS.ErrnoException, 0, 0);
    }
  }

  /** Drops a late answer to an earlier query. */
  private async drain(): Promise<void> {
    for (let i = 0; i < 64; i++) if ((await this.readSome()).length === 0) return;
  }

  private mapError(e: NodeJS.ErrnoException, bytesWritten: number, totalBytes: number): PrinterError {
    const cause = { cause: e };
    switch (e.code) {
      case 'ENOENT':
      case 'ENXIO':
        return new PrinterNotFound(`${this.uri}: ${this.devicePath} does not exist`, this.uri, cause);
      case 'EACCES':
      case 'EPERM':
        return new PrinterRefused(
          `${this.uri}: permission denied on ${this.devicePath} (join the lp group)`,
          this.uri,
          cause,
        );
      case 'EBUSY':
        return new PrinterRefused(`${this.uri}: ${this.devicePath} is in use`, this.uri, cause);
      case 'ENODEV':
      case 'EIO':
        return new PrinterDisconnected(
          `${this.uri}: device unplugged after ${bytesWritten} of ${totalBytes} bytes`,
          this.uri,
          bytesWritten,
          totalBytes,
          cause,
        );
      default:
        return new PrinterIoError(`${this.uri}: ${e.message}`, this.uri, cause);
    }
  }
}

/** A transport on a usblp device file (not yet open). */
export function createUsbLpTransport(uri: string, devicePath: string): UsbLpTransport {
  return new UsbLpTransport(uri, devicePath);
}
