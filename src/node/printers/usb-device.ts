/**
 * The slice of node-usb (`usb@2`) that LabelDesk uses, as interfaces, so the USB transport and discovery run
 * against either a real device or an emulated one in tests. Names, callbacks and error numbers are node-usb's
 * (libusb's): an emulated device that satisfies these behaves like the real API at this boundary.
 */
import type { Device } from 'usb';

/** libusb transfer status codes (positive) and error codes (negative), as node-usb reports them in `errno`. */
export const LIBUSB = {
  TRANSFER_ERROR: 1,
  TRANSFER_TIMED_OUT: 2,
  TRANSFER_CANCELLED: 3,
  TRANSFER_STALL: 4,
  TRANSFER_NO_DEVICE: 5,
  TRANSFER_OVERFLOW: 6,
  ERROR_IO: -1,
  ERROR_ACCESS: -3,
  ERROR_NO_DEVICE: -4,
  ERROR_NOT_FOUND: -5,
  ERROR_BUSY: -6,
  ERROR_TIMEOUT: -7,
  ERROR_PIPE: -9,
  ERROR_NOT_SUPPORTED: -12,
} as const;

/** USB class code of printers (device or interface class). */
export const USB_CLASS_PRINTER = 7;
/** Zebra Technologies' USB vendor id. */
export const ZEBRA_VENDOR_ID = 0x0a5f;
/** bmAttributes transfer type of bulk endpoints. */
export const USB_TRANSFER_TYPE_BULK = 2;

/** node-usb's LibUSBException. */
export interface UsbErrorLike extends Error {
  errno: number;
}

interface EndpointBase {
  /** Per-transfer timeout in ms (0 = none), as on node-usb endpoints. */
  timeout: number;
  transferType: number;
  descriptor: { bEndpointAddress: number; wMaxPacketSize: number };
}

export interface UsbInEndpointLike extends EndpointBase {
  direction: 'in';
  transfer(length: number, callback: (error: UsbErrorLike | undefined, data?: Buffer) => void): unknown;
}

export interface UsbOutEndpointLike extends EndpointBase {
  direction: 'out';
  /** `actual` is how many bytes the device took, which may be fewer than sent. */
  transfer(buffer: Buffer, callback: (error: UsbErrorLike | undefined, actual: number) => void): unknown;
}

export type UsbEndpointLike = UsbInEndpointLike | UsbOutEndpointLike;

export interface UsbInterfaceLike {
  interfaceNumber: number;
  descriptor: { bInterfaceClass: number; bInterfaceSubClass: number; bInterfaceProtocol: number };
  endpoints: UsbEndpointLike[];
  isKernelDriverActive(): boolean;
  detachKernelDriver(): void;
  attachKernelDriver(): void;
  claim(): void;
  release(closeEndpoints: boolean, callback: (error?: UsbErrorLike) => void): void;
}

export interface UsbDeviceLike {
  busNumber: number;
  deviceAddress: number;
  deviceDescriptor: {
    idVendor: number;
    idProduct: number;
    bDeviceClass: number;
    iManufacturer: number;
    iProduct: number;
    iSerialNumber: number;
  };
  /** Interface classes from the active configuration, readable without opening the device. */
  configDescriptor?: { interfaces: { bInterfaceClass: number }[][] };
  /** Filled once the device is open. */
  interfaces: UsbInterfaceLike[] | undefined;
  open(): void;
  close(): void;
  getStringDescriptor(index: number, callback: (error?: UsbErrorLike, value?: string) => void): void;
}

/** Lists the USB devices attached now. */
export type ListUsbDevices = () => Promise<UsbDeviceLike[]>;

/**
 * The real devices, via node-usb (loaded on first use: a native module). node-usb types an interface's
 * endpoints as the abstract `Endpoint`; at run time they are its InEndpoint/OutEndpoint classes, whose
 * `direction` and `transfer` are exactly UsbInEndpointLike/UsbOutEndpointLike, hence the one cast.
 */
export const listSystemUsbDevices: ListUsbDevices = async () => {
  const { getDeviceList } = await import('usb');
  return getDeviceList().map((device: Device) => device as unknown as UsbDeviceLike);
};

/** Whether a device is a printer we can drive: Zebra's vendor id, or printer class on the device or an interface. */
export function isUsbPrinter(device: UsbDeviceLike): boolean {
  const d = device.deviceDescriptor;
  if (d.idVendor === ZEBRA_VENDOR_ID || d.bDeviceClass === USB_CLASS_PRINTER) return true;
  let config: UsbDeviceLike['configDescriptor'];
  try {
    config = device.configDescriptor;
  } catch {
    return false; // no active configuration readable (not configured, or no permission)
  }
  return (
    config?.interfaces.some((alts) => alts.some((a) => a.bInterfaceClass === USB_CLASS_PRINTER)) ?? false
  );
}

/** Reads a string descriptor (manufacturer, product, serial); undefined when absent or unreadable. */
export function readStringDescriptor(device: UsbDeviceLike, index: number): Promise<string | undefined> {
  if (!index) return Promise.resolve(undefined);
  return new Promise((resolve) => {
    try {
      device.getStringDescriptor(index, (error, value) =>
        resolve(error ? undefined : value?.trim() || undefined),
      );
    } catch {
      resolve(undefined);
    }
  });
}

export interface UsbPrinterInfo {
  device: UsbDeviceLike;
  vendorId: number;
  productId: number;
  manufacturer?: string;
  product?: string;
  serial?: string;
}

/**
 * Reads a printer's strings. They need the device open; a device we may not open (permissions, claimed by
 * another program) is listed without them.
 */
export async function describeUsbPrinter(device: UsbDeviceLike): Promise<UsbPrinterInfo> {
  const d = device.deviceDescriptor;
  const info: UsbPrinterInfo = { device, vendorId: d.idVendor, productId: d.idProduct };
  let opened = false;
  try {
    device.open();
    opened = true;
    const [manufacturer, product, serial] = await Promise.all([
      readStringDescriptor(device, d.iManufacturer),
      readStringDescriptor(device, d.iProduct),
      readStringDescriptor(device, d.iSerialNumber),
    ]);
    if (manufacturer) info.manufacturer = manufacturer;
    if (product) info.product = product;
    if (serial) info.serial = serial;
  } catch {
    // Listed with ids only.
  } finally {
    if (opened) {
      try {
        device.close();
      } catch {
        // Already gone.
      }
    }
  }
  return info;
}
