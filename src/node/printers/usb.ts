/**
 * USB printers through libusb (node-usb): find the device by vendor:product (and serial), claim its printer
 * interface, send the job on the bulk OUT endpoint in 16 KiB transfers and read status answers on bulk IN.
 *
 * - Linux: the `usblp` kernel driver usually holds the interface (it provides /dev/usb/lp0). We detach it for
 *   the session and reattach it on close, so other programs keep working. Where that is not allowed,
 *   open-transport.ts falls back to writing /dev/usb/lp* (usb-lp.ts).
 * - Short writes: a transfer may complete with fewer bytes than sent; the rest goes in the next transfer.
 * - Unplug mid-job: the transfer fails with NO_DEVICE → PrinterDisconnected with the bytes the device took.
 * - Windows: raw USB needs the WinUSB driver, which a printer does not have; print through the spooler
 *   (cups:// → Windows spooler RAW, see cups.ts).
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
  type OpenOptions,
  type PrinterError,
  type PrinterTransport,
  type RequestOptions,
  type TransportCapabilities,
  type WriteOptions,
} from '../../printers/transport';
import { formatPrinterUri, type UsbUri } from '../../printers/uri';
import {
  LIBUSB,
  USB_CLASS_PRINTER,
  USB_TRANSFER_TYPE_BULK,
  listSystemUsbDevices,
  readStringDescriptor,
  type ListUsbDevices,
  type UsbDeviceLike,
  type UsbErrorLike,
  type UsbInEndpointLike,
  type UsbInterfaceLike,
  type UsbOutEndpointLike,
} from './usb-device';
import { serialQueue } from '../../base/serial-queue';

/** Bytes per bulk OUT transfer: 16 KiB keeps libusb's buffers small and bytesWritten fine-grained. */
export const USB_CHUNK_BYTES = 16 * 1024;
/** A device that completes this many transfers in a row taking nothing has stopped accepting data. */
const MAX_EMPTY_TRANSFERS = 3;

export interface UsbTransportOptions {
  /** Device enumeration (tests pass emulated devices). Default: node-usb's getDeviceList. */
  listDevices?: ListUsbDevices;
  /** Whether to detach a kernel driver (Linux usblp). Default: process.platform === 'linux'. */
  detachKernelDriver?: boolean;
}

export class UsbTransport implements PrinterTransport {
  readonly uri: string;
  readonly capabilities: TransportCapabilities = { status: true };
  private device: UsbDeviceLike | undefined;
  private iface: UsbInterfaceLike | undefined;
  private out: UsbOutEndpointLike | undefined;
  private in: UsbInEndpointLike | undefined;
  private detached = false;
  private readonly queue = serialQueue();

  constructor(
    private readonly target: UsbUri,
    private readonly options: UsbTransportOptions = {},
  ) {
    this.uri = formatPrinterUri(target);
  }

  async open(_options: OpenOptions = {}): Promise<void> {
    if (this.device) return;
    const device = await this.find();
    try {
      device.open();
    } catch (e) {
      throw this.mapError(e, 'open');
    }
    const iface = pickPrinterInterface(device);
    let claimed = false;
    try {
      if (!iface)
        throw new PrinterUnsupported(`${this.uri}: no printer interface with a bulk OUT endpoint`, this.uri);
      const detach = this.options.detachKernelDriver ?? process.platform === 'linux';
      if (detach && iface.isKernelDriverActive()) {
        iface.detachKernelDriver();
        this.detached = true;
      }
      iface.claim();
      claimed = true;
    } catch (e) {
      await this.releaseQuietly(device, iface, claimed);
      throw e instanceof PrinterUnsupported ? e : this.mapError(e, 'open');
    }
    this.iface = iface;
    this.out = iface.endpoints.find(
      (e): e is UsbOutEndpointLike => e.direction === 'out' && e.transferType === USB_TRANSFER_TYPE_BULK,
    );
    this.in = iface.endpoints.find(
      (e): e is UsbInEndpointLike => e.direction === 'in' && e.transferType === USB_TRANSFER_TYPE_BULK,
    );
    this.device = device;
  }

  write(data: Uint8Array | string, options: WriteOptions = {}): Promise<void> {
    return this.serialised(() =>
      this.writeNow(toBytes(data), options.timeoutMs ?? DEFAULT_TIMEOUTS.writeStallMs),
    );
  }

