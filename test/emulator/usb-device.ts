/**
 * An emulated USB printer at node-usb's API boundary (src/node/printers/usb-device.ts): the Zebra emulator core
 * behind a printer-class interface with bulk OUT 0x01 and bulk IN 0x81, behaving as libusb does on Linux:
 *
 * - `interfaces` exist only once the device is open; opening an unplugged device fails with NO_DEVICE.
 * - The `usblp` kernel driver is bound by default: `claim()` then fails with LIBUSB_ERROR_BUSY until
 *   `detachKernelDriver()`; detaching an unbound driver fails with NOT_FOUND.
 * - Transfers complete asynchronously. An OUT transfer may take fewer bytes than sent (`maxBytesPerTransfer`:
 *   a short write). Unplugging (`unplug()`, or `unplugAfterBytes`) fails the transfer in flight with
 *   TRANSFER_NO_DEVICE, reporting the bytes taken before, and everything after with NO_DEVICE.
 * - An IN transfer returns what the printer has answered, or fails with TRANSFER_TIMED_OUT after the endpoint's
 *   timeout.
 */
import {
  LIBUSB,
  USB_TRANSFER_TYPE_BULK,
  type UsbDeviceLike,
  type UsbErrorLike,
  type UsbInEndpointLike,
  type UsbInterfaceLike,
  type UsbOutEndpointLike,
} from '../../src/node/printers/usb-device';
import type { ZebraPrinterModel, ZebraSession } from './zebra-core';

export interface EmulatedUsbOptions {
  /** The printer behind the device; omit for a non-printer device or one that only enumerates. */
  printer?: ZebraPrinterModel;
  vendorId?: number;
  productId?: number;
  deviceClass?: number;
  interfaceClass?: number;
  manufacturer?: string;
  product?: string;
  serial?: string;
  kernelDriverActive?: boolean;
  /** Most bytes one OUT transfer takes (short writes). Default: all. */
  maxBytesPerTransfer?: number;
  /** The device disappears once it has taken this many bytes in total. */
  unplugAfterBytes?: number;
  /** A one-way printer without bulk IN. */
  noInEndpoint?: boolean;
  /** claim() fails with this libusb error (e.g. LIBUSB.ERROR_ACCESS: no permission on the device node). */
  claimError?: number;
}

const libusbError = (errno: number, name: string): UsbErrorLike => Object.assign(new Error(name), { errno });

export class EmulatedUsbDevice implements UsbDeviceLike {
  busNumber = 1;
  deviceAddress: number;
  readonly deviceDescriptor: UsbDeviceLike['deviceDescriptor'];
  readonly configDescriptor: { interfaces: { bInterfaceClass: number }[][] };
  interfaces: UsbInterfaceLike[] | undefined;
  /** Every API call, in order, for tests to check the protocol (detach before claim, release, reattach). */
  readonly calls: string[] = [];
  /** Sizes of the OUT transfers submitted. */
  readonly outTransfers: number[] = [];
  /** Bytes the device has taken. */
  taken = 0;
  private unplugged = false;
  private isOpen = false;
  private kernelDriver: boolean;
  private claimed = false;
  private session: ZebraSession | undefined;
  private inQueue: Buffer[] = [];
  private inWaiter: (() => void) | undefined;
  private static nextAddress = 1;

  constructor(private readonly options: EmulatedUsbOptions = {}) {
    this.deviceAddress = EmulatedUsbDevice.nextAddress++;
    this.kernelDriver = options.kernelDriverActive ?? true;
    this.deviceDescriptor = {
      idVendor: options.vendorId ?? 0x0a5f,
      idProduct: options.productId ?? 0x0181,
      bDeviceClass: options.deviceClass ?? 0,
      iManufacturer: options.manufacturer === undefined ? 0 : 1,
      iProduct: options.product === undefined ? 0 : 2,
      iSerialNumber: options.serial === undefined ? 0 : 3,
    };
    this.configDescriptor = { interfaces: [[{ bInterfaceClass: options.interfaceClass ?? 7 }]] };
  }

  /** Pulls the cable. */
  unplug(): void {
    this.unplugged = true;
    this.inWaiter?.();
  }

  open(): void {
    this.calls.push('open');
    if (this.unplugged) throw libusbError(LIBUSB.ERROR_NO_DEVICE, 'LIBUSB_ERROR_NO_DEVICE');
    this.isOpen = true;
    this.interfaces = [this.makeInterface()];
  }

  close(): void {
    this.calls.push('close');
    this.isOpen = false;
    this.interfaces = undefined;
    this.session?.end();
    this.session = undefined;
  }

  getStringDescriptor(index: number, callback: (error?: UsbErrorLike, value?: string) => void): void {
    const value = [undefined, this.options.manufacturer, this.options.product, this.options.serial][index];
    setImmediate(() => {
      if (!this.isOpen || this.unplugged)
        callback(libusbError(LIBUSB.ERROR_NO_DEVICE, 'LIBUSB_ERROR_NO_DEVICE'));
      else if (value === undefined) callback(libusbError(LIBUSB.ERROR_PIPE, 'LIBUSB_ERROR_PIPE'));
      else callback(undefined, value);
    });
  }