  request(data: Uint8Array | string, options: RequestOptions): Promise<Uint8Array> {
    return this.serialised(async () => {
      const input = this.in;
      if (!input)
        throw new PrinterUnsupported(`${this.uri}: this printer has no bulk IN endpoint (one-way)`, this.uri);
      const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUTS.requestMs;
      await this.writeNow(toBytes(data), timeoutMs);
      const deadline = Date.now() + timeoutMs;
      let received: Uint8Array = new Uint8Array(0);
      while (!options.isComplete(received)) {
        const remaining = deadline - Date.now();
        if (remaining <= 0) {
          throw new PrinterTimeout(
            received.length
              ? `${this.uri}: incomplete answer after ${timeoutMs} ms`
              : `${this.uri}: no answer within ${timeoutMs} ms`,
            this.uri,
            'request',
            0,
            received,
          );
        }
        const chunk = await this.readIn(input, remaining);
        if (chunk.length) received = concat(received, chunk);
      }
      return received;
    });
  }

  async close(): Promise<void> {
    const device = this.device;
    if (!device) return;
    await this.queue.idle();
    this.device = undefined;
    const iface = this.iface;
    this.iface = this.out = this.in = undefined;
    await this.releaseQuietly(device, iface, true);
  }

  private serialised<T>(operation: () => Promise<T>): Promise<T> {
    return this.queue.run(operation);
  }

  private async find(): Promise<UsbDeviceLike> {
    const t = this.target;
    let devices: UsbDeviceLike[];
    try {
      devices = await (this.options.listDevices ?? listSystemUsbDevices)();
    } catch (e) {
      throw new PrinterIoError(`${this.uri}: cannot list USB devices (${(e as Error).message})`, this.uri, {
        cause: e,
      });
    }
    const matches = devices.filter(
      (d) => d.deviceDescriptor.idVendor === t.vendorId && d.deviceDescriptor.idProduct === t.productId,
    );
    for (const device of matches) {
      if (t.serial === undefined) return device;
      if ((await serialOf(device)) === t.serial) return device;
    }
    throw new PrinterNotFound(
      `${this.uri}: no USB device ${formatPrinterUri({ ...t, serial: undefined }).slice(6)}${t.serial ? ` with serial ${t.serial}` : ''} is connected` +
        (matches.length ? ` (found ${matches.length} with other serial numbers)` : ''),
      this.uri,
    );
  }

  private async writeNow(bytes: Uint8Array, stallMs: number): Promise<void> {
    const out = this.out;
    if (!this.device || !out)
      throw new PrinterDisconnected(`${this.uri}: not open`, this.uri, 0, bytes.length);
    let written = 0;
    let empty = 0;
    while (written < bytes.length) {
      const chunk = Buffer.from(
        bytes.buffer,
        bytes.byteOffset + written,
        Math.min(USB_CHUNK_BYTES, bytes.length - written),
      );
      out.timeout = stallMs;
      const { error, actual } = await new Promise<{ error: UsbErrorLike | undefined; actual: number }>(
        (resolve) => {
          try {
            out.transfer(chunk, (error, actual) =>
              resolve({ error, actual: Math.max(0, Math.min(actual ?? 0, chunk.length)) }),
            );
          } catch (e) {
            resolve({ error: e as UsbErrorLike, actual: 0 });
          }
        },
      );
      written += actual;
      if (error) {
        const timedOut = error.errno === LIBUSB.TRANSFER_TIMED_OUT || error.errno === LIBUSB.ERROR_TIMEOUT;
        if (timedOut && actual > 0) continue; // progress before the timeout: the device is slow, not stuck
        throw this.mapError(error, 'write', written, bytes.length);
      }
      // A short write: the remainder goes in the next transfer. Only repeated empty ones mean a stuck device.
      empty = actual === 0 ? empty + 1 : 0;
      if (empty >= MAX_EMPTY_TRANSFERS) {
        throw new PrinterTimeout(
          `${this.uri}: device accepted no data after ${written} of ${bytes.length} bytes`,
          this.uri,
          'write',
          written,
        );
      }
    }
  }

  /** One bulk IN transfer; empty when it timed out. */
  private readIn(input: UsbInEndpointLike, timeoutMs: number): Promise<Uint8Array> {
    input.timeout = Math.max(1, Math.ceil(timeoutMs));
    const length = Math.max(64, input.descriptor.wMaxPacketSize) * 8;
    return new Promise((resolve, reject) => {
      const done = (error: UsbErrorLike | undefined, data?: Buffer): void => {
        if (!error) resolve(new Uint8Array(data ?? []));
        else if (error.errno === LIBUSB.TRANSFER_TIMED_OUT || error.errno === LIBUSB.ERROR_TIMEOUT)
          resolve(new Uint8Array(0));
        else reject(this.mapError(error, 'request'));
      };
      try {
        input.transfer(length, done);
      } catch (e) {
        done(e as UsbErrorLike);
      }
    });
  }

  private mapError(
    e: unknown,
    phase: 'open' | 'write' | 'request',
    bytesWritten = 0,
    totalBytes = 0,
  ): PrinterError {
    const error = e as Partial<UsbErrorLike>;
    const cause = { cause: e };
    switch (error.errno) {
      case LIBUSB.TRANSFER_NO_DEVICE:
      case LIBUSB.ERROR_NO_DEVICE:
      case LIBUSB.ERROR_IO:
      case LIBUSB.TRANSFER_ERROR:
        if (phase === 'open')
          return new PrinterNotFound(`${this.uri}: the device went away`, this.uri, cause);
        return new PrinterDisconnected(
          `${this.uri}: device unplugged or failed after ${bytesWritten} of ${totalBytes} bytes`,
          this.uri,
          bytesWritten,
          totalBytes,
          cause,
        );
      case LIBUSB.ERROR_ACCESS:
        return new PrinterRefused(
          `${this.uri}: permission denied (on Linux add a udev rule for the device, or use /dev/usb/lp*)`,
          this.uri,
          cause,
        );
      case LIBUSB.ERROR_BUSY:
        return new PrinterRefused(
          `${this.uri}: the printer is in use by another program or driver`,
          this.uri,
          cause,
        );
      case LIBUSB.ERROR_NOT_FOUND:
        return new PrinterNotFound(`${this.uri}: ${error.message ?? 'not found'}`, this.uri, cause);
      case LIBUSB.TRANSFER_STALL:
      case LIBUSB.ERROR_PIPE:
        return new PrinterRefused(
          `${this.uri}: the printer stalled the endpoint after ${bytesWritten} of ${totalBytes} bytes`,
          this.uri,
          cause,
        );
      case LIBUSB.TRANSFER_TIMED_OUT:
      case LIBUSB.ERROR_TIMEOUT:
        return new PrinterTimeout(
          `${this.uri}: the printer stopped accepting data after ${bytesWritten} of ${totalBytes} bytes`,
          this.uri,
          phase === 'open' ? 'open' : phase,
          bytesWritten,
        );
      case LIBUSB.ERROR_NOT_SUPPORTED:
        return new PrinterUnsupported(
          `${this.uri}: ${error.message ?? 'operation not supported'}`,
          this.uri,
          cause,
        );
      default:
        return new PrinterIoError(`${this.uri}: ${error.message ?? String(e)}`, this.uri, cause);
    }
  }

  /**
   * Releases the interface, gives the kernel driver back, closes the device; resolves once done and never
   * rejects (the device may be gone).
   */
  private releaseQuietly(
    device: UsbDeviceLike,
    iface: UsbInterfaceLike | undefined,
    claimed: boolean,
  ): Promise<void> {
    const reattach = this.detached;
    this.detached = false;
    const finish = (): void => {
      if (iface && reattach) {
        try {
          iface.attachKernelDriver();
        } catch {
          // Unplugged, or the driver is gone.
        }
      }
      try {
        device.close();
      } catch {
        // Already closed.
      }
    };
    if (!iface || !claimed) {
      finish();
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      try {
        iface.release(true, () => {
          finish();
          resolve();
        });
      } catch {
        finish();
        resolve();
      }
    });
  }
}

/** The first interface of printer class (or, for a vendor-specific Zebra, any) with a bulk OUT endpoint. */
export function pickPrinterInterface(device: UsbDeviceLike): UsbInterfaceLike | undefined {
  const candidates = device.interfaces ?? [];
  const hasBulkOut = (i: UsbInterfaceLike): boolean =>
    i.endpoints.some((e) => e.direction === 'out' && e.transferType === USB_TRANSFER_TYPE_BULK);
  return (
    candidates.find((i) => i.descriptor.bInterfaceClass === USB_CLASS_PRINTER && hasBulkOut(i)) ??
    candidates.find(hasBulkOut)
  );
}

async function serialOf(device: UsbDeviceLike): Promise<string | undefined> {
  let opened = false;
  try {
    device.open();
    opened = true;
    return await readStringDescriptor(device, device.deviceDescriptor.iSerialNumber);
  } catch {
    return undefined;
  } finally {
    if (opened) {
      try {
        device.close();
      } catch {
        // ignore
      }
    }
  }
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const all = new Uint8Array(a.length + b.length);
  all.set(a);
  all.set(b, a.length);
  return all;
}

/** A libusb transport for `usb://VID:PID[?serial=]` (not yet open). */
export function createUsbTransport(uri: UsbUri, options: UsbTransportOptions = {}): UsbTransport {
  return new UsbTransport(uri, options);
}