  private makeInterface(): UsbInterfaceLike {
    const out: UsbOutEndpointLike = {
      direction: 'out',
      transferType: USB_TRANSFER_TYPE_BULK,
      timeout: 0,
      descriptor: { bEndpointAddress: 0x01, wMaxPacketSize: 512 },
      transfer: (buffer, callback) => {
        this.outTransfers.push(buffer.length);
        setImmediate(() => this.completeOut(buffer, callback));
        return out;
      },
    };
    const input: UsbInEndpointLike = {
      direction: 'in',
      transferType: USB_TRANSFER_TYPE_BULK,
      timeout: 0,
      descriptor: { bEndpointAddress: 0x81, wMaxPacketSize: 512 },
      transfer: (length, callback) => {
        this.completeIn(length, input.timeout, callback);
        return input;
      },
    };
    return {
      interfaceNumber: 0,
      descriptor: {
        bInterfaceClass: this.options.interfaceClass ?? 7,
        bInterfaceSubClass: 1,
        bInterfaceProtocol: 2,
      },
      endpoints: this.options.noInEndpoint ? [out] : [out, input],
      isKernelDriverActive: () => {
        this.calls.push('isKernelDriverActive');
        return this.kernelDriver;
      },
      detachKernelDriver: () => {
        this.calls.push('detachKernelDriver');
        if (!this.kernelDriver) throw libusbError(LIBUSB.ERROR_NOT_FOUND, 'LIBUSB_ERROR_NOT_FOUND');
        this.kernelDriver = false;
      },
      attachKernelDriver: () => {
        this.calls.push('attachKernelDriver');
        if (this.unplugged) throw libusbError(LIBUSB.ERROR_NO_DEVICE, 'LIBUSB_ERROR_NO_DEVICE');
        this.kernelDriver = true;
      },
      claim: () => {
        this.calls.push('claim');
        if (this.unplugged) throw libusbError(LIBUSB.ERROR_NO_DEVICE, 'LIBUSB_ERROR_NO_DEVICE');
        if (this.kernelDriver) throw libusbError(LIBUSB.ERROR_BUSY, 'LIBUSB_ERROR_BUSY');
        if (this.options.claimError !== undefined) throw libusbError(this.options.claimError, 'LIBUSB_ERROR');
        this.claimed = true;
        this.session = this.options.printer?.openSession((bytes) => {
          this.inQueue.push(Buffer.from(bytes));
          this.inWaiter?.();
        });
      },
      release: (_closeEndpoints, callback) => {
        this.calls.push('release');
        this.claimed = false;
        setImmediate(() =>
          callback(
            this.unplugged ? libusbError(LIBUSB.ERROR_NO_DEVICE, 'LIBUSB_ERROR_NO_DEVICE') : undefined,
          ),
        );
      },
    };
  }

  private completeOut(
    buffer: Buffer,
    callback: (error: UsbErrorLike | undefined, actual: number) => void,
  ): void {
    if (this.unplugged)
      return callback(libusbError(LIBUSB.TRANSFER_NO_DEVICE, 'LIBUSB_TRANSFER_NO_DEVICE'), 0);
    if (!this.claimed) return callback(libusbError(LIBUSB.TRANSFER_ERROR, 'LIBUSB_TRANSFER_ERROR'), 0);
    let take = Math.min(buffer.length, this.options.maxBytesPerTransfer ?? buffer.length);
    const limit = this.options.unplugAfterBytes;
    const unplugNow = limit !== undefined && this.taken + take >= limit;
    if (unplugNow) take = limit - this.taken;
    this.taken += take;
    this.session?.receive(buffer.subarray(0, take));
    if (unplugNow && take < buffer.length) {
      this.unplug();
      return callback(libusbError(LIBUSB.TRANSFER_NO_DEVICE, 'LIBUSB_TRANSFER_NO_DEVICE'), take);
    }
    if (unplugNow) this.unplug();
    callback(undefined, take);
  }

  private completeIn(
    length: number,
    timeoutMs: number,
    callback: (error: UsbErrorLike | undefined, data?: Buffer) => void,
  ): void {
    const deliver = (): boolean => {
      if (this.unplugged) {
        callback(libusbError(LIBUSB.TRANSFER_NO_DEVICE, 'LIBUSB_TRANSFER_NO_DEVICE'));
        return true;
      }
      if (this.inQueue.length === 0) return false;
      const all = Buffer.concat(this.inQueue);
      this.inQueue = all.length > length ? [all.subarray(length)] : [];
      callback(undefined, all.subarray(0, length));
      return true;
    };
    setImmediate(() => {
      if (!this.claimed && !this.unplugged)
        return callback(libusbError(LIBUSB.TRANSFER_ERROR, 'LIBUSB_TRANSFER_ERROR'));
      if (deliver()) return;
      const timer =
        timeoutMs > 0
          ? setTimeout(() => {
              this.inWaiter = undefined;
              callback(libusbError(LIBUSB.TRANSFER_TIMED_OUT, 'LIBUSB_TRANSFER_TIMED_OUT'));
            }, timeoutMs)
          : undefined;
      this.inWaiter = () => {
        if (deliver()) {
          this.inWaiter = undefined;
          if (timer) clearTimeout(timer);
        }
      };
    });
  }
}
